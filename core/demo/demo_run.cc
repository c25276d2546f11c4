#include "core/demo/demo_run.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/demo/read_back.h"
#include "core/memtrace/byte_io.h"
#include "core/sim/sim_runtime.h"
#include "core/sim/workload.h"
#include "core/tracer/external_sampler.h"
#include "core/tracer/frame_locations.h"
#include "core/tracer/ring_gc_observer.h"
#include "core/tracer/ring_reporter.h"
#include "core/tracer/tracer.h"
#include "core/tracer/virtual_clock.h"

namespace mpo::demo {
namespace {

using memtrace::EventKind;
using memtrace::OcamlInt;

// 2024-01-01T00:00:00Z: the virtual epoch of every demo run.
constexpr std::int64_t kEpochUs = 1'704'067'200'000'000;
constexpr std::int64_t kCallstackSize = 64;

// The wiring: core's workload on the simulated runtime, profiled by the engine into the
// tracer; collections reach the ring through RingGcObserver. As the workload's host it
// keeps time and passes external allocations to the tracer; it records what the engine
// handed the tracer, to check the trace against.
class Demo final : public sim::WorkloadHost {
 public:
  explicit Demo(const DemoOptions& o) : o_(o), clock_(kEpochUs), ext_model_(o.lambda, o.seed) {}
  Result<DemoReport> Run();

  void Elapse(std::uint64_t ns) override { clock_.Advance(ns); }
  void Running(std::uint32_t domain) override {
    current_ = domain;
    tracer_->SetCurrentDomain(domain);
    // The workload names the running domain once per step (and at teardown).
    if (o_.progress) o_.progress(++steps_run_);
  }
  std::optional<std::int64_t> ExternalAlloc(std::uint32_t domain, std::uint64_t bytes,
                                            std::span<const std::uint64_t> callstack) override;
  void ExternalFree(std::uint32_t domain, std::int64_t handle) override;

 private:
  Status Validate() const;
  Status Setup();
  void DefineFrames();
  // The tracer's tracker, wrapped to record the engine's view for the checks.
  memprof::Tracker RecordingTracker();
  Status Teardown();
  void Record(Expected e) { expected_.push_back(std::move(e)); }
  void RecordIdEvent(EventKind kind, OcamlInt id, std::uint16_t stream) {
    Expected e;
    e.kind = kind;
    e.id = id;
    e.stream = stream;
    expected_.push_back(std::move(e));
  }
  std::uint16_t Stream(std::uint32_t d) const {
    return o_.format_version == 2 ? 0 : static_cast<std::uint16_t>(d);
  }
  void CheckSamples(DemoReport& r);

