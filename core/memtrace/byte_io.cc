#include "core/memtrace/byte_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/base/unique_fd.h"
#include "core/io/readable_input.h"

namespace mpo::memtrace {
namespace {

Status IoError(const std::string& what, const std::string& path, int err) {
  return Status(ErrorCode::kIo, what + " " + path + ": " + std::strerror(err));
}

class FileSource : public ByteSource {
 public:
  FileSource(int fd, std::uint64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd_.get(), out.data() + done, out.size() - done,
                          static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return IoError("cannot read", path_, errno);
      }
      if (n == 0) break;
      done += static_cast<std::size_t>(n);
    }
    return done;
  }
  std::uint64_t size() const override { return size_; }
  bool ConcurrentReads() const override { return true; }

 private:
  UniqueFd fd_;
  std::uint64_t size_;
  std::string path_;
};

// Forwards to a source owned elsewhere (readers take ownership of their source).
class Borrowed : public ByteSource {
 public:
  explicit Borrowed(ByteSource& s) : s_(s) {}
  Result<std::size_t> ReadAt(std::uint64_t o, std::span<std::uint8_t> out) override {
    return s_.ReadAt(o, out);
  }
  std::uint64_t size() const override { return s_.size(); }
  std::span<const std::uint8_t> InMemory() const override { return s_.InMemory(); }
  bool ConcurrentReads() const override { return s_.ConcurrentReads(); }

 private:
  ByteSource& s_;
};

class MemSource : public ByteSource {
 public:
  explicit MemSource(std::span<const std::uint8_t> b) : b_(b) {}
  void Reset(std::span<const std::uint8_t> b) { b_ = b; }
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    if (offset >= b_.size()) return std::size_t{0};
    std::size_t n = std::min<std::uint64_t>(out.size(), b_.size() - offset);
    if (n != 0) std::memcpy(out.data(), b_.data() + offset, n);
    return n;
  }
  std::uint64_t size() const override { return b_.size(); }
  std::span<const std::uint8_t> InMemory() const override { return b_; }
  bool ConcurrentReads() const override { return true; }

 private:
  std::span<const std::uint8_t> b_;
};

// Bytes read into memory (stdin, an inflated gzip file), owned by the source.
class OwnedMemSource : public MemSource {
 public:
  explicit OwnedMemSource(std::vector<std::uint8_t> b) : MemSource({}), bytes_(std::move(b)) {
    Reset(bytes_);
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

class FileSink : public ByteSink {
 public:
  FileSink(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  Status Write(std::span<const std::uint8_t> bytes) override {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd_.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return IoError("cannot write", path_, errno);
      }
      done += static_cast<std::size_t>(n);
    }
    return Status::Ok();
  }

 private:
  UniqueFd fd_;
  std::string path_;
};

// Instead of the first packet's bad magic: what the file is, and what reads it.
Status NotATrace(const std::string& path, const std::string& why) {
  return Status(ErrorCode::kCorrupt, why).WithField(path);
}

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path, io::FileId* id) {
  auto in = io::OpenReadable(path, kTraceInMemory);
  if (!in.ok()) return in.status();
  if (in->format == io::InputFormat::kRuntimeEventsRing) {
    return NotATrace(path,
                     "this looks like an OCaml runtime events ring, not a memtrace trace; try "
                     "`memprof-oracle events dump`");
  }
  if (in->format == io::InputFormat::kGzip) {
    return NotATrace(path, "this is a gzip file inside a gzip file; decompress it once first");
  }
  if (id != nullptr) *id = in->id;
  if (!in->file)
    return std::unique_ptr<ByteSource>(std::make_unique<OwnedMemSource>(std::move(in->bytes)));
  return std::unique_ptr<ByteSource>(
      std::make_unique<FileSource>(in->file->fd.Release(), in->file->size, path));
}

std::unique_ptr<ByteSource> MemorySource(std::span<const std::uint8_t> bytes) {
  return std::make_unique<MemSource>(bytes);
}

std::unique_ptr<ByteSource> BorrowSource(ByteSource& source) {
  return std::make_unique<Borrowed>(source);
}

Result<std::unique_ptr<ByteSink>> OpenFileSink(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot create", path, errno);
  return std::unique_ptr<ByteSink>(std::make_unique<FileSink>(fd, path));
}

Result<std::unique_ptr<AtomicFileSink>> AtomicFileSink::Create(const std::string& path,
                                                               std::span<const io::FileId> inputs) {
  auto out = io::AtomicOutput::Create(path, inputs);
  if (!out.ok()) return out.status();
  return std::make_unique<AtomicFileSink>(std::move(*out));
}

}  // namespace mpo::memtrace
