// The individual mutators behind MakeMutant (mutate.h), one table per format. Internal
// to the fuzz library; tests call them one at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/corpus/fuzz/fuzz_rng.h"
#include "core/corpus/fuzz/mutate.h"

namespace mpo::corpus::fuzz {

struct MutationContext {
  std::vector<std::uint8_t>& bytes;
  FuzzRng& rng;
  std::span<const SeedInput> seeds;  // for splices
  FuzzFormat format;
  std::size_t max_size;  // the mutant is cut back to this after each mutator
  std::string note;      // what the mutator did, e.g. "@0x40 := 0"
};

// Returns false (and leaves `bytes` alone) when it does not apply to this input, e.g. a
// packet swap on a trace of one packet.
using Mutator = bool (*)(MutationContext&);

struct NamedMutator {
  const char* name;
  Mutator apply;
  // Reads the trace and writes it again (rewrite_mutators.cc): far costlier than a byte
  // edit, so tests run it fewer times.
  bool rewrites = false;
};

std::span<const NamedMutator> MutatorsFor(FuzzFormat format);

// A value worth trying in place of `current` in a field of `width` bytes: 0, 1, the
// extremes, current +- 1 or +- 8, doubled, halved, or random.
std::uint64_t InterestingValue(FuzzRng& rng, std::uint64_t current, std::size_t width);

// "0x1a2": offsets and values in notes.
std::string Hex(std::uint64_t v);

// An offset in [0, size) where a byte edit matters: for a ring, inside the live parts
// (ring_walk.h) nine times out of ten. Precondition: size > 0.
std::size_t PickOffset(MutationContext& c);

// Shared by both tables.
bool FlipBits(MutationContext& c);
bool SetByte(MutationContext& c);
bool Truncate(MutationContext& c);
bool DuplicateChunk(MutationContext& c);
bool Splice(MutationContext& c);

// Memtrace.
bool PacketDrop(MutationContext& c);
bool PacketSwap(MutationContext& c);
bool PacketDuplicate(MutationContext& c);
bool HeaderField(MutationContext& c);
bool VarintEdit(MutationContext& c);
// Read as events and written again: v3 as v2 and v1/v2 as v3; a backtrace-cache hit run
// of a chosen length (the count byte's edges, runs past 255); locations naming chosen
// slots of the filename and defname move-to-front tables, evictions included.
bool RewriteVersion(MutationContext& c);
bool HitNRun(MutationContext& c);
bool MtfRefs(MutationContext& c);

// Ring.
bool RingMetadata(MutationContext& c);
bool RingHeadTail(MutationContext& c);
bool RingEvent(MutationContext& c);

}  // namespace mpo::corpus::fuzz