  DemoOptions o_;
  tracer::VirtualClock clock_;
  tracer::ExternalSampler ext_model_;
  tracer::FrameLocations frames_;
  std::unique_ptr<memtrace::AtomicFileSink> sink_;
  std::unique_ptr<tracer::Tracer> tracer_;
  std::unique_ptr<tracer::RingReporter> ring_;
  std::unique_ptr<tracer::RingGcObserver> ring_observer_;
  std::unique_ptr<sim::SimRuntime> rt_;
  std::unique_ptr<sim::Workload> workload_;
  std::vector<Expected> expected_;
  std::uint32_t current_ = 0;
  std::int64_t teardown_us_ = 0;
  std::uint64_t deallocs_ = 0;
  std::uint64_t steps_run_ = 0;
  std::string trace_path_, ring_path_;
  std::vector<std::string> failures_;
};

std::optional<std::int64_t> Demo::ExternalAlloc(std::uint32_t d, std::uint64_t bytes,
                                                std::span<const std::uint64_t> callstack) {
  // The sampler's decision, from our own instance with the tracer's seed: the tracer
  // must write exactly these samples.
  const std::uint64_t samples = ext_model_.SamplesFor(bytes);
  auto id = tracer_->ExtAlloc(d, bytes, callstack);
  if (id.has_value() != (samples > 0) && tracer_->tracing() && failures_.size() < 8) {
    failures_.push_back("external allocation of " + std::to_string(bytes) + " bytes: the tracer " +
                        (id ? "wrote an unsampled one" : "missed a sampled one"));
  }
  if (!id) return std::nullopt;
  Record({EventKind::kAlloc, *id, Stream(d), static_cast<OcamlInt>((bytes + 7) / 8),
          static_cast<OcamlInt>(samples), memtrace::AllocationSource::kExternal,
          std::vector<OcamlInt>(callstack.rbegin(), callstack.rend())});
  return *id;
}

void Demo::ExternalFree(std::uint32_t d, std::int64_t handle) {
  current_ = d;
  tracer_->ExtFree(d, handle);
  if (tracer_->tracing()) RecordIdEvent(EventKind::kCollect, handle, Stream(d));
}

void Demo::DefineFrames() {
  for (const sim::WorkloadSite& s : sim::WorkloadSites()) {
    frames_.Define(s.frame, {memtrace::Location{s.file, s.line, 2, 40, s.defname}});
  }
  frames_.Define(sim::kWorkloadMainFrame,
                 {memtrace::Location{"demo/main.ml", 12, 2, 31, "Main.main"}});
  for (std::uint32_t d = 0; d < o_.domains; ++d) {
    frames_.Define(
        sim::WorkloadDomainFrame(d),
        {memtrace::Location{"demo/main.ml", 20, 4, 58, "Main.domain_body_" + std::to_string(d)},
         memtrace::Location{"stdlib/domain.ml", 246, 14, 40, "Stdlib__Domain.spawn"}});
  }
  for (std::uint64_t i = 0; i < 8; ++i) {
    frames_.Define(sim::kAllocSiteBase + i,
                   {memtrace::Location{"demo/workload.ml", static_cast<OcamlInt>(150 + i), 6, 30,
                                       "Workload.alloc_point"}});
  }
}

Status Demo::Setup() {
  std::error_code ec;
  std::filesystem::create_directories(o_.out, ec);
  if (ec) return Status(ErrorCode::kIo, o_.out + ": " + ec.message()).WithField("--out");
  const std::filesystem::path out = std::filesystem::absolute(o_.out, ec);
  if (ec) return Status(ErrorCode::kIo, o_.out + ": " + ec.message()).WithField("--out");
  o_.out = out.lexically_normal().string();
  trace_path_ = (out / "trace.ctf").lexically_normal().string();
  auto sink = memtrace::AtomicFileSink::Create(trace_path_);
  if (!sink.ok()) return sink.status();
  sink_ = std::move(*sink);
  DefineFrames();

  memtrace::Info info;
  info.sample_rate = o_.lambda;
  info.word_size = 64;
  info.executable_name = "memprof-oracle-demo";
  info.host_name = "simulated";
  info.ocaml_runtime_params = "";
  info.pid = o_.pid;
  info.initial_domain = 0;
  info.start_time = kEpochUs;
  info.context = "memprof-oracle demo --seed " + std::to_string(o_.seed);
  tracer::TracerOptions to;
  to.format_version = o_.format_version;
  to.sampling_rate = o_.lambda;
  to.external_seed = o_.seed;
  to.now_us = [this] { return clock_.EpochMicroseconds(); };
  auto t = tracer::Tracer::Create(*sink_, info, std::move(to), frames_);
  if (!t.ok()) return t.status();
  tracer_ = std::move(*t);

  ring::ProducerOptions ro;
  ro.dir = o_.out;
  ro.pid = o_.pid;
  ro.preserve = true;
  ro.max_domains = o_.domains;
  ro.ring_log2_words = o_.ring_log2_words;
  ro.clock = [this] { return clock_.Nanoseconds(); };
  auto r = tracer::RingReporter::Start(std::move(ro));
  if (!r.ok()) return r.status();
  ring_ = std::move(*r);
  ring_path_ = ring_->path();

  sim::SimConfig sc;
  sc.minor_heap_words = std::uint64_t{32} * 1024;  // small enough for regular minor collections
  rt_ = std::make_unique<sim::SimRuntime>(sc);
  ring_observer_ = std::make_unique<tracer::RingGcObserver>(*ring_, clock_);
  rt_->SetGcObserver(ring_observer_.get());
  auto profile = rt_->memprof(0).Start(o_.lambda, kCallstackSize, RecordingTracker());
  if (!profile.ok()) return profile.status().WithField("--lambda");
  // After the profile: the workload's domains inherit it.
  auto w = sim::Workload::Create(*rt_, *this, {o_.seed, o_.domains, o_.steps});
  if (!w.ok()) return w.status();
  workload_ = std::move(*w);
  return Status::Ok();
}

memprof::Tracker Demo::RecordingTracker() {
  memprof::Tracker inner = tracer_->MakeTracker();
  memprof::Tracker t;
  auto alloc = [this](
                   const std::function<memprof::CallbackResult(const memprof::AllocationInfo&)>& f,
                   memtrace::AllocationSource src) {
    return [this, f, src](const memprof::AllocationInfo& i) {
      memprof::CallbackResult res = f(i);
      if (res.kept()) {
        Record({EventKind::kAlloc, static_cast<OcamlInt>(res.data()), Stream(i.domain_id),
                static_cast<OcamlInt>(i.size), static_cast<OcamlInt>(i.n_samples), src,
                std::vector<OcamlInt>(i.callstack.rbegin(), i.callstack.rend())});
      }
      return res;
    };
  };
  t.alloc_minor = alloc(inner.alloc_minor, memtrace::AllocationSource::kMinor);
  t.alloc_major = alloc(inner.alloc_major, memtrace::AllocationSource::kMajor);
  t.promote = [this, f = inner.promote](memprof::UserData id) {
    const auto obj = static_cast<OcamlInt>(id);
    // The stream is decided before the write (which records the id on it).
    const std::uint16_t stream = tracer_->PromoteStream(obj);
    memprof::CallbackResult res = f(id);
    if (res.kept()) RecordIdEvent(EventKind::kPromote, obj, stream);
    return res;
  };
  auto dealloc = [this](const std::function<memprof::CallbackResult(memprof::UserData)>& f) {
    return [this, f](memprof::UserData id) {
      const bool tracing = tracer_->tracing();
      if (++deallocs_ == o_.fault_skip_dealloc) {
        RecordIdEvent(EventKind::kCollect, static_cast<OcamlInt>(id), Stream(current_));
        return memprof::CallbackResult::Drop();
      }
      memprof::CallbackResult res = f(id);
      if (tracing) RecordIdEvent(EventKind::kCollect, static_cast<OcamlInt>(id), Stream(current_));
      return res;
    };
  };
  t.dealloc_minor = dealloc(inner.dealloc_minor);
  t.dealloc_major = dealloc(inner.dealloc_major);
  return t;
}

Status Demo::Teardown() {
  teardown_us_ = clock_.EpochMicroseconds();
  MPO_RETURN_IF_ERROR(workload_->Teardown());
  Running(0);
  memprof::Outcome stop = rt_->memprof(0).Stop();
  if (!stop.status.ok()) return stop.status;
  if (stop.raised) return Status(ErrorCode::kInternal, "a tracer callback raised");
  MPO_RETURN_IF_ERROR(tracer_->Close());
  MPO_RETURN_IF_ERROR(sink_->Commit());
  rt_->SetGcObserver(nullptr);
  MPO_RETURN_IF_ERROR(ring_observer_->status());
  return ring_->Stop();
}

void Demo::CheckSamples(DemoReport& r) {
  for (const Expected& x : expected_) {
    if (x.kind != EventKind::kAlloc) continue;
    if (x.source == memtrace::AllocationSource::kExternal) {
      r.external_samples += static_cast<std::uint64_t>(x.nsamples);
    } else {
      r.samples += static_cast<std::uint64_t>(x.nsamples);
    }
  }
  r.words_allocated = workload_->stats().words_allocated;
  const double n = static_cast<double>(r.words_allocated), l = o_.lambda;
  r.samples_expected = n * l;
  // Five standard deviations: a correct engine fails this about once in 3.5 million runs.
  r.samples_bound = 5.0 * std::sqrt(n * l * (1.0 - l)) + 1.0;
  if (std::fabs(static_cast<double>(r.samples) - r.samples_expected) > r.samples_bound) {
    failures_.push_back("samples: " + std::to_string(r.samples) + " outside the binomial bound " +
                        std::to_string(r.samples_expected) + " +/- " +
                        std::to_string(r.samples_bound));
  }
  // External samples: one geometric gap per sample over bytes / 8 units; memtrace's log
  // approximation is within 1% of the exact log, hence the relative allowance.
  r.external_bytes = workload_->stats().external_bytes;
  const double units = static_cast<double>(r.external_bytes) / 8.0;
  r.external_expected = units * l;
  r.external_bound = 5.0 * std::sqrt(units * l) + 0.02 * r.external_expected + 2.0;
  if (std::fabs(static_cast<double>(r.external_samples) - r.external_expected) > r.external_bound) {
    failures_.push_back("external samples: " + std::to_string(r.external_samples) + " outside " +
                        std::to_string(r.external_expected) + " +/- " +
                        std::to_string(r.external_bound));
  }
  const tracer::TracerCounts& c = tracer_->counts();
  if (c.samples != r.samples || c.external_samples != r.external_samples) {
    failures_.push_back("tracer counts differ from the engine's callbacks");
  }
}

Status Demo::Validate() const {
  if (o_.domains < 1 || o_.domains > sim::kWorkloadMaxDomains) {
    return Status(ErrorCode::kInvalidArgument,
                  "must lie in [1, " + std::to_string(sim::kWorkloadMaxDomains) + "]")
        .WithField("--domains");
  }
  if (!(o_.lambda >= 0.0 && o_.lambda <= 1.0)) {
    return Status(ErrorCode::kInvalidArgument, "must lie in [0, 1]").WithField("--lambda");
  }
  if (o_.format_version != 2 && o_.format_version != 3) {
    return Status(ErrorCode::kInvalidArgument, "must be 2 or 3").WithField("--format-version");
  }
  // In double: the product of two 64-bit options may not fit an integer.
  const double work = static_cast<double>(o_.steps) * static_cast<double>(o_.domains) *
                      (1.0 + kSampledStepCost * o_.lambda);
  if (work > static_cast<double>(o_.max_steps)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", work);
    return Status(ErrorCode::kResourceExhausted,
                  std::string("exceeds the work limit: --steps x --domains x (1 + 20 x --lambda) "
                              "is ") +
                      text + " against a budget of " + std::to_string(o_.max_steps) +
                      "; raise it with --max-steps")
        .WithField("--steps");
  }
  return Status::Ok();
}

Result<DemoReport> Demo::Run() {
  MPO_RETURN_IF_ERROR(Validate());
  MPO_RETURN_IF_ERROR(Setup());
  MPO_RETURN_IF_ERROR(workload_->Run());
  MPO_RETURN_IF_ERROR(Teardown());
  DemoReport r;
  r.trace_path = trace_path_;
  r.ring_path = ring_path_;
  std::error_code ec;
  r.trace_bytes = std::filesystem::file_size(trace_path_, ec);
  r.ring_bytes = std::filesystem::file_size(ring_path_, ec);
  for (const Expected& x : expected_) {
    if (x.kind == EventKind::kAlloc && x.source == memtrace::AllocationSource::kExternal) {
      ++r.external_allocs;
    }
    switch (x.kind) {
      case EventKind::kAlloc: ++r.engine_allocs; break;
      case EventKind::kPromote: ++r.engine_promotes; break;
      case EventKind::kCollect: ++r.engine_collects; break;
    }
  }
  r.minor_collections = rt_->minor_collections();
  r.major_collections = rt_->major_collections();
  TraceExpectations x;
  x.path = trace_path_;
  x.format_version = o_.format_version;
  x.expected = expected_;
  x.frames = &frames_;
  x.teardown_us = teardown_us_;
  CheckTrace(x, r, failures_);
  CheckRing(ring_path_, ring_->written(), r, failures_);
  CheckSamples(r);
  if (Status broken = rt_->CheckInvariants(); !broken.ok()) {
    failures_.push_back("engine invariants: " + broken.message());
  }
  r.failures = std::move(failures_);
  return r;
}

}  // namespace

Result<DemoReport> RunDemo(const DemoOptions& options) { return Demo(options).Run(); }

}  // namespace mpo::demo
