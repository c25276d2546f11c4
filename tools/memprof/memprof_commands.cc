#include "tools/memprof/memprof_commands.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/sim/sim_runtime.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {
namespace {

// Default work budget: 10^6 blocks at the default rate; about 20 s of CPU, and 210 MB at
// survival 1.
constexpr std::uint64_t kDefaultMaxBlocks = 1'200'000;
// An allocation at rate λ costs about 1 + kSampledCost x λ unsampled ones (an average
// allocation is ~150 words, each sample is tracked until the block dies).
constexpr double kSampledCost = 16.0;

struct SimOptions {
  double lambda = 1e-3;
  std::int64_t callstack_size = 8;
  std::uint64_t blocks = 100000;
  std::uint64_t max_blocks = kDefaultMaxBlocks;
  std::uint64_t seed = 1;
  double survival = 0.1;
  bool json = false;
};

// A small deterministic generator for the workload's choices (SplitMix64).
class Choices {
 public:
  explicit Choices(std::uint64_t seed) : x_(seed) {}
  std::uint64_t Next() { return SplitMix64Next(&x_); }
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  double Unit() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }

 private:
  std::uint64_t x_;
};

struct Counts {
  std::uint64_t alloc_minor = 0, alloc_major = 0, promote = 0, dealloc_minor = 0, dealloc_major = 0,
                samples_minor = 0, samples_major = 0, samples_freed = 0;
};

void RunSim(const SimOptions& o) {
  if (!(o.survival >= 0.0 && o.survival <= 1.0)) {
    ReportError("memprof-sim",
                Status(ErrorCode::kInvalidArgument, "must lie in [0, 1]").WithField("--survival"));
    return;
  }
  // In double: only the order of magnitude matters, and it cannot overflow.
  if (const double work = static_cast<double>(o.blocks) * (1.0 + kSampledCost * o.lambda);
      work > static_cast<double>(o.max_blocks)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", work);
    ReportError("memprof-sim",
                Status(ErrorCode::kResourceExhausted,
                       std::string("exceeds the work limit: --blocks x (1 + 16 x --lambda) is ") +
                           text + " against a budget of " + std::to_string(o.max_blocks) +
                           "; raise it with --max-blocks")
                    .WithField("--blocks"));
    return;
  }
  sim::SimRuntime rt;
  Counts c;
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
  auto profile = rt.memprof(0).Start(o.lambda, o.callstack_size, t);
  if (!profile.ok()) {
    ReportError("memprof-sim", profile.status());
    return;
  }
  Choices choose(o.seed);
  std::vector<sim::BlockId> kept;
  for (std::uint64_t i = 0; i < o.blocks; ++i) {
    rt.SetCallstack(0, {0x1000 + choose.Below(16), 0x2000 + choose.Below(4)});
    const bool keep = choose.Unit() < o.survival;
    const std::uint64_t kind = choose.Below(10);
    sim::AllocOutcome a;
    if (kind < 8) {
      std::uint64_t sizes[3];
      const std::size_t n = 1 + choose.Below(3);
      for (std::size_t k = 0; k < n; ++k) sizes[k] = 1 + choose.Below(8);
      a = rt.AllocCaml(0, std::span<const std::uint64_t>(sizes, n), keep);
    } else if (kind == 8) {
      a = rt.AllocSmallFromC(0, 1 + choose.Below(sim::kMaxYoungWosize), keep);
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
  for (sim::BlockId id : kept) rt.Release(id);
  rt.MajorGc();
  (void)rt.Poll(0);
  (void)rt.memprof(0).Stop();
  const std::uint64_t samples = c.samples_minor + c.samples_major;
  const bool balanced = c.alloc_minor + c.alloc_major == c.dealloc_minor + c.dealloc_major &&
                        samples == c.samples_freed;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  if (o.json) {
    std::printf(
        "{\"lambda\":%.17g,\"blocks\":%llu,\"seed\":%llu,\"words\":{\"minor\":%llu,\"major\":%llu},"
        "\"samples\":{\"minor\":%llu,\"major\":%llu},\"callbacks\":{\"alloc_minor\":%llu,"
        "\"alloc_major\":%llu,\"promote\":%llu,\"dealloc_minor\":%llu,\"dealloc_major\":%llu},"
        "\"collections\":{\"minor\":%llu,\"major\":%llu},\"balanced\":%s}\n",
        o.lambda, u(o.blocks), u(o.seed), u(rt.minor_words(0)), u(rt.major_words(0)),
        u(c.samples_minor), u(c.samples_major), u(c.alloc_minor), u(c.alloc_major), u(c.promote),
        u(c.dealloc_minor), u(c.dealloc_major), u(rt.minor_collections()),
        u(rt.major_collections()), balanced ? "true" : "false");
  } else {
    std::printf("words allocated: minor %llu, major %llu\n", u(rt.minor_words(0)),
                u(rt.major_words(0)));
    std::printf("samples: minor %llu, major %llu (expected about %.1f)\n", u(c.samples_minor),
                u(c.samples_major),
                o.lambda * static_cast<double>(rt.minor_words(0) + rt.major_words(0)));
    std::printf(
        "callbacks: alloc_minor %llu, alloc_major %llu, promote %llu, dealloc_minor %llu, "
        "dealloc_major %llu\n",
        u(c.alloc_minor), u(c.alloc_major), u(c.promote), u(c.dealloc_minor), u(c.dealloc_major));
    std::printf("collections: minor %llu, major %llu\n", u(rt.minor_collections()),
                u(rt.major_collections()));
    std::printf("balanced: %s\n", balanced ? "yes" : "no");
  }
  if (!balanced) {
    ReportError("memprof-sim", Status(ErrorCode::kInternal, "callbacks do not balance"));
  }
}

}  // namespace

void AddMemprofCommands(CLI::App& app) {
  auto opts = std::make_shared<SimOptions>();
  CLI::App* cmd = app.add_subcommand(
      "memprof-sim",
      "Run a seeded workload on the simulated runtime under Gc.Memprof and print the counts. "
      "Work limit: --blocks x (1 + 16 x --lambda) at most --max-blocks (default 1.2 x 10^6, "
      "about 20 s and 210 MB); beyond it the run is refused (exit 1)");
  cmd->add_option("--lambda", opts->lambda, "sampling rate")->check(FiniteIn(0, 1));
  cmd->add_option("--callstack-size", opts->callstack_size, "frames recorded per sample")
      ->check(UnsignedIn(0, UINT32_MAX));
  cmd->add_option("--blocks", opts->blocks, "allocations to perform")->check(UnsignedIn());
  cmd->add_option("--max-blocks", opts->max_blocks,
                  "work budget in allocations, sampled ones weighing more (default 1.2 x 10^6)")
      ->check(UnsignedIn());
  cmd->add_option("--seed", opts->seed, "workload seed")->check(UnsignedIn());
  cmd->add_option("--survival", opts->survival, "probability that a block stays reachable")
      ->check(FiniteIn(0, 1));
  cmd->add_flag("--json", opts->json, "print one JSON object");
  cmd->callback([opts] { RunSim(*opts); });
}

}  // namespace mpo::tools
