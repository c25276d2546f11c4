// Opening a file the program reads: only a regular file is accepted, so that a FIFO,
// socket, device or directory given by mistake (or malice) is a clear error instead of
// a hang in open() or a read that fails half-way.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/base/unique_fd.h"

namespace mpo::io {

// Which file a path names: device and inode after following links.
struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  friend bool operator==(const FileId&, const FileId&) = default;
};

struct InputFile {
  UniqueFd fd;             // read-only, close-on-exec, blocking
  std::uint64_t size = 0;  // at open
  FileId id;
};

// Opens `path` read-only without blocking (O_NONBLOCK, then cleared), then checks with
// fstat that it is a regular file. Errors are kIo with the path as field: "no such
// file", "is a directory", "is not a regular file (FIFO)", or the system's reason.
Result<InputFile> OpenInput(const std::string& path);

// The identity of what `path` names now, following links; nullopt if nothing is there.
// kIo for any other stat failure.
Result<std::optional<FileId>> IdentityOf(const std::string& path);

}  // namespace mpo::io
