#include "tools/memprof/memprof_sim_command.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/sim/memprof_sim_workload.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {
namespace {

struct SimOptions {
  sim::MemprofSimOptions workload;
  std::uint64_t max_blocks = sim::kMemprofSimDefaultMaxBlocks;
  bool json = false;
};

void RunSim(const SimOptions& options) {
  const sim::MemprofSimOptions& o = options.workload;
  if (!(o.survival >= 0.0 && o.survival <= 1.0)) {
    ReportError("memprof-sim",
                Status(ErrorCode::kInvalidArgument, "must lie in [0, 1]").WithField("--survival"));
    return;
  }
  if (Status s = sim::CheckMemprofSimWork(o, options.max_blocks); !s.ok()) {
    ReportError("memprof-sim", s);
    return;
  }
  const Result<sim::MemprofSimCounts> counts = sim::RunMemprofSimWorkload(o);
  if (!counts.ok()) {
    ReportError("memprof-sim", counts.status());
    return;
  }
  const sim::MemprofSimCounts& c = *counts;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  if (options.json) {
    const std::string json = sim::MemprofSimJson(o, c);
    std::fwrite(json.data(), 1, json.size(), stdout);
  } else {
    std::printf("words allocated: minor %llu, major %llu\n", u(c.minor_words), u(c.major_words));
    std::printf("samples: minor %llu, major %llu (expected about %.1f)\n", u(c.samples_minor),
                u(c.samples_major), o.lambda * static_cast<double>(c.minor_words + c.major_words));
    std::printf(
        "callbacks: alloc_minor %llu, alloc_major %llu, promote %llu, dealloc_minor %llu, "
        "dealloc_major %llu\n",
        u(c.alloc_minor), u(c.alloc_major), u(c.promote), u(c.dealloc_minor), u(c.dealloc_major));
    std::printf("collections: minor %llu, major %llu\n", u(c.minor_collections),
                u(c.major_collections));
    std::printf("balanced: %s\n", c.balanced() ? "yes" : "no");
  }
  if (!c.balanced()) {
    ReportError("memprof-sim", Status(ErrorCode::kInternal, "callbacks do not balance"));
  }
}

}  // namespace

void AddMemprofSimCommand(CLI::App& app) {
  auto opts = std::make_shared<SimOptions>();
  CLI::App* cmd = app.add_subcommand(
      "memprof-sim",
      "Run a seeded workload on the simulated runtime under Gc.Memprof and print the counts. "
      "Work limit: --blocks x (1 + 16 x --lambda) at most --max-blocks (default 1.2 x 10^6, "
      "about 20 s and 210 MB); beyond it the run is refused (exit 1)");
  cmd->add_option("--lambda", opts->workload.lambda, "sampling rate")->check(FiniteIn(0, 1));
  cmd->add_option("--callstack-size", opts->workload.callstack_size, "frames recorded per sample")
      ->check(UnsignedIn(0, UINT32_MAX));
  cmd->add_option("--blocks", opts->workload.blocks, "allocations to perform")->check(UnsignedIn());
  cmd->add_option("--max-blocks", opts->max_blocks,
                  "work budget in allocations, sampled ones weighing more (default 1.2 x 10^6)")
      ->check(UnsignedIn());
  cmd->add_option("--seed", opts->workload.seed, "workload seed")->check(UnsignedIn());
  cmd->add_option("--survival", opts->workload.survival, "probability that a block stays reachable")
      ->check(FiniteIn(0, 1));
  cmd->add_flag("--json", opts->json, "print one JSON object");
  cmd->callback([opts] { RunSim(*opts); });
}

}  // namespace mpo::tools
