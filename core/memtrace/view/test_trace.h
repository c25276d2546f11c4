// Test support: a small trace written by the project's own TraceWriter that exercises
// every kind of view record: codes first used on either domain, a code reused across
// domains, a common prefix, a code whose location holds no frame, a non-UTF-8 filename.
//
// Events (v3: domains 0 and 1; v2: all on domain 0), start time 1000:
//   1001 d0 alloc len 4        [kMain, kF]          -> location kMain, location kF, alloc
//   1002 dB alloc len 5 major  [kMain, kG]          -> location kG, alloc
//   1003 d0 promote id 0
//   1004 d0 alloc len 1        [kMain, kF, kG]      (all known)
//   1005 d0 alloc len 2        [kEmpty]             -> location kEmpty (no frames), alloc
#pragma once

#include <cstdint>
#include <vector>

#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace::view::testing {

inline constexpr OcamlInt kMain = 0x7a0000000100;
inline constexpr OcamlInt kF = 0x7a0000000200;  // two frames (one inlined)
inline constexpr OcamlInt kG = 0x7a0000000300;  // filename "g\xe9.ml" (Latin-1, not UTF-8)
inline constexpr OcamlInt kEmpty = 0x7a0000000400;

std::vector<std::uint8_t> ViewTestTrace(int version);

// The byte offset of every packet of `trace`, in file order (the info packet first).
std::vector<std::uint64_t> PacketOffsets(const std::vector<std::uint8_t>& trace);

}  // namespace mpo::memtrace::view::testing
