// memtrace's Memprof_tracer on our engine: memprof callbacks become memtrace events.
//
//   FrameLocations frames;
//   auto t = Tracer::Create(sink, info, {.sampling_rate = 1e-4, .now_us = clock}, frames);
//   domain.Start(1e-4, kMaxCallstack, (*t)->MakeTracker());
//   (*t)->SetCurrentDomain(d);           // before polls / collections run on domain d
//   auto id = (*t)->ExtAlloc(d, bytes, callstack);  // Memtrace.External.alloc
//   (*t)->ExtFree(d, *id);
//   (*t)->Close();
//
// Events. alloc_minor / alloc_major write an allocation (length = words, nsamples, the
// callstack reversed to caller-first location codes, each code's locations from
// FrameLocations) on the allocating domain's stream and keep the object id as the entry's
// user data; promote and dealloc_* write promote / collect with that id on the current
// domain (the one running callbacks, as memtrace's Domain.self()), with one exception:
// a promotion the current domain's stream cannot name (v3 ids are chunked per domain; an
// adopted orphan's id can lie beyond every id that stream allocated, and the format
// forbids a promote ahead of its stream) goes on the stream that allocated the object,
// where memtrace would write a trace its own reader rejects. Format v3 multiplexes
// one writer per domain; in v2 (memtrace 0.2.3, one stream) every event goes to domain 0.
// External allocations are sampled by ExternalSampler (memtrace's geometric sampler) and
// written with source External.
//
// Failure, as memtrace: the first writer error stops tracing (callbacks then return
// "stop tracking" and write nothing) and is kept in failure(); a pid change (fork) stops
// tracing silently and is not a failure: nothing is written for the child, and Close
// does not flush. Threading: one thread at a time (the simulated runtime interleaves
// domains on one thread); callbacks must not run concurrently with ExtAlloc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/trace_writer.h"
#include "core/tracer/external_sampler.h"
#include "core/tracer/frame_locations.h"

namespace mpo::tracer {

struct TracerOptions {
  int format_version = 3;  // 3 (memtrace HEAD, per-domain streams) or 2 (memtrace 0.2.3)
  double sampling_rate = 1e-4;
  std::uint64_t external_seed = 0x52b87efb;
  // Microseconds since the epoch for each event; must not go backwards. Required.
  std::function<std::int64_t()> now_us;
  // The process id asked before each event and packet; default: info.pid forever.
  std::function<std::int64_t()> getpid;
};

struct TracerCounts {
  std::uint64_t allocs = 0, promotes = 0, collects = 0, external_allocs = 0, external_frees = 0;
  std::uint64_t samples = 0, external_samples = 0;
  std::uint64_t dropped = 0;  // callbacks ignored after tracing stopped
};

class Tracer {
 public:
  // Writes the trace info at once. `frames` must outlive the tracer.
  static Result<std::unique_ptr<Tracer>> Create(memtrace::ByteSink& sink,
                                                const memtrace::Info& info, TracerOptions options,
                                                FrameLocations& frames);
  ~Tracer();

  // The Gc.Memprof tracker; it refers to this tracer, which must outlive the profile's
  // callbacks.
  memprof::Tracker MakeTracker();
  // The domain whose callbacks run next (promote and collect carry no domain).
  void SetCurrentDomain(std::uint32_t domain) { current_domain_ = domain; }

  // Memtrace.External.alloc: the object id when the allocation is sampled.
  std::optional<memtrace::OcamlInt> ExtAlloc(std::uint32_t domain, std::uint64_t bytes,
                                             std::span<const std::uint64_t> callstack);
  // Memtrace.External.free.
  void ExtFree(std::uint32_t domain, memtrace::OcamlInt id);

  // The stream a promotion of `id` is written on, run from the current domain.
  std::uint16_t PromoteStream(memtrace::OcamlInt id) const;

  // Flushes and stops (idempotent). Returns the first failure, if any; OK after a fork.
  Status Close();

  bool tracing() const { return !stopped_; }
  bool pid_changed() const { return pid_changed_; }
  const Status& failure() const { return failure_; }
  const TracerCounts& counts() const { return counts_; }

 private:
  Tracer(TracerOptions options, FrameLocations& frames, std::int64_t pid);
  memprof::CallbackResult Alloc(const memprof::AllocationInfo& info,
                                memtrace::AllocationSource source);
  memprof::CallbackResult Promote(memprof::UserData id);
  void Collect(std::uint32_t domain, memprof::UserData id);
  std::uint16_t StreamOf(std::uint32_t domain) const;
  // False (and tracing stopped) when the pid changed or tracing already stopped.
  bool Usable();
  void Fail(Status s);
  Result<memtrace::OcamlInt> WriteAlloc(std::uint32_t domain, std::uint64_t length,
                                        std::uint64_t nsamples, memtrace::AllocationSource source,
                                        std::span<const std::uint64_t> callstack);

  TracerOptions options_;
  FrameLocations& frames_;
  std::int64_t pid_;
  std::unique_ptr<memtrace::TraceWriter> writer_;
  memtrace::LocationLookup lookup_;
  ExternalSampler external_;
  std::vector<memtrace::OcamlInt> backtrace_;
  // v3: the highest id each stream allocated (-1: none), and which stream owns each id
  // chunk (chunk index -> stream), for PromoteStream.
  std::vector<memtrace::OcamlInt> last_id_;
  std::unordered_map<memtrace::OcamlInt, std::uint16_t> chunk_owner_;
  std::uint32_t current_domain_ = 0;
  bool stopped_ = false;
  bool pid_changed_ = false;
  bool closed_ = false;
  Status failure_;
  TracerCounts counts_;
};

}  // namespace mpo::tracer
