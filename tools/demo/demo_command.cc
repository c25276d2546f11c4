#include "tools/demo/demo_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "core/demo/demo_run.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

// A relative --out is taken from where the user ran the command (bazel run changes the
// working directory and says where the user was in BUILD_WORKING_DIRECTORY).
std::string ResolveOut(const std::string& out) {
  std::filesystem::path p(out);
  if (p.is_absolute()) return out;
  if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY"); wd != nullptr && *wd != '\0') {
    return (std::filesystem::path(wd) / p).string();
  }
  return out;
}

double Percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

void Print(const demo::DemoOptions& o, const demo::DemoReport& r, double seconds) {
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("memprof-oracle demo: seed %llu, lambda %g, %u domains, memtrace format v%d\n",
              u(o.seed), o.lambda, o.domains, o.format_version);
  std::printf("  simulated: %llu words allocated, %llu minor / %llu major collections, %.2f s\n",
              u(r.words_allocated), u(r.minor_collections), u(r.major_collections), seconds);
  // Sites as `memtrace stats --callers 1 trace.ctf` gives them (the one attribution rule).
  std::printf("\nTop allocation sites (sampled; site <- caller):\n");
  std::printf("  %8s %8s %12s %12s  %s\n", "blocks", "samples", "words", "est. bytes", "site");
  std::size_t shown = 0;
  for (const auto& s : r.sites) {
    if (shown++ == 8) break;
    // The trace's rate is lambda and its words are 64-bit.
    const double est = o.lambda > 0 ? static_cast<double>(s.samples) / o.lambda * 8 : 0.0;
    std::printf("  %8llu %8llu %12llu %12s  %s\n", u(s.allocs), u(s.samples), u(s.sampled_words),
                memtrace::analysis::BytesText(est).c_str(), s.name.c_str());
  }
  std::printf("\nSamples: %llu (expected %.1f +/- %.1f); external %llu (expected %.1f +/- %.1f)\n",
              u(r.samples), r.samples_expected, r.samples_bound, u(r.external_samples),
              r.external_expected, r.external_bound);
  std::printf(
      "Promotion: %.1f%% of %llu sampled minor blocks; survival to the end of the "
      "workload: %.1f%% of %llu sampled blocks\n",
      Percent(r.promoted, r.minor_sampled), u(r.minor_sampled),
      Percent(r.survived_to_end, r.sampled_blocks), u(r.sampled_blocks));
  // One line per domain: collections and the time memprof's own phases took in them.
  struct Row {
    std::uint64_t minors = 0, minor_ns = 0, minor_memprof_ns = 0;
    std::uint64_t majors = 0, major_ns = 0, major_memprof_ns = 0;
  };
  std::map<std::uint32_t, Row> rows;
  for (const auto& p : r.phases) {
    Row& row = rows[p.domain];
    if (p.phase == "minor") {
      row.minors = p.count;
      row.minor_ns = p.total_ns;
    } else if (p.phase == "major") {
      row.majors = p.count;
      row.major_ns = p.total_ns;
    } else if (p.phase == "minor_memprof_roots" || p.phase == "minor_memprof_clean") {
      row.minor_memprof_ns += p.total_ns;
    } else if (p.phase == "major_memprof_roots" || p.phase == "major_memprof_clean") {
      row.major_memprof_ns += p.total_ns;
    }
  }
  std::printf("\nGC phase time per domain (simulated clock, read back from the ring):\n");
  // A wrapped ring overwrote phases before they were read: what it kept is all it shows.
  if (r.ring_lost_words > 0) {
    std::printf(
        "  partial: the ring lost %llu words, so these counts and times are lower bounds "
        "(a larger --ring-log2-words keeps them all)\n",
        u(r.ring_lost_words));
  }
  std::printf("  %6s %7s %10s %14s %7s %10s %14s\n", "domain", "minor", "minor ms", "memprof ms",
              "major", "major ms", "memprof ms");
  auto ms = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e6; };
  for (const auto& [d, row] : rows) {
    std::printf("  %6u %7llu %10.3f %14.3f %7llu %10.3f %14.3f\n", d, u(row.minors),
                ms(row.minor_ns), ms(row.minor_memprof_ns), u(row.majors), ms(row.major_ns),
                ms(row.major_memprof_ns));
  }
  std::printf(
      "\nChecks: engine callbacks %llu alloc / %llu promote / %llu collect; trace %llu / "
      "%llu / %llu; ring %llu events, %llu words lost\n",
      u(r.engine_allocs), u(r.engine_promotes), u(r.engine_collects), u(r.trace_allocs),
      u(r.trace_promotes), u(r.trace_collects), u(r.ring_events), u(r.ring_lost_words));
  if (r.failures.empty()) {
    if (r.ring_lost_words > 0) {
      std::printf(
          "  all checks passed (the lost words are counted exactly; the GC table is partial)\n");
    } else {
      std::printf("  all checks passed\n");
    }
  } else {
    for (const auto& f : r.failures) std::printf("  FAILED: %s\n", f.c_str());
  }
  std::printf("\nFiles:\n  %s (%llu bytes; try: memprof-oracle memtrace stats %s)\n",
              r.trace_path.c_str(), u(r.trace_bytes), r.trace_path.c_str());
  std::printf("  %s (%llu bytes; try: memprof-oracle events stats %s)\n", r.ring_path.c_str(),
              u(r.ring_bytes), r.ring_path.c_str());
}

}  // namespace

