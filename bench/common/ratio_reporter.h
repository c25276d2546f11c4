// A Google Benchmark reporter that also prints each benchmark's time as a ratio to an
// anchor measured in the same run: figures are only compared within one run, on one
// machine, never against constants.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

namespace mpo::bench {

// Runs every registered benchmark (after benchmark::Initialize) with the console
// reporter, then prints "<name>: <ns per item> ns/item, <x> × anchor" for each, where the
// anchor is the benchmark whose name starts with `anchor_prefix`. Returns 0, or 1 when
// the anchor did not run.
int RunWithRatios(const std::string& anchor_prefix);

}  // namespace mpo::bench
