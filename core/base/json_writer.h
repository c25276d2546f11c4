// A streaming JSON writer appending to a std::string: the one way views and reports
// write JSON. It places the commas and colons; strings and numbers follow json_text.h
// (valid UTF-8 as a string, other bytes as {"hex":...}, integers in full, doubles as the
// shortest round trip). It only appends to the caller's buffer, so writing a value
// allocates nothing once the buffer has grown; it does not check that the calls nest
// properly (the views' tests pin their output).
//
//   JsonWriter w(buf);
//   w.BeginObject();
//   w.Key("kind");
//   w.Name("draw");
//   w.Key("value");
//   w.Uint(7);
//   w.EndObject();
//   w.EndLine();          // {"kind":"draw","value":7}\n
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/json_text.h"

namespace mpo {

// A member name checked when the program is compiled: a string literal of at most
// kMaxSize printable ASCII characters without " or \, so it is written as is.
class JsonKey {
 public:
  static constexpr std::size_t kMaxSize = 60;

  template <std::size_t N>
  consteval JsonKey(const char (&name)[N])  // NOLINT(google-explicit-constructor)
      : data_(name), size_(N - 1) {
    static_assert(N - 1 <= kMaxSize, "a JSON key is at most kMaxSize characters");
    for (std::size_t i = 0; i + 1 < N; ++i)
      if (name[i] < 0x20 || name[i] > 0x7e || name[i] == '"' || name[i] == '\\')
        throw "a JSON key must be printable ASCII without quote or backslash";
  }
  std::string_view view() const { return {data_, size_}; }

 private:
  const char* data_;
  std::size_t size_;
};

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(&out) {}
  // Continues a comma-separated list already in `out` (after_value: it ends in a value).
  JsonWriter(std::string& out, bool after_value) : out_(&out), comma_(after_value) {}

  std::string& buffer() { return *out_; }

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  // The member name; the next call writes its value. One append of ,"name": from the
  // stack: the views write several members per line.
  void Key(JsonKey key) {
    const std::string_view name = key.view();
    char text[JsonKey::kMaxSize + 4];  // NOLINT(cppcoreguidelines-pro-type-member-init)
    text[0] = ',';
    text[1] = '"';
    name.copy(text + 2, name.size());
    text[name.size() + 2] = '"';
    text[name.size() + 3] = ':';
    const std::size_t skip = comma_ ? 0 : 1;
    out_->append(text + skip, name.size() + 4 - skip);
    comma_ = false;
  }

  // A member name that comes from data (a phase name, an event kind): escaped as a
  // string is. The next call writes its value.
  void DataKey(std::string_view name) {
    if (comma_) *out_ += ',';
    json_text::AppendString(*out_, name);
    *out_ += ':';
    comma_ = false;
  }

  void String(std::string_view bytes) {
    Value();
    json_text::AppendString(*out_, bytes);
  }
  void Uint(std::uint64_t v) {
    Value();
    json_text::AppendUint(*out_, v);
  }
  void Int(std::int64_t v) {
    Value();
    json_text::AppendInt(*out_, v);
  }
  void Double(double v) {
    Value();
    json_text::AppendDouble(*out_, v);
  }
  void Bool(bool v) {
    Value();
    out_->append(v ? "true" : "false");
  }
  void Null() {
    Value();
    out_->append("null", 4);
  }
  // A string from the program's own tables (kind and source names: printable ASCII
  // without " or \), written without the UTF-8 check.
  void Name(std::string_view name) {
    Value();
    if (name.size() > kShortName) {
      *out_ += '"';
      out_->append(name);
      *out_ += '"';
      return;
    }
    // One append, as for keys: names are written once or twice per line.
    char text[kShortName + 2];  // NOLINT(cppcoreguidelines-pro-type-member-init)
    text[0] = '"';
    name.copy(text + 1, name.size());
    text[name.size() + 1] = '"';
    out_->append(text, name.size() + 2);
  }
  // `v` as a quoted lower-case hex string without 0x ("1f").
  void HexCode(std::uint64_t v) {
    Value();
    json_text::AppendHexCode(*out_, v);
  }
  // The lower-case hex of every byte, as one string.
  void HexString(std::string_view bytes) {
    Value();
    *out_ += '"';
    json_text::AppendHexBytes(*out_, bytes);
    *out_ += '"';
  }
  // One or more comma-separated values already in JSON text (nothing when empty).
  void Raw(std::string_view json) {
    if (json.empty()) return;
    Value();
    out_->append(json);
  }

  // Ends a JSON Lines record: a newline, and the next value starts a new line.
  void EndLine() {
    *out_ += '\n';
    comma_ = false;
  }

 private:
  static constexpr std::size_t kShortName = 30;

  void Value() {
    if (comma_) *out_ += ',';
    comma_ = true;
  }
  void Open(char c) {
    Value();
    *out_ += c;
    comma_ = false;
  }
  void Close(char c) {
    *out_ += c;
    comma_ = true;
  }

  std::string* out_;
  // Whether the next value or key follows a value at the same level (needs a comma).
  bool comma_ = false;
};

}  // namespace mpo