void AddDemoCommands(CLI::App& app) {
  auto o = std::make_shared<demo::DemoOptions>();
  o->out = "memprof-oracle-demo";
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "Trace a deterministic multi-domain workload on the simulated runtime, write "
      "trace.ctf and the runtime events ring, read both back and check them. Work limit: "
      "--steps x --domains x (1 + 20 x --lambda) at most --max-steps (default 10^6, "
      "about 20 s and 200 MB); beyond it the run is refused (exit 1)");
  cmd->add_option("--out", o->out, "output directory (created; default ./memprof-oracle-demo)");
  cmd->add_option("--seed", o->seed,
                  "workload and external-sampler seed (memprof seeds each domain's PRNG with "
                  "its id, as OCaml does)")
      ->check(UnsignedIn());
  cmd->add_option("--lambda", o->lambda, "memprof sampling rate")->check(FiniteIn(0, 1));
  cmd->add_option("--domains", o->domains, "domains")->check(UnsignedIn(1, 64));
  cmd->add_option("--steps", o->steps, "workload steps per domain")->check(UnsignedIn());
  cmd->add_option("--max-steps", o->max_steps,
                  "work budget: --steps x --domains x (1 + 20 x --lambda) at most this "
                  "(default " +
                      std::to_string(demo::kDefaultMaxSteps) + ", about 20 s and 200 MB)")
      ->check(UnsignedIn());
  cmd->add_option("--format-version", o->format_version, "memtrace format: 3 (default) or 2")
      ->check(UnsignedIn(2, 3));
  cmd->add_option("--ring-log2-words", o->ring_log2_words,
                  "words per domain ring, as a power of two (small rings wrap and "
                  "lose events; the check then counts exactly the lost words)")
      ->check(UnsignedIn(4, 26));
  cmd->callback([o] {
    demo::DemoOptions opts = *o;
    opts.out = ResolveOut(opts.out);
    const auto start = std::chrono::steady_clock::now();
    // Steps of the workload; the read-back checks after it are short.
    const std::uint64_t total = opts.steps * opts.domains;
    Progress progress("demo", "steps", total);
    // Teardown names a domain once more: the count stops at the total.
    opts.progress = [&](std::uint64_t steps) { progress.Update(std::min(steps, total)); };
    auto r = demo::RunDemo(opts);
    progress.Clear();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.ok()) {
      ReportError("demo", r.status());
      return;
    }
    Print(opts, *r, seconds);
    if (!r->failures.empty()) SetExitCode(kExitBadInput);
  });
}

}  // namespace mpo::tools
