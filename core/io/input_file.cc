#include "core/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mpo::io {
namespace {

Status IoError(const std::string& what, const std::string& path, int err) {
  return Status(ErrorCode::kIo, what + ": " + std::strerror(err)).WithField(path);
}

const char* KindName(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is not a regular file (FIFO)";
  if (S_ISSOCK(mode)) return "is not a regular file (socket)";
  if (S_ISCHR(mode)) return "is not a regular file (character device)";
  if (S_ISBLK(mode)) return "is not a regular file (block device)";
  return "is not a regular file";
}

}  // namespace

Result<InputFile> OpenInput(const std::string& path) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise block forever.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!fd.valid()) {
    if (errno == ENOENT) return Status(ErrorCode::kIo, "no such file").WithField(path);
    return IoError("cannot open", path, errno);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return IoError("cannot stat", path, errno);
  if (!S_ISREG(st.st_mode)) return Status(ErrorCode::kIo, KindName(st.st_mode)).WithField(path);
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return IoError("cannot clear O_NONBLOCK", path, errno);
  }
  InputFile in;
  in.fd = std::move(fd);
  in.size = static_cast<std::uint64_t>(st.st_size);
  in.id = FileId{st.st_dev, st.st_ino};
  return in;
}

Result<std::optional<FileId>> IdentityOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::optional<FileId>();
    return IoError("cannot stat", path, errno);
  }
  return std::optional<FileId>(FileId{st.st_dev, st.st_ino});
}

}  // namespace mpo::io
