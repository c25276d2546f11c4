#include "core/memtrace/trace_copy.h"

#include "core/memtrace/text_dump.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {

Status CopyTrace(ByteSource& in, ByteSink& out, int format_version, CopyStats* stats,
                 const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                 const Limits& limits, bool trust_common_prefix) {
  ReaderOptions ropts;
  ropts.limits = limits;
  auto reader = TraceReader::Open(BorrowSource(in), ropts);
  if (!reader.ok()) return reader.status();
  TraceReader& r = **reader;
  WriterOptions opts;
  opts.format_version = format_version;
  opts.adopt_object_ids = true;
  opts.trust_common_prefix = trust_common_prefix;  // every event read is written, in order
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
  // NextEvent, not Next: no Result per event. Progress every 4096 events: a call per
  // event through std::function costs as much as writing a collect event.
  constexpr std::uint64_t kProgressEvery = 4096;
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
