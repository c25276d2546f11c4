// A shared memory mapping of a whole file, unmapped (and optionally unlinked) when it
// goes away. Used by the producer (created read-write, mode 0600, sized with ftruncate)
// and by the consumer (opened read-only at its current size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::ring {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Creates (or truncates to zero, then resizes) `path` with mode 0600 and maps it
  // shared, read-write. kIo names the failing system call.
  static Result<MappedFile> Create(const std::string& path, std::uint64_t size);
  // Maps an existing file read-only at its current size. kNotFound if it does not
  // exist, kIo for other open/fstat/mmap failures, kTruncated if it is empty.
  static Result<MappedFile> OpenReadOnly(const std::string& path);

  std::byte* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  bool mapped() const { return data_ != nullptr; }

  // Unmaps now; with `remove_file`, also unlinks the file. Idempotent.
  void Close(bool remove_file);

 private:
  std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::string path_;
};

}  // namespace mpo::ring
