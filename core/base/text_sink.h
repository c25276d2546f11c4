// Where the text forms (dumps, JSON Lines) go: a string, a FILE, or anything else.
// Shared by the memtrace and ring views so that neither depends on the other.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace mpo {

class TextSink {
 public:
  virtual ~TextSink() = default;
  virtual void Write(std::string_view s) = 0;
};

class StringTextSink : public TextSink {
 public:
  void Write(std::string_view s) override { text.append(s); }
  std::string text;
};

// Write errors are left to the FILE's error flag (the caller checks ferror/fclose).
class FileTextSink : public TextSink {
 public:
  explicit FileTextSink(std::FILE* f) : f_(f) {}
  void Write(std::string_view s) override { std::fwrite(s.data(), 1, s.size(), f_); }

 private:
  std::FILE* f_;
};

}  // namespace mpo
