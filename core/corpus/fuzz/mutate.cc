#include "core/corpus/fuzz/mutate.h"

#include <algorithm>

#include "core/corpus/fuzz/fuzz_rng.h"
#include "core/corpus/fuzz/mutators.h"

namespace mpo::corpus::fuzz {
namespace {

constexpr NamedMutator kMemtraceMutators[] = {
    {"flip_bits", FlipBits},
    {"set_byte", SetByte},
    {"truncate", Truncate},
    {"duplicate_chunk", DuplicateChunk},
    {"splice", Splice},
    {"packet_drop", PacketDrop},
    {"packet_swap", PacketSwap},
    {"packet_duplicate", PacketDuplicate},
    {"header_field", HeaderField},
    {"header_field", HeaderField},
    {"varint", VarintEdit},
    {"rewrite_version", RewriteVersion, true},
    {"hitn_run", HitNRun, true},
    {"mtf_refs", MtfRefs, true},
};

constexpr NamedMutator kRingMutators[] = {
    {"flip_bits", FlipBits},
    {"set_byte", SetByte},
    {"truncate", Truncate},
    {"duplicate_chunk", DuplicateChunk},
    {"splice", Splice},
    {"ring_metadata", RingMetadata},
    {"ring_metadata", RingMetadata},
    {"ring_head_tail", RingHeadTail},
    {"ring_head_tail", RingHeadTail},
    {"ring_event", RingEvent},
    {"ring_event", RingEvent},
    {"ring_event", RingEvent},
};

constexpr std::size_t kMaxChain = 4;
constexpr std::size_t kAttemptsPerStep = 8;  // mutators that may decline before one applies

}  // namespace

std::span<const NamedMutator> MutatorsFor(FuzzFormat format) {
  if (format == FuzzFormat::kRing) return kRingMutators;
  return kMemtraceMutators;
}

std::size_t MaxMutantSize(std::size_t seed_size) {
  // Room for duplicated packets, never an unbounded file.
  return std::min<std::size_t>(std::max<std::size_t>(2 * seed_size, 1 << 16), 64 << 20);
}

Mutant MakeMutant(std::span<const SeedInput> seeds, FuzzFormat format, std::uint64_t run_seed,
                  std::uint64_t index) {
  Mutant m;
  if (seeds.empty()) return m;
  FuzzRng rng(run_seed, index);
  m.seed = rng.Index(seeds.size());
  m.bytes = seeds[m.seed].bytes;
  const std::size_t max_size = MaxMutantSize(m.bytes.size());
  const auto mutators = MutatorsFor(format);
  // Mostly one or two steps: a short chain explains a divergence by itself.
  std::size_t steps = 1;
  while (steps < kMaxChain && rng.Chance(1, 3)) ++steps;
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t attempt = 0; attempt < kAttemptsPerStep; ++attempt) {
      const NamedMutator& mut = mutators[rng.Index(mutators.size())];
      MutationContext c{m.bytes, rng, seeds, format, max_size, {}};
      if (!mut.apply(c)) continue;
      if (m.bytes.size() > max_size) m.bytes.resize(max_size);
      m.chain.push_back(std::string(mut.name) + (c.note.empty() ? "" : " " + c.note));
      break;
    }
  }
  if (m.chain.empty()) {
    // Every draw declined (an empty seed, say): a splice still makes it a mutant, since
    // judging the seed itself again would test nothing new.
    MutationContext c{m.bytes, rng, seeds, format, max_size, {}};
    if (Splice(c)) m.chain.push_back("splice " + c.note);
  }
  return m;
}

std::string ChainText(const std::vector<std::string>& chain) {
  std::string out;
  for (const std::string& step : chain) out += (out.empty() ? "" : " -> ") + step;
  return out.empty() ? "(none)" : out;
}

}  // namespace mpo::corpus::fuzz
