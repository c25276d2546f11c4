// Runs a Relacy test suite and compares its verdict with what the model expects:
// `expect_pass` for a correct protocol, !expect_pass for a deliberately broken mutant,
// which Relacy must catch. Relacy's own report (with the execution history) goes to
// stdout, so a failure explains itself.
//
// Three depths share one model binary:
// - default (every CI run): the random scheduler with the model's own iteration count;
// - deep (ci/models_deep.sh): MPO_MODEL_ITERATIONS=N raises every random run to at
//   least N iterations;
// - search (`--search`, the `<model>_search` tests): the model runs its smallest
//   configurations under Relacy's exhaustive (sched_full) or context-bounded
//   (sched_bound) scheduler, which stop only when every schedule was explored; with
//   `--deep` too (ci/models_deep.sh), a model may search larger bounds than CI affords.
// Each outcome line reports the executions explored and the time taken.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/sync/relacy_platform.h"

namespace mpo::models {

// The MPO_MODEL_ITERATIONS floor for random runs, or 0 when unset or malformed.
inline unsigned DeepIterations() {
  const char* text = std::getenv("MPO_MODEL_ITERATIONS");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (*end != '\0' || value > 1000000000UL) return 0;
  return static_cast<unsigned>(value);
}

inline bool HasFlag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}

// True when the binary was asked for the exhaustive/bounded configurations.
inline bool SearchMode(int argc, char** argv) { return HasFlag(argc, argv, "--search"); }

// True when the search may take minutes (`--deep`, given with `--search`).
inline bool DeepMode(int argc, char** argv) { return HasFlag(argc, argv, "--deep"); }

inline const char* SchedulerName(rl::scheduler_type_e scheduler) {
  switch (scheduler) {
    case rl::sched_full: return "full search";
    case rl::sched_bound: return "context bound";
    default: return "random";
  }
}

// Runs `Suite` under `scheduler`. `iterations` only bounds the random scheduler (the
// searches end when their schedule tree is exhausted); `context_bound` is the number
// of preemptions sched_bound allows per execution.
template <class Suite>
bool ExpectModel(const char* name, bool expect_pass, unsigned iterations = 200000,
                 rl::scheduler_type_e scheduler = rl::sched_random, unsigned context_bound = 1) {
  rl::test_params params;
  const unsigned deep = DeepIterations();
  params.iteration_count = deep > iterations ? deep : iterations;
  params.search_type = scheduler;
  params.context_bound = context_bound;
  if (!expect_pass) params.output_history = false;
  const auto start = std::chrono::steady_clock::now();
  const bool passed = rl::simulate<Suite>(params);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  const bool as_expected = passed == expect_pass;
  std::printf("[model] %-40s %s (%s, expected %s) %s: %llu executions in %.2f s\n", name,
              as_expected ? "OK" : "UNEXPECTED", passed ? "passed" : "bug found",
              expect_pass ? "pass" : "bug found", SchedulerName(scheduler),
              static_cast<unsigned long long>(params.stop_iteration), took.count());
  std::fflush(stdout);
  return as_expected;
}

}  // namespace mpo::models
