#include "core/io/readable_input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <span>

#include "core/io/gzip.h"

namespace mpo::io {
namespace {

constexpr std::size_t kChunk = 65536;

Status ReadError(const std::string& path, int err) {
  return Status(ErrorCode::kIo, std::string("cannot read: ") + std::strerror(err)).WithField(path);
}

// Everything `fd` still holds from its current position, at most budget.max_bytes.
Result<std::vector<std::uint8_t>> ReadAll(int fd, const FileBudget& budget,
                                          const std::string& path) {
  std::vector<std::uint8_t> bytes;
  std::size_t have = 0;
  try {
    while (true) {
      if (have == bytes.size()) {
        if (bytes.size() > budget.max_bytes) return OverBudget(budget, path);
        bytes.resize(bytes.size() + std::max(kChunk, bytes.size() / 2));
      }
      const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return ReadError(path, errno);
      if (n == 0) break;
      have += static_cast<std::size_t>(n);
    }
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory reading the input").WithField(path);
  }
  if (have > budget.max_bytes) return OverBudget(budget, path);
  bytes.resize(have);
  return bytes;
}

// Inflates `in.bytes` when they are gzip, and records what the content is.
Status Settle(ReadableInput& in, const FileBudget& budget, const std::string& path) {
  in.format = SniffFormat(in.bytes);
  if (in.format != InputFormat::kGzip) return Status::Ok();
  auto inflated = Gunzip(in.bytes, budget, path);
  if (!inflated.ok()) return inflated.status();
  in.bytes = std::move(*inflated);
  in.gzip = true;
  in.format = SniffFormat(in.bytes);
  return Status::Ok();
}

}  // namespace

Result<ReadableInput> OpenReadable(const std::string& path, const FileBudget& budget) {
  ReadableInput in;
  if (path == kStdinPath) {
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0) in.id = FileId{st.st_dev, st.st_ino};
    auto bytes = ReadAll(STDIN_FILENO, budget, "stdin");
    if (!bytes.ok()) return bytes.status();
    in.bytes = std::move(*bytes);
    MPO_RETURN_IF_ERROR(Settle(in, budget, "stdin"));
    return in;
  }
  auto file = OpenInput(path);
  if (!file.ok()) return file.status();
  in.id = file->id;
  std::uint8_t head[kSniffBytes];
  ssize_t n;
  do {
    n = ::pread(file->fd.get(), head, sizeof head, 0);
  } while (n < 0 && errno == EINTR);
  // A file that cannot be read at its start is left to its reader, whose error says
  // where reading stopped (a streamed trace reports it as the end of its stream).
  if (n < 0) n = 0;
  in.format = SniffFormat(std::span<const std::uint8_t>(head, static_cast<std::size_t>(n)));
  if (in.format != InputFormat::kGzip) {
    in.file = std::move(*file);
    return in;
  }
  if (file->size > budget.max_bytes) return OverBudget(budget, path);
  auto bytes = ReadAll(file->fd.get(), budget, path);
  if (!bytes.ok()) return bytes.status();
  in.bytes = std::move(*bytes);
  MPO_RETURN_IF_ERROR(Settle(in, budget, path));
  return in;
}

const char* DescribeFormat(InputFormat format) {
  switch (format) {
    case InputFormat::kGzip: return "a gzip file";
    case InputFormat::kMemtraceTrace: return "a memtrace trace";
    case InputFormat::kRuntimeEventsRing: return "an OCaml runtime events ring";
    case InputFormat::kUnknown: break;
  }
  return "an unknown format";
}

}  // namespace mpo::io
