// Vocabulary shared by every platform of the sync layer: memory orders and call sites.
//
// Code whose threads share state through atomics and memory orders is written once
// against a *platform* (see std_platform.h and relacy_platform.h), so that the Relacy
// models in models/ check the very code production runs: the memprof engine (a profile's
// status, the orphan lists: core/memprof) and the runtime-events ring (the producer's
// and consumer's protocol, the pause switch, the poll gate: core/ring). The sampler is
// not among them: a domain's Sampler is its own, never shared. Threads that share
// state only under a std::mutex or across a join (the dump pipeline, the copy's
// write-ahead, the producer's name registry, the corpus runners) use std directly and
// say so where they start; TSan checks them. A platform P provides:
//
//   P::Atomic<T>   Load / Store / Exchange / CompareExchange / FetchAdd, each taking an
//                  explicit MemoryOrder and (defaulted) the caller's SourceLoc;
//   P::Var<T>      a plain shared variable (Load / Store) whose unsynchronised
//                  concurrent use is a data race the model checker reports;
//   P::Mutex       Lock / Unlock, and P::Lock, its scoped guard;
//   P::Thread      Start(callable) / Join;
//   P::Fence(order), P::Yield().
//
// Generic code never names std::atomic or rl::atomic: it names P.
#pragma once

#include <cstdint>

namespace mpo::sync {

enum class MemoryOrder : std::uint8_t { kRelaxed, kAcquire, kRelease, kAcqRel, kSeqCst };

// The caller's position, captured by defaulted arguments so that Relacy's reports point
// at our code rather than at the sync layer. (std::source_location is not usable with
// clang 14 on libstdc++ 12; the builtins it is made of are.)
struct SourceLoc {
  const char* file;
  const char* function;
  unsigned line;

  static constexpr SourceLoc Here(const char* file = __builtin_FILE(),
                                  const char* function = __builtin_FUNCTION(),
                                  unsigned line = __builtin_LINE()) {
    return SourceLoc{file, function, line};
  }
};

}  // namespace mpo::sync
