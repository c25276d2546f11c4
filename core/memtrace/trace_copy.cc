#include "core/memtrace/trace_copy.h"

#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "core/base/stream_digest.h"
#include "core/base/uninit_array.h"
#include "core/memtrace/canonical_check.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {

namespace {

// Progress every 4096 events: a call per event through std::function costs as much as
// writing a collect event.
constexpr std::uint64_t kProgressEvery = 4096;

// Writes all of `in` to `out`, through a buffer of its own, and adds what it wrote to
// `written`: the bytes written are the bytes digested, whatever happens to `in` meanwhile.
Status WriteAll(ByteSource& in, ByteSink& out, StreamDigest& written) {
  constexpr std::size_t kChunk = std::size_t{1} << 18;
  const auto buf = MakeUninitArray<std::uint8_t>(kChunk);
  for (std::uint64_t off = 0; off < in.size();) {
    auto got = in.ReadAt(off, {buf.get(), kChunk});
    if (!got.ok()) return got.status();
    if (*got == 0) return Status(ErrorCode::kIo, "short read inside the file").AtOffset(off);
    const std::span<const std::uint8_t> chunk(buf.get(), *got);
    written.Update(chunk);
    MPO_RETURN_IF_ERROR(out.Write(chunk));
    off += *got;
  }
  return Status::Ok();
}

// What the check reads, digested: the reader and the check see `in` only through this,
// never in place (no InMemory()), so the bytes they judge are copies that the digest
// covers, in file order. A read that starts past what was digested leaves a gap, and the
// digest then proves nothing (Complete() is false).
class CheckedBytes : public ByteSource {
 public:
  CheckedBytes(ByteSource& in, StreamDigest::Key key) : in_(in), digest_(key) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    auto got = in_.ReadAt(offset, out);
    if (!got.ok()) return got;
    const std::uint64_t end = offset + *got;
    if (offset > upto_) {
      gap_ = true;
    } else if (end > upto_) {
      digest_.Update(out.subspan(upto_ - offset, end - upto_));
      upto_ = end;
    }
    return got;
  }
  std::uint64_t size() const override { return in_.size(); }
  bool Complete() const { return !gap_ && upto_ == in_.size(); }
  const StreamDigest& digest() const { return digest_; }

 private:
  ByteSource& in_;
  StreamDigest digest_;
  std::uint64_t upto_ = 0;
  bool gap_ = false;
};

// Inputs at least this large are written out while they are checked (WriteAhead); a
// smaller one is checked first, then written, as a thread would cost more than it saves.
constexpr std::uint64_t kWriteAheadMin = std::uint64_t{64} << 10;

// Writes all of `in` to `out` and syncs `out`, on a thread of its own, while the caller
// checks `in`: the write, the kernel's writeback and the fsync then cost no wall time
// beside the check (on hashtbl_strings about as much again as the check's own system
// time). `in` must read concurrently; `out` is the thread's alone until Join().
// A std::thread rather than the sync layer's (core/sync): its only synchronisation is
// the start and the join, with nothing shared in between for a model to check; TSan
// runs trace_copy_threads_test.
class WriteAhead {
 public:
  WriteAhead(ByteSource& in, ByteSink& out, StreamDigest& written) {
    try {
      thread_ = std::thread([this, &in, &out, &written] {
        status_ = WriteAll(in, out, written);
        if (status_.ok()) status_ = out.Sync();
      });
    } catch (const std::system_error&) {
      // No thread to be had: the caller writes after the check instead.
    }
  }
  // The thread holds `this`: never copied nor moved.
  WriteAhead(const WriteAhead&) = delete;
  WriteAhead& operator=(const WriteAhead&) = delete;
  WriteAhead(WriteAhead&&) = delete;
  WriteAhead& operator=(WriteAhead&&) = delete;
  // Joined before any member goes (std::jthread would do the same; older libc++ lacks it).
  ~WriteAhead() {
    if (thread_.joinable()) thread_.join();
  }

  bool started() const { return thread_.joinable(); }
  Status Join() {
    if (thread_.joinable()) thread_.join();
    return status_;
  }

 private:
  Status status_;
  std::thread thread_;
};

