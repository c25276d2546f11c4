// Seeded, reproducible mutants of memtrace traces and ring files for the differential
// fuzzer (`corpus fuzz`, fuzz.h).
//
// A mutant is a pure function of (seeds, run seed, index): MakeMutant draws everything
// from a FuzzRng of its own, so that mutant 123456 of seed 42 can be rebuilt alone, and
// two calls never share state. It applies a chain of one to four mutators to one seed:
//   every format    flip_bits, set_byte, truncate, duplicate_chunk, splice (two seeds)
//   memtrace        packet_drop, packet_swap, packet_duplicate, header_field (packet
//                   size, times, version, cache verifier, alloc ids, ...), varint (tag
//                   bytes 252..255, widened encodings, boundary payloads),
//                   rewrite_version (v3 written as v2, v1/v2 as v3), hitn_run (a backtrace
//                   cache hit run of a chosen length), mtf_refs (locations at chosen slots
//                   of the filename and defname tables): these read the trace and write
//                   it again (rewrite_mutators.cc)
//   ring            ring_metadata (the eight metadata words), ring_head_tail, ring_event
//                   (length, type, id, user bit of event header words)
// Ring mutators aim at the words a consumer reads (ring_walk.h): a byte flip among the
// 8192 user-event name slots would mostly test nothing. Every mutator keeps its offsets
// inside the buffer, and a mutant never grows past MaxMutantSize of its seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mpo::corpus::fuzz {

enum class FuzzFormat : std::uint8_t { kMemtrace, kRing };

struct SeedInput {
  std::string name;    // a corpus case name or a file path, for reports
  std::string suffix;  // the file-name suffix the input needs: ".ctf", ".ocaml-5.3.events"
  std::vector<std::uint8_t> bytes;
};

struct Mutant {
  std::size_t seed = 0;  // index into the seeds
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> chain;  // each mutator applied, with its parameters, in order
};

// Bytes a mutant of `seed_size` bytes may reach.
std::size_t MaxMutantSize(std::size_t seed_size);

// Precondition: `seeds` is not empty (an empty list gives an empty mutant).
Mutant MakeMutant(std::span<const SeedInput> seeds, FuzzFormat format, std::uint64_t run_seed,
                  std::uint64_t index);

// "flip_bits@0x1a ^0x10 -> truncate@200" for reports.
std::string ChainText(const std::vector<std::string>& chain);

}  // namespace mpo::corpus::fuzz
