// The number of leading backtrace entries two backtraces share: the writer's common
// prefix, and the dump's reuse of the previous backtrace's texts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

// The number of leading entries `a` and `b` share, given that the first `from` are
// shared (a `from` past the shorter one counts as all of it). Stacks are often a hundred frames
// deep and mostly shared: eight entries are compared per step, with no branch inside a step (the
// compiler turns it into vector xor/or), and the step that differs is walked entry by entry.
inline std::size_t CommonPrefix(std::span<const OcamlInt> a, std::span<const OcamlInt> b,
                                std::size_t from = 0) {
  constexpr std::size_t kStep = 8;
  const std::size_t n = std::min(a.size(), b.size());
  const OcamlInt* const pa = a.data();
  const OcamlInt* const pb = b.data();
  std::size_t i = std::min(from, n);
  for (; i + kStep <= n; i += kStep) {
    std::uint64_t diff = 0;
    for (std::size_t k = 0; k < kStep; ++k)
      diff |= static_cast<std::uint64_t>(pa[i + k] ^ pb[i + k]);
    if (diff != 0) break;
  }
  while (i < n && pa[i] == pb[i]) ++i;
  return i;
}

// A reader's common prefix as a count of entries to trust: none when it is negative.
inline std::size_t KnownCommonPrefix(OcamlInt common_prefix) {
  return common_prefix > 0 ? static_cast<std::size_t>(common_prefix) : 0;
}

}  // namespace mpo::memtrace
