// Where trace bytes come from and go to: files (RAII fds, pread/write) or memory.
//
// Readers pull packets by offset so that memory stays bounded by one packet; writers
// push whole packets (memtrace writes each packet with one write call).
// Inputs are regular files only (io::OpenInput: a FIFO, socket, device or directory is an
// error, never a hang), or "-" for stdin; stdin and gzip files are read into memory
// (io::OpenReadable) within kTraceInMemory. Tools write through AtomicFileSink, so that a failed or
// refused write leaves any existing file untouched. Failure: every operation returns a typed kIo
// error naming the path and errno text. Threading: an instance is used by one thread at a time,
// except a source whose ConcurrentReads() is true, whose ReadAt may run on several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/io/file_budget.h"
#include "core/io/input_file.h"
#include "core/io/output_file.h"

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
  // Whether ReadAt may run on two threads at once (it keeps no state: pread, memory).
  virtual bool ConcurrentReads() const { return false; }
};

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual Status Write(std::span<const std::uint8_t> bytes) = 0;
  // Whether Restart() can take back what was written (nothing is final yet).
  virtual bool CanRestart() const { return false; }
  // Forgets every byte written so far, and any write error: the sink is as new.
  // kFailedPrecondition where CanRestart() is false.
  virtual Status Restart() {
    return Status(ErrorCode::kFailedPrecondition, "this output cannot be restarted");
  }
  // Makes what was written so far durable where that means something (a file: written
  // out and fsynced), so that a caller may pay for it early, on another thread.
  virtual Status Sync() { return Status::Ok(); }
};

// What a trace read from stdin or inflated from gzip may hold.
inline constexpr io::FileBudget kTraceInMemory{"memtrace trace read into memory (stdin or gzip)",
                                               std::uint64_t{1} << 30};

// A regular file opened read-only (its size taken at open), "-" for stdin, or either of
// them gzip-compressed (then inflated into memory, at most kTraceInMemory). `id`
// (optional) receives the file's identity, for refusing an output that is the same file.
// kCorrupt, naming the command to use instead, for what looks like a runtime events ring.
Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path,
                                                   io::FileId* id = nullptr);
// A view of memory the caller keeps alive.
std::unique_ptr<ByteSource> MemorySource(std::span<const std::uint8_t> bytes);
// A non-owning ByteSource over another one (which must outlive it).
std::unique_ptr<ByteSource> BorrowSource(ByteSource& source);

// A file created or truncated in place for writing (what was there is lost at once;
// prefer AtomicFileSink).
Result<std::unique_ptr<ByteSink>> OpenFileSink(const std::string& path);

// A file written beside its target and renamed into place by Commit(); destroyed
// uncommitted, it leaves the target as it was (io::AtomicOutput).
class AtomicFileSink : public ByteSink {
 public:
  explicit AtomicFileSink(io::AtomicOutput out) : out_(std::move(out)) {}
  // kInvalidArgument if `path` is one of `inputs` (after links) or a directory.
  static Result<std::unique_ptr<AtomicFileSink>> Create(const std::string& path,
                                                        std::span<const io::FileId> inputs = {});
  Status Write(std::span<const std::uint8_t> bytes) override { return out_.Write(bytes); }
  bool CanRestart() const override { return true; }
  Status Restart() override { return out_.Restart(); }
  Status Sync() override { return out_.Sync(); }
  Status Commit() { return out_.Commit(); }
  const std::string& path() const { return out_.path(); }

 private:
  io::AtomicOutput out_;
};

class VectorSink : public ByteSink {
 public:
  Status Write(std::span<const std::uint8_t> bytes) override {
    data.insert(data.end(), bytes.begin(), bytes.end());
    return Status::Ok();
  }
  bool CanRestart() const override { return true; }
  Status Restart() override {
    data.clear();
    return Status::Ok();
  }
  std::vector<std::uint8_t> data;
};

}  // namespace mpo::memtrace
