#include "core/sim/memprof_sim_workload.h"

#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/base/splitmix64.h"
#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

// The workload's choices (SplitMix64).
class Choices {
 public:
  explicit Choices(std::uint64_t seed) : x_(seed) {}
  std::uint64_t Next() { return SplitMix64Next(&x_); }
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  double Unit() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }

 private:
  std::uint64_t x_;
};

memprof::Tracker CountingTracker(MemprofSimCounts& c) {
  memprof::Tracker t;
  t.alloc_minor = [&c](const memprof::AllocationInfo& i) {
    ++c.alloc_minor;
    c.samples_minor += i.n_samples;
    return memprof::CallbackResult::Keep(i.n_samples);
  };
  t.alloc_major = [&c](const memprof::AllocationInfo& i) {
    ++c.alloc_major;
    c.samples_major += i.n_samples;
    return memprof::CallbackResult::Keep(i.n_samples);
  };
  t.promote = [&c](memprof::UserData n) {
    ++c.promote;
    return memprof::CallbackResult::Keep(n);
  };
  t.dealloc_minor = [&c](memprof::UserData n) {
    ++c.dealloc_minor;
    c.samples_freed += n;
    return memprof::CallbackResult::Drop();
  };
  t.dealloc_major = [&c](memprof::UserData n) {
    ++c.dealloc_major;
    c.samples_freed += n;
    return memprof::CallbackResult::Drop();
  };
  return t;
}

}  // namespace

Result<MemprofSimCounts> RunMemprofSimWorkload(const MemprofSimOptions& o) {
  if (!(o.lambda >= 0.0 && o.lambda <= 1.0)) {
    return Status(ErrorCode::kInvalidArgument, "must lie in [0, 1]").WithField("lambda");
  }
  if (!(o.survival >= 0.0 && o.survival <= 1.0)) {
    return Status(ErrorCode::kInvalidArgument, "must lie in [0, 1]").WithField("survival");
  }
  SimRuntime rt;
  MemprofSimCounts c;
  auto profile = rt.memprof(0).Start(o.lambda, o.callstack_size, CountingTracker(c));
  if (!profile.ok()) return profile.status();
  Choices choose(o.seed);
  std::vector<BlockId> kept;
  for (std::uint64_t i = 0; i < o.blocks; ++i) {
    rt.SetCallstack(0, {0x1000 + choose.Below(16), 0x2000 + choose.Below(4)});
    const bool keep = choose.Unit() < o.survival;
    const std::uint64_t kind = choose.Below(10);
    AllocOutcome a;
    if (kind < 8) {
      std::uint64_t sizes[3];
      const std::size_t n = 1 + choose.Below(3);
      for (std::size_t k = 0; k < n; ++k) sizes[k] = 1 + choose.Below(8);
      a = rt.AllocCaml(0, std::span<const std::uint64_t>(sizes, n), keep);
    } else if (kind == 8) {
      a = rt.AllocSmallFromC(0, 1 + choose.Below(kMaxYoungWosize), keep);
    } else {
      a = rt.AllocMajor(0, 257 + choose.Below(2000), memprof::AllocationSource::kNormal, keep);
    }
    if (keep) kept.insert(kept.end(), a.blocks.begin(), a.blocks.end());
    if (!kept.empty() && choose.Below(4) == 0) {
      const std::size_t k = choose.Below(kept.size());
      rt.Release(kept[k]);
      kept[k] = kept.back();
      kept.pop_back();
    }
    if (i % 64 == 0) (void)rt.Poll(0);
    if (i % 50000 == 49999) rt.MajorGc();
  }
  for (BlockId id : kept) rt.Release(id);
  rt.MajorGc();
  (void)rt.Poll(0);
  (void)rt.memprof(0).Stop();
  c.minor_words = rt.minor_words(0);
  c.major_words = rt.major_words(0);
  c.minor_collections = rt.minor_collections();
  c.major_collections = rt.major_collections();
  return c;
}

Status CheckMemprofSimWork(const MemprofSimOptions& o, std::uint64_t max_blocks) {
  constexpr double kSampledCost = 16.0;
  // In double: only the order of magnitude matters, and it cannot overflow.
  const double work = static_cast<double>(o.blocks) * (1.0 + kSampledCost * o.lambda);
  if (work <= static_cast<double>(max_blocks)) return Status::Ok();
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", work);
  return Status(ErrorCode::kResourceExhausted,
                std::string("exceeds the work limit: --blocks x (1 + 16 x --lambda) is ") + text +
                    " against a budget of " + std::to_string(max_blocks) +
                    "; raise it with --max-blocks")
      .WithField("--blocks");
}

std::string MemprofSimJson(const MemprofSimOptions& o, const MemprofSimCounts& c) {
  std::string out;
  JsonWriter w(out);
  // Members of an object: {"minor":N,"major":N}.
  auto by_heap = [&w](std::uint64_t minor, std::uint64_t major) {
    w.BeginObject();
    w.Key("minor");
    w.Uint(minor);
    w.Key("major");
    w.Uint(major);
    w.EndObject();
  };
  w.BeginObject();
  w.Key("lambda");
  w.Double(o.lambda);
  w.Key("blocks");
  w.Uint(o.blocks);
  w.Key("seed");
  w.Uint(o.seed);
  w.Key("words");
  by_heap(c.minor_words, c.major_words);
  w.Key("samples");
  by_heap(c.samples_minor, c.samples_major);
  w.Key("callbacks");
  w.BeginObject();
  w.Key("alloc_minor");
  w.Uint(c.alloc_minor);
  w.Key("alloc_major");
  w.Uint(c.alloc_major);
  w.Key("promote");
  w.Uint(c.promote);
  w.Key("dealloc_minor");
  w.Uint(c.dealloc_minor);
  w.Key("dealloc_major");
  w.Uint(c.dealloc_major);
  w.EndObject();
  w.Key("collections");
  by_heap(c.minor_collections, c.major_collections);
  w.Key("balanced");
  w.Bool(c.balanced());
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::sim
