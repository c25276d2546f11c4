// The demo's read-back checks: the trace, decoded by our reader, against the events the
// engine handed to the tracer; the ring, polled by our cursor, against what was written.
// Findings are appended to `failures` (one line each); figures go into the report.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/demo/demo_run.h"
#include "core/memtrace/event.h"
#include "core/tracer/frame_locations.h"
#include "core/tracer/ring_reporter.h"

namespace mpo::demo {

// One event as the engine handed it to the tracer (the callbacks' view).
struct Expected {
  memtrace::EventKind kind = memtrace::EventKind::kAlloc;
  memtrace::OcamlInt id = 0;
  std::uint16_t stream = 0;
  memtrace::OcamlInt length = 0, nsamples = 0;
  memtrace::AllocationSource source = memtrace::AllocationSource::kMinor;
  std::vector<memtrace::OcamlInt> backtrace;  // caller first
};

struct TraceExpectations {
  std::string path;
  int format_version = 3;
  std::span<const Expected> expected;  // in callback order
  tracer::FrameLocations* frames = nullptr;
  std::int64_t teardown_us = 0;  // objects collected from then on survived the workload
};

// Every event in order (kind, object id, domain, and for allocations length, samples,
// source, backtrace), every location, every object collected after its allocation.
// Fills the trace figures of `r`: counts, sites, promotion and survival.
void CheckTrace(const TraceExpectations& x, DemoReport& r, std::vector<std::string>& failures);

// Words written (events and padding) = words read (events and padding skipped) + words
// reported lost; phases pair up when nothing was lost.
// Fills r.ring_events, r.ring_lost_words and r.phases.
void CheckRing(const std::string& path, const tracer::RingReporter::Written& w, DemoReport& r,
               std::vector<std::string>& failures);

}  // namespace mpo::demo
