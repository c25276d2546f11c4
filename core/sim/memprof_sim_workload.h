// The `memprof-sim` workload: one domain allocates a seeded stream of blocks (small OCaml
// blocks, small blocks from C, major blocks) under a Gc.Memprof profile whose callbacks
// only count, keeps each block reachable with probability `survival` and releases kept
// ones at random. At the end every block is released and collected, so each tracked
// block's allocation callback is matched by one deallocation callback.
//
//   auto c = sim::RunMemprofSimWorkload({.lambda = 1e-3, .blocks = 100000});
//   if (c.ok() && !c->balanced()) ...  // the engine lost or duplicated a callback
//
// A pure function of the options. Bounded: `blocks` allocations, each of at most a few
// thousand words; the caller bounds `blocks` (memory grows with the survivors).
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::sim {

struct MemprofSimOptions {
  double lambda = 1e-3;             // sampling rate, in [0, 1]
  std::int64_t callstack_size = 8;  // frames recorded per sample
  std::uint64_t blocks = 100000;    // allocations to perform
  std::uint64_t seed = 1;           // the workload's choices
  double survival = 0.1;            // probability that a block stays reachable, in [0, 1]
};

struct MemprofSimCounts {
  // Callbacks run, and the samples the allocation callbacks and the deallocation
  // callbacks saw.
  std::uint64_t alloc_minor = 0, alloc_major = 0, promote = 0, dealloc_minor = 0, dealloc_major = 0,
                samples_minor = 0, samples_major = 0, samples_freed = 0;
  // Of the simulated runtime, domain 0.
  std::uint64_t minor_words = 0, major_words = 0, minor_collections = 0, major_collections = 0;

  // Every tracked block was deallocated once, with the samples it was allocated with.
  bool balanced() const {
    return alloc_minor + alloc_major == dealloc_minor + dealloc_major &&
           samples_minor + samples_major == samples_freed;
  }
};

// kInvalidArgument (naming the option) for a rate or survival outside [0, 1]; the
// profile's own error for a callstack size it refuses.
Result<MemprofSimCounts> RunMemprofSimWorkload(const MemprofSimOptions& o);

// Default work budget: 10^6 blocks at the default rate; about 20 s of CPU, and 210 MB at
// survival 1.
inline constexpr std::uint64_t kMemprofSimDefaultMaxBlocks = 1'200'000;

// kResourceExhausted (field --blocks) when `blocks x (1 + 16 x lambda)` exceeds
// `max_blocks`: a sampled allocation weighs about 16 unsampled ones (an average block is
// ~150 words, and each sample is tracked until its block dies).
Status CheckMemprofSimWork(const MemprofSimOptions& o, std::uint64_t max_blocks);

// `{"lambda":X,"blocks":N,"seed":N,"words":{"minor":N,"major":N},"samples":{"minor":N,
// "major":N},"callbacks":{"alloc_minor":N,"alloc_major":N,"promote":N,"dealloc_minor":N,
// "dealloc_major":N},"collections":{"minor":N,"major":N},"balanced":B}` and a newline
// (`memprof-sim --json`; lambda with 17 significant digits).
std::string MemprofSimJson(const MemprofSimOptions& o, const MemprofSimCounts& c);

}  // namespace mpo::sim
