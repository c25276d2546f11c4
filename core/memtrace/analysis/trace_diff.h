// `memtrace diff`: the first semantic difference between two traces (trace info, then
// event by event: kind, time since the start, domain, id, and for allocations length,
// samples, source and the frames of every backtrace entry).
//
// Streaming over both traces' decoded views (view/trace_view.h: a backtrace entry whose
// code no location event defined is that trace's typed error); times are compared as unsigned
// offsets from each trace's start, exact for every valid trace (events never precede the start).
// The frames of an entry pair already found equal are not compared again (a bounded cache), so a
// backtrace repeated by every event costs one comparison per entry, not one rendering.
#pragma once

#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"

namespace mpo::memtrace {

struct TraceDifference {
  std::string where;  // "info" or "event N"
  std::string field;  // "sample_rate", "dt", "backtrace[3]", ...
  std::string a, b;   // the two values
};

struct DiffFailure {
  int side = 0;  // 0: the first trace, 1: the second
  Status status;
};

// The first difference (nullopt: the traces agree), or the typed error of the trace
// that could not be read (*failure; the result is then nullopt too).
std::optional<TraceDifference> DiffTraces(ByteSource& a, ByteSource& b, DiffFailure* failure,
                                          const Limits& limits = {});

// `{"a":S,"b":S,"equal":B,"difference":null|{"where":S,"field":S,"a":S,"b":S}}` and a
// newline: `diff --json` of the traces named `a_file` and `b_file`.
std::string FormatTraceDiffJson(const std::string& a_file, const std::string& b_file,
                                const std::optional<TraceDifference>& d);

}  // namespace mpo::memtrace
