// Runs a Relacy test suite and compares its verdict with what the model expects:
// `expect_pass` for a correct protocol, !expect_pass for a deliberately broken mutant,
// which Relacy must catch. Relacy's own report (with the execution history) goes to
// stdout, so a failure explains itself.
#pragma once

#include <cstdio>

#include "core/sync/relacy_platform.h"

namespace mpo::models {

template <class Suite>
bool ExpectModel(const char* name, bool expect_pass, unsigned iterations = 200000,
                 rl::scheduler_type_e scheduler = rl::sched_random) {
  rl::test_params params;
  params.iteration_count = iterations;
  params.search_type = scheduler;
  if (!expect_pass) params.output_history = false;
  const bool passed = rl::simulate<Suite>(params);
  const bool as_expected = passed == expect_pass;
  std::printf("[model] %-40s %s (%s, expected %s)\n", name, as_expected ? "OK" : "UNEXPECTED",
              passed ? "passed" : "bug found", expect_pass ? "pass" : "bug found");
  return as_expected;
}

}  // namespace mpo::models
