// The demo: core's deterministic multi-domain workload (core/sim/workload.h) on the
// simulated runtime, traced by the memtrace tracer, its collections reported into a
// runtime-events ring by the tracer's RingGcObserver, then read back with our own reader
// and cursor and checked against what the engine saw.
//
// Files: <out>/trace.ctf and <out>/<pid>.events (pid: DemoOptions::pid, fixed so that the
// same seed gives the same bytes). Everything is a pure function of the options: time is
// virtual (VirtualClock), randomness comes from the seed and the domains' ids.
// trace.ctf is written beside its final name and renamed into place once complete, so a
// failed run leaves an earlier trace as it was and never writes through a planted link.
// Failure: an I/O or setup problem is a Status; check failures are listed in
// DemoReport::failures (the run itself completed).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace mpo::demo {

// Default work budget (see DemoOptions::max_steps): about 20 s of CPU and 200 MB.
inline constexpr std::uint64_t kDefaultMaxSteps = 1'000'000;
// A sampled step costs about this many unsampled ones (time and memory: the run keeps
// every sampled event to check the trace against).
inline constexpr double kSampledStepCost = 20.0;

struct DemoOptions {
  std::string out;  // directory, created if missing
  std::uint64_t seed = 1;
  double lambda = 1e-3;
  std::uint32_t domains = 4;    // >= 1; with >= 2 the last one ends while its blocks live
  std::uint64_t steps = 40000;  // workload steps per domain
  // steps x domains x (1 + kSampledStepCost x lambda) above this is refused
  // (kResourceExhausted) before anything is written: time and memory grow with it.
  std::uint64_t max_steps = kDefaultMaxSteps;
  int format_version = 3;   // memtrace format: 3 or 2
  std::int64_t pid = 4242;  // the simulated process's pid (trace info, ring file)
  // Tests of the checks: the tracer never hears of the n-th deallocation (1-based; 0 =
  // off), so the trace lacks a collect the engine reported.
  std::uint64_t fault_skip_dealloc = 0;
  // Words per domain ring, as a power of two (OCaml's default: 16). Small rings wrap:
  // the check then accounts for exactly the words the cursor reports lost.
  unsigned ring_log2_words = 16;
  // Called with the workload steps run so far (of --steps x --domains), once per step.
  std::function<void(std::uint64_t)> progress;
};

struct SiteFigures {
  std::string name;  // the site and its nearest caller, as `memtrace stats --callers 1`
  std::uint64_t allocs = 0, samples = 0, sampled_words = 0;
};

struct PhaseFigures {
  std::uint32_t domain = 0;
  std::string phase;
  std::uint64_t count = 0, total_ns = 0;
};

struct DemoReport {
  std::string trace_path, ring_path;
  std::uint64_t trace_bytes = 0, ring_bytes = 0;
  // What the engine saw (callbacks) and what the trace holds after reading it back.
  std::uint64_t engine_allocs = 0, engine_promotes = 0, engine_collects = 0;
  std::uint64_t trace_allocs = 0, trace_promotes = 0, trace_collects = 0;
  std::uint64_t external_allocs = 0;
  std::uint64_t words_allocated = 0, samples = 0;  // memprof (non-external) totals
  double samples_expected = 0, samples_bound = 0;  // mean and allowed deviation
  std::uint64_t external_bytes = 0, external_samples = 0;
  double external_expected = 0, external_bound = 0;
  std::uint64_t minor_sampled = 0, promoted = 0, survived_to_end = 0, sampled_blocks = 0;
  std::uint64_t minor_collections = 0, major_collections = 0;
  std::uint64_t ring_events = 0, ring_lost_words = 0;
  std::vector<SiteFigures> sites;  // by samples, descending
  std::vector<PhaseFigures> phases;
  std::vector<std::string> failures;  // empty: every check passed
};

Result<DemoReport> RunDemo(const DemoOptions& options);

}  // namespace mpo::demo
