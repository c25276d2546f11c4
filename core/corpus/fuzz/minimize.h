// Delta debugging for a divergent input: the smallest input found, within a budget of
// tests, on which the divergence keeps its signature (judge.h).
//
// Two passes, each keeping a change only if `keeps` still says yes:
//  1. undo the mutation: bytes that differ from the seed the mutant came from (over
//     their common length) are put back, in halves, quarters, ... then one by one, so
//     the reproducer shows only the bytes that matter (rings: the whole file stays, the
//     few edited words are the story);
//  2. memtrace only: cut whole packets, then chunks of halving size, down to one byte.
// Bounded: at most `max_tests` calls of `keeps`; `keeps` is never called on the input
// itself. No state outside the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/corpus/fuzz/mutate.h"

namespace mpo::corpus::fuzz {

using KeepsDivergence = std::function<bool(std::span<const std::uint8_t>)>;

struct MinimizeResult {
  std::vector<std::uint8_t> bytes;
  std::size_t tests = 0;  // calls of `keeps`
};

MinimizeResult Minimize(std::span<const std::uint8_t> input, std::span<const std::uint8_t> origin,
                        FuzzFormat format, const KeepsDivergence& keeps, std::size_t max_tests);

}  // namespace mpo::corpus::fuzz
