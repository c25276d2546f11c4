// OCaml's native `int` on 64-bit machines, as memtrace computes with it.
//
// memtrace stores location codes, object ids and lengths in OCaml ints: 63-bit two's
// complement values. Reading a u64 field with `Int64.to_int` keeps the low 63 bits and
// sign-extends from bit 62; arithmetic wraps modulo 2^63; `lsr` shifts the 63-bit pattern
// logically; `%x` prints the 63-bit pattern unsigned. We hold such values in int64_t,
// always normalised (bit 63 == bit 62), so that comparisons and the bytes written back
// (`Int64.of_int`, a sign extension) agree with memtrace for every input.
#pragma once

#include <cstdint>

namespace mpo::memtrace {

using OcamlInt = std::int64_t;

inline constexpr std::uint64_t kOcamlIntMask = 0x7fffffffffffffffULL;

// Int64.to_int: the low 63 bits, sign-extended from bit 62.
constexpr OcamlInt OcamlIntOfInt64(std::uint64_t raw) {
  return static_cast<OcamlInt>(raw << 1) >> 1;
}

// Wrapping 63-bit arithmetic.
constexpr OcamlInt OcamlAdd(OcamlInt a, OcamlInt b) {
  return OcamlIntOfInt64(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
constexpr OcamlInt OcamlSub(OcamlInt a, OcamlInt b) {
  return OcamlIntOfInt64(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
constexpr OcamlInt OcamlMul(OcamlInt a, OcamlInt b) {
  return OcamlIntOfInt64(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
// `lsr`: the 63-bit pattern shifted right logically (0 <= n < 63).
constexpr OcamlInt OcamlLsr(OcamlInt a, unsigned n) {
  return static_cast<OcamlInt>((static_cast<std::uint64_t>(a) & kOcamlIntMask) >> n);
}
// `%x`: the 63-bit pattern as an unsigned number.
constexpr std::uint64_t OcamlUnsigned(OcamlInt a) {
  return static_cast<std::uint64_t>(a) & kOcamlIntMask;
}

}  // namespace mpo::memtrace
