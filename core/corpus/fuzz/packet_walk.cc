#include "core/corpus/fuzz/packet_walk.h"

#include "core/memtrace/packet_header.h"

namespace mpo::corpus::fuzz {

std::uint64_t LoadLe(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width) {
  if (width > 8 || at > bytes.size() || bytes.size() - at < width) return 0;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= std::uint64_t{bytes[at + i]} << (8 * i);
  return v;
}

void StoreLe(std::span<std::uint8_t> bytes, std::size_t at, std::size_t width, std::uint64_t v) {
  if (width > 8 || at > bytes.size() || bytes.size() - at < width) return;
  for (std::size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::vector<PacketSpan> WalkPackets(std::span<const std::uint8_t> trace) {
  namespace off = memtrace::header_offset;
  std::vector<PacketSpan> packets;
  std::size_t at = 0;
  while (trace.size() - at >= memtrace::kHeaderSizeV2) {
    if (LoadLe(trace, at + off::kMagic, 4) != memtrace::kCtfMagic) break;
    const std::uint64_t bytes = LoadLe(trace, at + off::kPacketSize, 4) / 8;
    if (bytes < memtrace::kHeaderSizeV2 || bytes > trace.size() - at) break;
    const auto version = static_cast<int>(LoadLe(trace, at + off::kVersion, 2));
    packets.push_back({at, at + static_cast<std::size_t>(bytes), version});
    at += static_cast<std::size_t>(bytes);
  }
  return packets;
}

}  // namespace mpo::corpus::fuzz
