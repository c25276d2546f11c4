// Where the live parts of a runtime events ring file are (core/ring/layout.h), read from
// its own metadata header with every value range-checked, so that the ring-aware
// mutators can aim at the words a consumer reads (the metadata header, each domain's
// head/tail, the event header words between head and tail) instead of the 1 MiB of
// user-event name slots. Never reads out of bounds, whatever the file holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mpo::corpus::fuzz {

struct ByteRange {
  std::size_t begin = 0, end = 0;  // [begin, end)
};

struct RingDomain {
  std::size_t head_at = 0, tail_at = 0;  // byte offsets of the head and tail words
  std::uint64_t head = 0, tail = 0;
  std::vector<std::size_t> events;  // byte offsets of event header words, head to tail
};

struct RingMap {
  std::vector<ByteRange> hot;       // metadata, ring headers in use, data between head and tail
  std::vector<RingDomain> domains;  // domains whose head and tail words lie in the file
};

// At most this many domains and events per domain are mapped (a hostile max_domains or
// tail costs nothing).
inline constexpr std::size_t kMaxMappedDomains = 16;
inline constexpr std::size_t kMaxMappedEvents = 4096;

RingMap MapRing(std::span<const std::uint8_t> file);

}  // namespace mpo::corpus::fuzz
