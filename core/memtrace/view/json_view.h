// The schema 2 JSON Lines view of a memtrace trace (core/corpus/SCHEMA.md, "memtrace"):
// what `memtrace dump --json` and `corpus decode` print, byte for byte.
//
//   {"schema":2,"format":"memtrace","info":INFO|null}
//   {"kind":"location","code":"HEX","frames":[FRAME,...]}     (before first use)
//   {"kind":"alloc","time":..,"domain":..,"id":..,"length":..,"nsamples":..,
//    "source":"minor"|"major"|"external","common_prefix":..,"backtrace":["HEX",...]}
//   {"kind":"promote"|"collect","time":..,"domain":..,"id":..}
//   {"kind":"skipped_packet","offset":..,"reason":S}
//   {"kind":"end_of_stream","error":null|ERROR,"records":N}
// The records are TraceView's (trace_view.h), under its undefined-code policy. Location
// codes are written as memtrace's `%x` prints them (the 63-bit pattern).
#pragma once

#include <functional>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/base/verdicts.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"

namespace mpo::memtrace::view {

struct JsonViewOptions {
  // false: no location records and no "backtrace" members (memtrace's fast path).
  bool backtraces = true;
  // The reader's budgets; the location strings written (each code once) count against
  // max_location_bytes.
  Limits limits;
  // Whose verdict malformed input gets (core/base/verdicts.h).
  Verdicts verdicts = Verdicts::kStrict;
  // Called now and then with (bytes decoded so far, file size).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// Writes the whole stream (header, records, trailer) as it decodes, in large chunks; a
// decoding error ends the stream with the error in the trailer. Returns that decoding
// status.
Status WriteJsonView(ByteSource& source, TextSink& out, const JsonViewOptions& options = {});

}  // namespace mpo::memtrace::view
