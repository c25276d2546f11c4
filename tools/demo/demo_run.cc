#include "tools/demo/demo_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

#include "core/base/splitmix64.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"
#include "core/sim/sim_runtime.h"
#include "core/tracer/external_sampler.h"
#include "core/tracer/frame_locations.h"
#include "core/tracer/ring_reporter.h"
#include "core/tracer/tracer.h"
#include "core/tracer/virtual_clock.h"
#include "tools/demo/read_back.h"

namespace mpo::tools::demo {
namespace {

using memtrace::EventKind;
using memtrace::OcamlInt;

// 2024-01-01T00:00:00Z: the virtual epoch of every demo run.
constexpr std::int64_t kEpochUs = 1'704'067'200'000'000;
constexpr std::uint64_t kMainFrame = 0x400100;
constexpr std::uint64_t kDomainFrameBase = 0x400200;
constexpr std::int64_t kCallstackSize = 64;
constexpr std::uint64_t kSlice = 64;

// SplitMix64: the workload's choices.
class Choices {
 public:
  explicit Choices(std::uint64_t seed) : x_(seed) {}
  std::uint64_t Next() { return SplitMix64Next(&x_); }
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  bool Chance(unsigned percent) { return Below(100) < percent; }

 private:
  std::uint64_t x_;
};

enum Site : unsigned {
  kList,
  kMapAdd,
  kRecord,
  kArray,
  kCStub,
  kUnmarshal,
  kBigstring,
  kSiteCount
};

struct SiteInfo {
  const char* defname;
  const char* file;
  int line;
};
constexpr SiteInfo kSites[kSiteCount] = {
    {"Workload.build_list", "demo/workload.ml", 41},
    {"Workload.Index.add", "demo/index.ml", 63},
    {"Workload.make_record", "demo/workload.ml", 102},
    {"Workload.make_table", "demo/workload.ml", 88},
    {"Workload.c_stub_alloc", "demo/stubs.ml", 17},
    {"Workload.load_snapshot", "demo/snapshot.ml", 29},
    {"Workload.read_bigstring", "demo/io.ml", 140},
};
constexpr std::uint64_t SiteFrame(unsigned s) { return 0x401000 + 0x10 * s; }

struct Structure {
  std::vector<sim::BlockId> blocks;
};

struct DomainWork {
  std::uint32_t id = 0;
  bool alive = true;
  Choices choose{0};
  std::vector<Structure> live;
  std::vector<OcamlInt> external;  // sampled external allocations not yet freed
  std::uint64_t minor_words_reported = 0;
  std::uint64_t minor_words_at_end = 0;  // when the domain ended
};

class Demo {
 public:
  explicit Demo(const DemoOptions& o) : o_(o), clock_(kEpochUs), ext_model_(o.lambda, o.seed) {}
  Result<DemoReport> Run();

 private:
  Status Setup();
  Status Workload();
  Status Step(DomainWork& w);
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
  void Callstack(std::uint32_t d, unsigned site) {
    stack_ = {SiteFrame(site), kDomainFrameBase + d, kMainFrame};
    rt_->SetCallstack(d, stack_);
  }
  void Allocated(const sim::AllocOutcome& a, std::span<const std::uint64_t> sizes) {
    std::uint64_t words = 0;
    for (std::uint64_t s : sizes) words += s + 1;
    if (a.ok()) words_allocated_ += words;
    clock_.Advance(10 + 2 * words);
  }
  Status AllBegin(unsigned phase);
  Status AllEnd(unsigned phase);
  Status Parallel(unsigned phase, std::uint64_t ns);
  Status ReportMinorGcs();
  Status MajorGc();
  Status EndDomain(DomainWork& w);
  void CheckSamples(DemoReport& r);

