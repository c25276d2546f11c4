#include "core/ring/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/base/unique_fd.h"

namespace mpo::ring {
namespace {

Status IoError(const std::string& call, const std::string& path) {
  return Status(ErrorCode::kIo, call + " failed: " + std::strerror(errno)).WithField(path);
}

}  // namespace

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      path_(std::move(other.path_)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    Close(false);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    path_ = std::move(other.path_);
  }
  return *this;
}

MappedFile::~MappedFile() { Close(false); }

void MappedFile::Close(bool remove_file) {
  if (data_ != nullptr) {
    ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
    if (remove_file) ::unlink(path_.c_str());
  }
}

Result<MappedFile> MappedFile::Create(const std::string& path, std::uint64_t size) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, S_IRUSR | S_IWUSR));
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
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) {
      return Status(ErrorCode::kNotFound, "E_OPEN_FAILURE: no such file").WithField(path);
    }
    return IoError("E_OPEN_FAILURE: open", path);
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return IoError("E_OPEN_FAILURE: fstat", path);
  if (st.st_size <= 0) {
    return Status(ErrorCode::kTruncated, "empty file, no metadata header").WithField(path);
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
  if (p == MAP_FAILED) return IoError("E_MAP_FAILURE: mmap", path);
  MappedFile f;
  f.data_ = static_cast<std::byte*>(p);
  f.size_ = size;
  f.path_ = path;
  return f;
}

}  // namespace mpo::ring
