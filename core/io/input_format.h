// What a file holds, told from its first bytes: a gzip stream, a memtrace CTF trace or
// an OCaml 5 runtime events ring. Readers use it to say "this is the other format, try
// the other command" instead of a bare magic-number error, and to inflate gzip inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace mpo::io {

enum class InputFormat { kUnknown, kGzip, kMemtraceTrace, kRuntimeEventsRing };

// The bytes SniffFormat looks at (a ring's whole 64-byte metadata header).
inline constexpr std::size_t kSniffBytes = 64;

// `head`: the first bytes of the input (up to kSniffBytes; fewer for a short file).
// A ring is recognised by a plausible metadata header (version 1, ring headers right
// after it, ring size in bytes = 8 x its size in words), not by the version word alone.
InputFormat SniffFormat(std::span<const std::uint8_t> head);

}  // namespace mpo::io