  DemoOptions o_;
  tracer::VirtualClock clock_;
  tracer::ExternalSampler ext_model_;
  tracer::FrameLocations frames_;
  std::unique_ptr<memtrace::AtomicFileSink> sink_;
  std::unique_ptr<tracer::Tracer> tracer_;
  std::unique_ptr<tracer::RingReporter> ring_;
  std::unique_ptr<sim::SimRuntime> rt_;
  std::vector<DomainWork> work_;
  std::vector<Expected> expected_;
  std::vector<std::uint64_t> stack_;
  std::uint32_t current_ = 0;
  std::uint64_t minor_reported_ = 0, majors_ = 0;
  std::uint64_t words_allocated_ = 0, external_bytes_ = 0;
  std::int64_t teardown_us_ = 0;
  std::uint64_t deallocs_ = 0;
  std::string trace_path_, ring_path_;
  std::vector<std::string> failures_;
};

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

  for (unsigned s = 0; s < kSiteCount; ++s) {
    const SiteInfo& i = kSites[s];
    frames_.Define(SiteFrame(s), {memtrace::Location{i.file, i.line, 2, 40, i.defname}});
  }
  frames_.Define(kMainFrame, {memtrace::Location{"demo/main.ml", 12, 2, 31, "Main.main"}});
  for (std::uint32_t d = 0; d < o_.domains; ++d) {
    frames_.Define(
        kDomainFrameBase + d,
        {memtrace::Location{"demo/main.ml", 20, 4, 58, "Main.domain_body_" + std::to_string(d)},
         memtrace::Location{"stdlib/domain.ml", 246, 14, 40, "Stdlib__Domain.spawn"}});
  }
  for (std::uint64_t i = 0; i < 8; ++i) {
    frames_.Define(sim::kAllocSiteBase + i,
                   {memtrace::Location{"demo/workload.ml", static_cast<OcamlInt>(150 + i), 6, 30,
                                       "Workload.alloc_point"}});
  }

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
  sc.minor_heap_words = 32 * 1024;  // small enough for regular minor collections
  rt_ = std::make_unique<sim::SimRuntime>(sc);
  // Wrap the tracer's callbacks to keep the engine's view for the checks.
  memprof::Tracker inner = tracer_->MakeTracker();
  memprof::Tracker t2;
  auto alloc = [this](std::function<memprof::CallbackResult(const memprof::AllocationInfo&)> f,
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
  t2.alloc_minor = alloc(inner.alloc_minor, memtrace::AllocationSource::kMinor);
  t2.alloc_major = alloc(inner.alloc_major, memtrace::AllocationSource::kMajor);
  t2.promote = [this, f = inner.promote](memprof::UserData id) {
    const auto obj = static_cast<OcamlInt>(id);
    // The stream is decided before the write (which records the id on it).
    const std::uint16_t stream = tracer_->PromoteStream(obj);
    memprof::CallbackResult res = f(id);
    if (res.kept()) RecordIdEvent(EventKind::kPromote, obj, stream);
    return res;
  };
  auto dealloc = [this](std::function<memprof::CallbackResult(memprof::UserData)> f) {
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
  t2.dealloc_minor = dealloc(inner.dealloc_minor);
  t2.dealloc_major = dealloc(inner.dealloc_major);
  auto profile = rt_->memprof(0).Start(o_.lambda, kCallstackSize, std::move(t2));
  if (!profile.ok()) return profile.status().WithField("--lambda");

  work_.resize(o_.domains);
  work_[0].choose = Choices(o_.seed * 1000003 + 0);
  for (std::uint32_t d = 1; d < o_.domains; ++d) {
    auto id = rt_->NewDomain(0);  // inherits domain 0's profile
    if (!id.ok()) return id.status();
    work_[d].id = *id;
    work_[d].choose = Choices(o_.seed * 1000003 + d);
    MPO_RETURN_IF_ERROR(ring_->DomainSpawn(*id));
  }
  return Status::Ok();
}

Status Demo::AllBegin(unsigned phase) {
  for (DomainWork& w : work_) {
    if (w.alive) MPO_RETURN_IF_ERROR(ring_->Begin(w.id, phase));
  }
  return Status::Ok();
}

Status Demo::AllEnd(unsigned phase) {
  for (DomainWork& w : work_) {
    if (w.alive) MPO_RETURN_IF_ERROR(ring_->End(w.id, phase));
  }
  return Status::Ok();
}

// Collections stop the world: every live domain runs each phase over the same interval.
Status Demo::Parallel(unsigned phase, std::uint64_t ns) {
  MPO_RETURN_IF_ERROR(AllBegin(phase));
  clock_.Advance(ns);
  return AllEnd(phase);
}

Status Demo::ReportMinorGcs() {
  const auto& ids = ring_->ids();
  while (minor_reported_ < rt_->minor_collections()) {
    ++minor_reported_;
    std::size_t tracked = 0;
    for (const DomainWork& w : work_) tracked = std::max(tracked, w.live.size());
    MPO_RETURN_IF_ERROR(AllBegin(ids.minor));
    MPO_RETURN_IF_ERROR(AllBegin(ids.minor_local_roots));
    clock_.Advance(3000);
    MPO_RETURN_IF_ERROR(Parallel(ids.minor_memprof_roots, 200 + tracked / 8));
    MPO_RETURN_IF_ERROR(AllEnd(ids.minor_local_roots));
    MPO_RETURN_IF_ERROR(Parallel(ids.minor_memprof_clean, 400));
    for (DomainWork& w : work_) {
      if (!w.alive) continue;
      const std::uint64_t words =
          rt_->DomainAlive(w.id) ? rt_->minor_words(w.id) : w.minor_words_at_end;
      MPO_RETURN_IF_ERROR(
          ring_->Counter(w.id, ids.minor_allocated, words - w.minor_words_reported));
      w.minor_words_reported = words;
    }
    MPO_RETURN_IF_ERROR(AllEnd(ids.minor));
  }
  return Status::Ok();
}

Status Demo::MajorGc() {
  const auto& ids = ring_->ids();
  MPO_RETURN_IF_ERROR(AllBegin(ids.major));
  rt_->MajorGc();
  ++majors_;
  MPO_RETURN_IF_ERROR(ReportMinorGcs());
  MPO_RETURN_IF_ERROR(AllBegin(ids.major_mark_roots));
  MPO_RETURN_IF_ERROR(Parallel(ids.major_memprof_roots, 1500));
  MPO_RETURN_IF_ERROR(AllEnd(ids.major_mark_roots));
  MPO_RETURN_IF_ERROR(Parallel(ids.major_mark, 40000));
  MPO_RETURN_IF_ERROR(Parallel(ids.major_sweep, 25000));
  MPO_RETURN_IF_ERROR(Parallel(ids.major_memprof_clean, 800));
  return AllEnd(ids.major);
}

Status Demo::Step(DomainWork& w) {
  const std::uint32_t d = w.id;
  current_ = d;
  tracer_->SetCurrentDomain(d);
  Choices& c = w.choose;
  const std::uint64_t kind = c.Below(100);
  Structure s;
  bool keep = false;
  auto caml = [&](std::initializer_list<std::uint64_t> sizes, bool reachable) -> Status {
    std::vector<std::uint64_t> v(sizes);
    sim::AllocOutcome a = rt_->AllocCaml(d, v, reachable);
    if (!a.status.ok()) return a.status;
    if (a.raised) return Status(ErrorCode::kInternal, "a tracer callback raised");
    Allocated(a, v);
    s.blocks.insert(s.blocks.end(), a.blocks.begin(), a.blocks.end());
    return Status::Ok();
  };
  if (kind < 40) {  // a list, cell by cell (List.init)
    Callstack(d, kList);
    keep = c.Chance(30);
    const std::uint64_t n = 1 + c.Below(24);
    for (std::uint64_t i = 0; i < n; ++i) MPO_RETURN_IF_ERROR(caml({2}, keep));
  } else if (kind < 60) {  // a map node and its boxed key, in one combined allocation
    Callstack(d, kMapAdd);
    keep = c.Chance(60);
    MPO_RETURN_IF_ERROR(caml({5, 2}, keep));
  } else if (kind < 72) {  // a record with two fields allocated with it
    Callstack(d, kRecord);
    keep = c.Chance(20);
    MPO_RETURN_IF_ERROR(caml({3, 1, 4}, keep));
  } else if (kind < 75) {  // an array too large for the minor heap (Array.make)
    Callstack(d, kArray);
    keep = c.Chance(50);
    const std::uint64_t words = sim::kMaxYoungWosize + 1 + c.Below(2000);
    sim::AllocOutcome a = rt_->AllocMajor(d, words, memprof::AllocationSource::kNormal, keep);
    if (!a.status.ok()) return a.status;
    Allocated(a, std::span<const std::uint64_t>(&words, 1));
    s.blocks = a.blocks;
  } else if (kind < 84) {  // caml_alloc_small from a C stub
    Callstack(d, kCStub);
    keep = c.Chance(10);
    const std::uint64_t words = 1 + c.Below(64);
    sim::AllocOutcome a = rt_->AllocSmallFromC(d, words, keep);
    if (!a.status.ok()) return a.status;
    Allocated(a, std::span<const std::uint64_t>(&words, 1));
    s.blocks = a.blocks;
  } else if (kind < 87) {  // unmarshalled data, straight to the major heap
    Callstack(d, kUnmarshal);
    keep = c.Chance(40);
    const std::uint64_t words = 300 + c.Below(1500);
    sim::AllocOutcome a = rt_->AllocMajor(d, words, memprof::AllocationSource::kMarshal, keep);
    if (!a.status.ok()) return a.status;
    Allocated(a, std::span<const std::uint64_t>(&words, 1));
    s.blocks = a.blocks;
  } else if (kind < 93) {  // a bigstring: memory outside the OCaml heap
    Callstack(d, kBigstring);
    const std::uint64_t bytes = 256 + c.Below(16 * 1024);
    external_bytes_ += bytes;
    clock_.Advance(50 + bytes / 64);
    // The sampler's decision, from our own instance with the tracer's seed: the tracer
    // must write exactly these samples.
    const std::uint64_t samples = ext_model_.SamplesFor(bytes);
    auto id = tracer_->ExtAlloc(d, bytes, stack_);
    if (id.has_value() != (samples > 0) && tracer_->tracing() && failures_.size() < 8) {
      failures_.push_back("external allocation of " + std::to_string(bytes) +
                          " bytes: the tracer " +
                          (id ? "wrote an unsampled one" : "missed a sampled one"));
    }
    if (id) {
      Record({EventKind::kAlloc, *id, Stream(d), static_cast<OcamlInt>((bytes + 7) / 8),
              static_cast<OcamlInt>(samples), memtrace::AllocationSource::kExternal,
              std::vector<OcamlInt>(stack_.rbegin(), stack_.rend())});
      w.external.push_back(*id);
    }
  }
  if (keep && !s.blocks.empty()) w.live.push_back(std::move(s));
  // Forget a structure now and then (it becomes garbage).
  if (!w.live.empty() && c.Chance(22)) {
    const std::size_t k = c.Below(w.live.size());
    for (sim::BlockId b : w.live[k].blocks) rt_->Release(b);
    w.live[k] = std::move(w.live.back());
    w.live.pop_back();
  }
  if (!w.external.empty() && c.Chance(5)) {
    const std::size_t k = c.Below(w.external.size());
    clock_.Advance(30);
    tracer_->ExtFree(d, w.external[k]);
    if (tracer_->tracing()) RecordIdEvent(EventKind::kCollect, w.external[k], Stream(d));
    w.external[k] = w.external.back();
    w.external.pop_back();
  }
  if (c.Chance(3)) {
    clock_.Advance(20);
    if (rt_->Poll(d)) return Status(ErrorCode::kInternal, "a tracer callback raised");
  }
  return ReportMinorGcs();
}

// The domain terminates with its structures still reachable: domain 0 inherits them
// (they are shared data), and memprof's entries for them become orphans that another
// domain adopts.
Status Demo::EndDomain(DomainWork& w) {
  current_ = w.id;
  tracer_->SetCurrentDomain(w.id);
  if (rt_->Poll(w.id)) return Status(ErrorCode::kInternal, "a tracer callback raised");
  // Domain termination empties the minor heaps (a minor collection for everyone, the
  // terminating domain included); then the domain says it terminates.
  w.minor_words_at_end = rt_->minor_words(w.id);
  MPO_RETURN_IF_ERROR(rt_->EndDomain(w.id));
  MPO_RETURN_IF_ERROR(ReportMinorGcs());
  MPO_RETURN_IF_ERROR(ring_->DomainTerminate(w.id));
  w.alive = false;
  DomainWork& heir = work_[0];
  for (Structure& s : w.live) heir.live.push_back(std::move(s));
  w.live.clear();
  for (OcamlInt id : w.external) heir.external.push_back(id);
  w.external.clear();
  return Status::Ok();
}

Status Demo::Workload() {
  const std::uint64_t major_every = std::max<std::uint64_t>(1, o_.steps / 6);
  for (std::uint64_t step = 0; step < o_.steps; ++step) {
    // Domains run in turns of kSlice steps (one OS thread interleaves them).
    if (step % kSlice == 0) {
      for (DomainWork& w : work_) {
        for (std::uint64_t k = step; w.alive && k < step + kSlice && k < o_.steps; ++k) {
          MPO_RETURN_IF_ERROR(Step(w));
        }
      }
    }
    if (step % major_every == major_every - 1) MPO_RETURN_IF_ERROR(MajorGc());
    if (step == o_.steps / 3) {
      rt_->Compact();
      clock_.Advance(150000);
    }
    if (o_.domains >= 2 && step == o_.steps / 2) MPO_RETURN_IF_ERROR(EndDomain(work_.back()));
  }
  return Status::Ok();
}

Status Demo::Teardown() {
  teardown_us_ = clock_.EpochMicroseconds();
  for (DomainWork& w : work_) {
    for (Structure& s : w.live) {
      for (sim::BlockId b : s.blocks) rt_->Release(b);
    }
    w.live.clear();
    for (OcamlInt id : w.external) {
      clock_.Advance(30);
      current_ = w.alive ? w.id : 0;
      tracer_->ExtFree(current_, id);
      if (tracer_->tracing()) RecordIdEvent(EventKind::kCollect, id, Stream(current_));
    }
    w.external.clear();
  }
  MPO_RETURN_IF_ERROR(MajorGc());
  for (int round = 0; round < 2; ++round) {
    for (DomainWork& w : work_) {
      if (!w.alive) continue;
      current_ = w.id;
      tracer_->SetCurrentDomain(w.id);
      clock_.Advance(20);
      if (rt_->Poll(w.id)) return Status(ErrorCode::kInternal, "a tracer callback raised");
    }
  }
  current_ = 0;
  tracer_->SetCurrentDomain(0);
  memprof::Outcome stop = rt_->memprof(0).Stop();
  if (!stop.status.ok()) return stop.status;
  if (stop.raised) return Status(ErrorCode::kInternal, "a tracer callback raised");
  MPO_RETURN_IF_ERROR(tracer_->Close());
  MPO_RETURN_IF_ERROR(sink_->Commit());
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
  r.words_allocated = words_allocated_;
  const double n = static_cast<double>(words_allocated_), l = o_.lambda;
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
  r.external_bytes = external_bytes_;
  const double units = static_cast<double>(external_bytes_) / 8.0;
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

Result<DemoReport> Demo::Run() {
  if (o_.domains < 1 || o_.domains > 64) {
    return Status(ErrorCode::kInvalidArgument, "must lie in [1, 64]").WithField("--domains");
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
  MPO_RETURN_IF_ERROR(Setup());
  MPO_RETURN_IF_ERROR(Workload());
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
  x.is_site = [](std::uint64_t f) { return f >= SiteFrame(0) && f < SiteFrame(kSiteCount); };
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

}  // namespace mpo::tools::demo
