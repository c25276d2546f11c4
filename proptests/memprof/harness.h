// An operation-sequence harness over the memprof engine and the simulated runtime,
// checked against a small abstract model. Shared by the RapidCheck stateful test and
// the libFuzzer target.
//
// The model follows every sampled allocation (one "track" per allocation callback):
// which callbacks it got, in what order, on which thread, under which profile, and
// whether its block is known to have died. User data are OCaml-like values
// (sim::SimConfig::user_data_are_values): an immediate naming the track, or a block
// that only memprof's roots keep alive, which must survive (and be followed through
// promotion and compaction) for as long as the track lives. C-heap refusals (kFailCHeap)
// may drop samples and, when a thread or domain ends, lose entries as OCaml does: tracks
// alive at such a loss are exempt from the "deallocated in the end" and "held block stays
// alive" checks, every other check still applies. Violations are collected as readable
// strings; the engine's and the simulator's table invariants are checked after each op.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/memprof/faults.h"

namespace mpo::memprof::harness {

enum class OpKind : std::uint8_t {
  kAllocCaml,    // a: sub-allocations (1..4), b: size seed
  kAllocSmallC,  // b: size seed
  kAllocMajor,   // b: size seed; a: source
  kRelease,      // a: which live block
  kPoll,
  kMinorGc,
  kMajorGc,
  kCompact,
  kStart,  // a: rate choice
  kStop,
  kDiscard,  // a: which profile
  kArm,      // a: what the next callback does (CallbackAction)
  kNewThread,
  kSwitchThread,  // a: which thread
  kEndThread,     // a: which thread (never the current one)
  kNewDomain,
  kSwitchDomain,  // a: which domain
  kEndDomain,     // a: which domain (never the current one)
  kFailCHeap,     // a: which C-heap site (memprof::CHeapSite); b: allocations to let pass first
  kCount,
};

enum class CallbackAction : std::uint8_t {
  kKeep,
  kDrop,
  kRaise,
  kStop,
  kRestart,
  kDiscard,
  kHold,  // an allocation callback keeps a fresh block, reachable only from its user data
  kCount
};

struct Op {
  OpKind kind = OpKind::kPoll;
  std::uint8_t a = 0;
  std::uint8_t b = 0;
};

std::ostream& operator<<(std::ostream& os, const Op& op);

// Decodes ops from bytes, three per op, at most `max_ops` (for the fuzzer).
std::vector<Op> DecodeOps(std::span<const std::uint8_t> bytes, std::size_t max_ops = 400);

// Bounds on the work one run does (the fuzzer's; the property test uses the defaults).
struct RunOptions {
  // At most this many blocks stay reachable: allocating more releases the oldest, which
  // keeps entries tables, and so every pass and invariant check, small.
  std::size_t max_live_blocks = SIZE_MAX;
  // kAllocMajor's size is 257 + b words by default. When non-zero it is 1 + b % this:
  // small major blocks need far fewer random draws at λ = 1.
  std::uint32_t major_wosize_mod = 0;
};

struct RunReport {
  std::vector<std::string> violations;
  std::uint64_t callbacks = 0;
  std::uint64_t tracks = 0;
};

// Runs `ops`, then releases everything, collects, polls every thread of every domain,
// and checks conservation, on the engine with fault policy `Faults` (the correct one by
// default; a mutant needs harness_impl.h). Never crashes on the correct engine.
template <class Faults = NoFaults>
RunReport Run(std::span<const Op> ops, const RunOptions& options = {});

// Compiled once, in harness.cc.
extern template RunReport Run<NoFaults>(std::span<const Op> ops, const RunOptions& options);

}  // namespace mpo::memprof::harness
