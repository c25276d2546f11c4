// Where trace bytes come from and go to: files (RAII fds, pread/write) or memory.
//
// Readers pull packets by offset so that memory stays bounded by one packet; writers
// push whole packets (memtrace writes each packet with one write call).
// Failure: every operation returns a typed kIo error naming the path and errno text.
// Threading: an instance is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::memtrace {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to out.size() bytes at `offset`; fewer only at the end of the data.
  virtual Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) = 0;
  virtual std::uint64_t size() const = 0;
  // All the bytes, when they already sit in memory that outlives this source (readers
  // then decode in place instead of copying each packet); empty otherwise.
  virtual std::span<const std::uint8_t> InMemory() const { return {}; }
};

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual Status Write(std::span<const std::uint8_t> bytes) = 0;
};

// A file opened read-only; its size is taken at open.
Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path);
// A view of memory the caller keeps alive.
std::unique_ptr<ByteSource> MemorySource(std::span<const std::uint8_t> bytes);

// A file created or truncated for writing.
Result<std::unique_ptr<ByteSink>> OpenFileSink(const std::string& path);

class VectorSink : public ByteSink {
 public:
  Status Write(std::span<const std::uint8_t> bytes) override {
    data.insert(data.end(), bytes.begin(), bytes.end());
    return Status::Ok();
  }
  std::vector<std::uint8_t> data;
};

}  // namespace mpo::memtrace
