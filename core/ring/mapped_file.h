// A shared memory mapping of a whole file, unmapped (and optionally unlinked) when it
// goes away. Used by the producer (created read-write, mode 0600, sized with ftruncate)
// and by the consumer (opened read-only at its current size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/base/unique_fd.h"
#include "core/ring/fault_guard.h"

namespace mpo::ring {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Creates a new file at `path` with mode 0600, sizes it and maps it shared,
  // read-write. Whatever `path` named before is unlinked first, never opened: a
  // planted symlink is not followed and a file someone else still reads (or a hard
  // link to one) is not truncated; the new file is created with O_EXCL | O_NOFOLLOW,
  // so a link planted in between is an error. kIo names the failing system call.
  static Result<MappedFile> Create(const std::string& path, std::uint64_t size);
  // Maps an existing regular file read-only at its current size (a FIFO, socket,
  // device or directory is refused without blocking). kNotFound if it does not exist,
  // kIo for other open/fstat/mmap failures, kTruncated if it is empty. The mapping
  // is guarded (fault_guard.h): if the file shrinks, reads see zeros instead of
  // SIGBUS, and CheckIntact reports it.
  static Result<MappedFile> OpenReadOnly(const std::string& path);

  std::byte* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  bool mapped() const { return data_ != nullptr; }

  // For a read-only mapping: kTruncated (field: the path) if the file is now shorter
  // than the mapping or a read has already hit a vanished page. One fstat: the cursor
  // calls it at open and after a fault, not at every poll.
  Status CheckIntact() const;
  // A read of the mapping has hit a vanished page (no system call).
  bool faulted() const { return guard_.faulted(); }

  // Unmaps now; with `remove_file`, also unlinks the file. Idempotent.
  void Close(bool remove_file);

 private:
  std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::string path_;
  UniqueFd fd_;  // read-only mappings: kept for CheckIntact's fstat
  FaultGuard guard_;
};

}  // namespace mpo::ring
