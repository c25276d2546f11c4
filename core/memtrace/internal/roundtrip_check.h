// Test support (fuzzers, properties): write a generated event stream with TraceWriter,
// read it back with TraceReader, and compare everything. Not for tools.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location.h"

namespace mpo::memtrace::testing {

struct GenEvent {
  EventKind kind = EventKind::kAlloc;
  std::uint16_t domain = 0;
  std::int64_t dt = 0;  // us after the previous event (any domain)
  OcamlInt length = 1;
  OcamlInt nsamples = 1;
  AllocationSource source = AllocationSource::kMinor;
  std::vector<OcamlInt> backtrace;  // caller first; at most kMaxGenBacktrace entries
  std::uint32_t target = 0;         // promote/collect: how many allocs of this domain back
};

// Deep enough to exercise predictions, shallow enough to stay under the 4096-byte limit.
inline constexpr std::size_t kMaxGenBacktrace = 400;

// The frames the checker's lookup returns for a code (0..3 frames; some with values out
// of the fields' ranges, some too large to encode), and what a reader must return.
std::vector<Location> FramesFor(OcamlInt code);
std::vector<Location> ExpectedFramesFor(OcamlInt code);

// kOk when every event, backtrace, common prefix, object id and location read back is
// what was written (code 0 never gets a location event: memtrace's caches start
// filled with 0); kInternal naming the first difference otherwise.
Status CheckRoundTrip(const std::vector<GenEvent>& events, int format_version,
                      std::int64_t obj_ids_per_chunk = 10000);

}  // namespace mpo::memtrace::testing
