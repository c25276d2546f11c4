// The packets of a memtrace trace as byte ranges, found by walking the headers' magic and
// packet_size fields (core/memtrace/packet_header.h) without decoding anything else. The
// packet-aware mutators edit whole packets and header fields through this walk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mpo::corpus::fuzz {

struct PacketSpan {
  std::size_t begin = 0, end = 0;  // [begin, end) in the trace; end <= trace size
  int version = 0;                 // the header's version field as read (any value)
};

// Every whole packet from the start: the walk stops at the first position that has no
// magic, a size below the v2 header or a size past the end; what follows is not a packet.
// Never reads out of bounds.
std::vector<PacketSpan> WalkPackets(std::span<const std::uint8_t> trace);

// Little-endian field access within bounds: Load returns 0 and Store does nothing where
// [at, at + width) does not fit. width is 1, 2, 4 or 8.
std::uint64_t LoadLe(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width);
void StoreLe(std::span<std::uint8_t> bytes, std::size_t at, std::size_t width, std::uint64_t v);

}  // namespace mpo::corpus::fuzz
