#include "core/io/input_format.h"

#include <cstring>

namespace mpo::io {
namespace {

// Little-endian on disk, like both formats (the project builds for little-endian hosts).
std::uint64_t Word(std::span<const std::uint8_t> head, std::size_t index) {
  std::uint64_t w;
  std::memcpy(&w, head.data() + 8 * index, sizeof w);
  return w;
}

constexpr std::uint32_t kCtfMagic = 0xc1fc1fc1;  // first field of every memtrace packet

}  // namespace

InputFormat SniffFormat(std::span<const std::uint8_t> head) {
  if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b) return InputFormat::kGzip;
  if (head.size() >= 4) {
    std::uint32_t magic;
    std::memcpy(&magic, head.data(), sizeof magic);
    if (magic == kCtfMagic) return InputFormat::kMemtraceTrace;
  }
  if (head.size() >= kSniffBytes) {
    // Words of the ring's metadata header: version, max_domains, ring_header_size_bytes,
    // ring_size_bytes, ring_size_elements, headers_offset.
    const std::uint64_t elements = Word(head, 4);
    if (Word(head, 0) == 1 && Word(head, 1) != 0 && Word(head, 2) % 8 == 0 && Word(head, 2) >= 16 &&
        elements != 0 && (elements & (elements - 1)) == 0 && Word(head, 3) == 8 * elements &&
        Word(head, 5) == kSniffBytes) {
      return InputFormat::kRuntimeEventsRing;
    }
  }
  return InputFormat::kUnknown;
}

}  // namespace mpo::io
