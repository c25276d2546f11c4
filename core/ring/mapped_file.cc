#include "core/ring/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/io/input_file.h"

namespace mpo::ring {
namespace {

Status IoError(const std::string& call, const std::string& path) {
  return Status(ErrorCode::kIo, call + " failed: " + std::strerror(errno)).WithField(path);
}

Status Shrunk(const std::string& path, std::uint64_t now, std::uint64_t mapped) {
  return Status(ErrorCode::kTruncated, "E_CORRUPT_STREAM: the file shrank while mapped (" +
                                           std::to_string(mapped) + " bytes when opened, " +
                                           std::to_string(now) + " now)")
      .WithField(path);
}

}  // namespace

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      path_(std::move(other.path_)),
      fd_(std::move(other.fd_)),
      guard_(std::move(other.guard_)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    Close(false);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    path_ = std::move(other.path_);
    fd_ = std::move(other.fd_);
    guard_ = std::move(other.guard_);
  }
  return *this;
}

MappedFile::~MappedFile() { Close(false); }

void MappedFile::Close(bool remove_file) {
  if (data_ != nullptr) {
    guard_.Reset();  // before the range can be reused by another mapping
    ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
    fd_.Reset();
    if (remove_file) ::unlink(path_.c_str());
  }
}

Result<MappedFile> MappedFile::Create(const std::string& path, std::uint64_t size) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return IoError("unlink", path);
  UniqueFd fd(
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR));
  if (fd.get() < 0) return IoError("open", path);
  if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) return IoError("ftruncate", path);
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (p == MAP_FAILED) return IoError("mmap", path);
  MappedFile f;
  f.data_ = static_cast<std::byte*>(p);
  f.size_ = size;
  f.path_ = path;
  return f;
}

Result<MappedFile> MappedFile::OpenReadOnly(const std::string& path) {
  auto in = io::OpenInput(path);
  if (!in.ok()) {
    // OpenInput's documented message for a missing file; OCaml's code is E_OPEN_FAILURE.
    const bool missing = in.status().message() == "no such file";
    return Status(missing ? ErrorCode::kNotFound : ErrorCode::kIo,
                  "E_OPEN_FAILURE: " + in.status().message())
        .WithField(path);
  }
  if (in->size == 0) {
    return Status(ErrorCode::kTruncated, "empty file, no metadata header").WithField(path);
  }
  const std::uint64_t size = in->size;
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, in->fd.get(), 0);
  if (p == MAP_FAILED) return IoError("E_MAP_FAILURE: mmap", path);
  MappedFile f;
  f.data_ = static_cast<std::byte*>(p);
  f.size_ = size;
  f.path_ = path;
  f.fd_ = std::move(in->fd);
  auto guard = FaultGuard::Register(p, size);
  if (!guard.ok()) return guard.status();  // f's destructor unmaps
  f.guard_ = std::move(*guard);
  return f;
}

Status MappedFile::CheckIntact() const {
  if (!fd_.valid()) return Status::Ok();
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0) return IoError("fstat", path_);
  const auto now = static_cast<std::uint64_t>(st.st_size);
  if (now < size_ || guard_.faulted()) return Shrunk(path_, now, size_);
  return Status::Ok();
}

}  // namespace mpo::ring
