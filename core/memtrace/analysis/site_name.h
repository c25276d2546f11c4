// How `memtrace diff` names one backtrace entry (a location code): its frames in the order
// stored (outermost first, as dump_trace prints them) through the one renderer
// (LocationToString), space-separated; "$CODE" for a code whose location event holds no
// frame. Not an allocation site: sites are frames (analysis/backtrace_frames.h).
#pragma once

#include <string>

#include "core/base/status.h"
#include "core/memtrace/ocaml_int.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace {

// A code no location event defined is the decoded view's policy error (kCorrupt
// "backtrace: location code" at `event_offset`, the event that uses it); the callers
// read through view::TraceView, which has already reported it. kResourceExhausted when
// materialising the frames passes the reader's location budget.
Result<std::string> SiteName(const TraceReader& reader, OcamlInt code, std::uint64_t event_offset);

}  // namespace mpo::memtrace