// The identity copy: true when `in` was canonical and has been written to `out` as it
// is; false (nothing written, or what was written taken back) when it must be encoded
// again. The bytes written are proven to be the bytes checked (a keyed digest of each):
// an input changed while it is copied is encoded again from what is then read, never
// written as it was half seen.
Result<bool> CopyIfCanonical(ByteSource& in, ByteSink& out, int format_version, CopyStats* stats,
                             const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                             const Limits& limits) {
  const StreamDigest::Key key = StreamDigest::RandomKey();
  CheckedBytes checked(in, key);
  StreamDigest written(key);
  ReaderOptions ropts;
  ropts.limits = limits;
  ropts.check_canonical = true;
  auto reader = TraceReader::Open(BorrowSource(checked), ropts);
  if (!reader.ok() || (*reader)->version() != format_version) return false;
  TraceReader& r = **reader;
  CanonicalCheck check(r, checked);
  if (!check.Start()) return false;
  std::optional<WriteAhead> ahead;
  if (in.size() >= kWriteAheadMin && in.ConcurrentReads() && out.CanRestart())
    ahead.emplace(in, out, written);
  std::uint64_t n = 0;
  bool same = true;
  while (const Event* ev = r.NextCheckedEvent()) {
    if (progress && n % kProgressEvery == 0) progress(r.offset(), r.file_size());
    if (!check.OnEvent(*ev)) {
      same = false;
      break;
    }
    ++n;
  }
  same = same && check.Finish();
  if (ahead && ahead->started()) {
    const Status written_status = ahead->Join();
    if (same) MPO_RETURN_IF_ERROR(written_status);
  } else if (same) {
    MPO_RETURN_IF_ERROR(WriteAll(in, out, written));
  }
  if (same && !(checked.Complete() && written == checked.digest())) {
    // The input changed between the check's reads and the write's.
    if (!out.CanRestart())
      return Status(ErrorCode::kIo,
                    "the input changed while it was copied; the output is not a copy");
    same = false;
  }
  if (!same) {
    // Take back whatever was written (the write-ahead's, or a write found to differ).
    if ((ahead && ahead->started()) || written.length() > 0) MPO_RETURN_IF_ERROR(out.Restart());
    return false;
  }
  if (progress) progress(r.offset(), r.file_size());
  if (stats) {
    stats->events = n;
    stats->warnings.clear();
    stats->unchanged = true;
  }
  return true;
}

}  // namespace

Status CopyTrace(ByteSource& in, ByteSink& out, int format_version, CopyStats* stats,
                 const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                 const Limits& limits, CopyMode mode) {
  if (mode == CopyMode::kFast) {
    Result<bool> copied = CopyIfCanonical(in, out, format_version, stats, progress, limits);
    if (!copied.ok()) return copied.status();
    if (*copied) return Status::Ok();
  }
  ReaderOptions ropts;
  ropts.limits = limits;
  auto reader = TraceReader::Open(BorrowSource(in), ropts);
  if (!reader.ok()) return reader.status();
  TraceReader& r = **reader;
  WriterOptions opts;
  opts.format_version = format_version;
  opts.adopt_object_ids = true;
  // Every event read is written, in order.
  opts.trust_common_prefix = mode != CopyMode::kReference;
  auto writer = TraceWriter::Create(out, r.info(), opts);
  if (!writer.ok()) return writer.status();
  TraceWriter& w = **writer;
  // A lookup that fails on the location budget is reported as such, not as the
  // writer's "unknown location".
  Status lookup_error;
  const LocationLookup lookup = [&r, &lookup_error](OcamlInt code) -> const std::vector<Location>* {
    auto locs = r.LocationOfEntry(code, r.event_offset());
    if (locs.ok()) return *locs;
    if (locs.status().code() == ErrorCode::kResourceExhausted) lookup_error = locs.status();
    return nullptr;
  };
  std::uint64_t n = 0;
  // NextEvent, not Next: no Result per event.
  while (const Event* ev = r.NextEvent()) {
    if (progress && n % kProgressEvery == 0) progress(r.offset(), r.file_size());
    Status s = w.PutEvent(*ev, lookup);
    if (!s.ok()) [[unlikely]] {
      if (!lookup_error.ok()) return lookup_error;
      return Status(s).WithField("event " + std::to_string(n) + ": " + s.field());
    }
    ++n;
  }
  if (!r.status().ok()) return r.status();
  if (progress) progress(r.offset(), r.file_size());
  if (stats) {
    stats->events = n;
    stats->warnings = r.warnings();
  }
  return w.Flush();
}

}  // namespace mpo::memtrace
