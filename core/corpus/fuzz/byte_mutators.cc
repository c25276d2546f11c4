// The format-blind mutators (and the helpers every mutator shares).
#include <algorithm>
#include <cstdio>
#include <limits>

#include "core/corpus/fuzz/mutators.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/fuzz/ring_walk.h"

namespace mpo::corpus::fuzz {

std::string Hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t InterestingValue(FuzzRng& rng, std::uint64_t current, std::size_t width) {
  const std::uint64_t all = width >= 8 ? std::numeric_limits<std::uint64_t>::max()
                                       : (std::uint64_t{1} << (8 * width)) - 1;
  const std::uint64_t sign = (all >> 1) + 1;
  std::uint64_t v = 0;
  switch (rng.Below(12)) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = all; break;       // -1
    case 3: v = sign - 1; break;  // the largest positive
    case 4: v = sign; break;      // the most negative
    case 5: v = current + 1; break;
    case 6: v = current - 1; break;
    case 7: v = current + 8; break;
    case 8: v = current - 8; break;
    case 9: v = current * 2; break;
    case 10: v = current / 2; break;
    default: v = rng.Next(); break;
  }
  return v & all;
}

std::size_t PickOffset(MutationContext& c) {
  if (c.format == FuzzFormat::kRing && !c.rng.Chance(1, 10)) {
    const RingMap map = MapRing(c.bytes);
    if (!map.hot.empty()) {
      const ByteRange r = map.hot[c.rng.Index(map.hot.size())];
      return r.begin + c.rng.Index(r.end - r.begin);
    }
  }
  return c.rng.Index(c.bytes.size());
}

bool FlipBits(MutationContext& c) {
  if (c.bytes.empty()) return false;
  const std::size_t at = PickOffset(c);
  const auto mask = static_cast<std::uint8_t>(1u << c.rng.Below(8));
  c.bytes[at] ^= mask;
  c.note = "@" + Hex(at) + " ^" + Hex(mask);
  return true;
}

bool SetByte(MutationContext& c) {
  static constexpr std::uint8_t kValues[] = {0, 1, 0x7f, 0x80, 0xfc, 0xfd, 0xfe, 0xff};
  if (c.bytes.empty()) return false;
  const std::size_t at = PickOffset(c);
  c.bytes[at] = kValues[c.rng.Index(std::size(kValues))];
  c.note = "@" + Hex(at) + " := " + Hex(c.bytes[at]);
  return true;
}

bool Truncate(MutationContext& c) {
  if (c.bytes.empty()) return false;
  std::size_t keep = c.rng.Index(c.bytes.size());
  if (c.format == FuzzFormat::kMemtrace && c.rng.Chance(2, 3)) {
    // Near a packet boundary, where readers decide between "truncated" and "done".
    const auto packets = WalkPackets(c.bytes);
    if (!packets.empty()) {
      const PacketSpan& p = packets[c.rng.Index(packets.size())];
      const std::size_t k = c.rng.Between(1, 80);
      keep = c.rng.Chance(1, 2) ? p.end - std::min(k, p.end - p.begin) : p.begin + k;
      keep = std::min(keep, c.bytes.size() - 1);
    }
  } else if (c.format == FuzzFormat::kRing && c.rng.Chance(1, 2)) {
    keep = PickOffset(c);
  }
  c.note = "@" + Hex(keep);
  c.bytes.resize(keep);
  return true;
}

bool DuplicateChunk(MutationContext& c) {
  if (c.bytes.size() < 2) return false;
  const std::size_t from = PickOffset(c);
  const std::size_t len =
      std::min<std::size_t>(c.rng.Between(1, c.rng.Chance(1, 2) ? 16 : 512), c.bytes.size() - from);
  const std::vector<std::uint8_t> chunk(c.bytes.begin() + static_cast<std::ptrdiff_t>(from),
                                        c.bytes.begin() + static_cast<std::ptrdiff_t>(from + len));
  if (c.format == FuzzFormat::kRing) {
    // A ring's layout is fixed by its size: copy over, never insert.
    const std::size_t to = std::min(PickOffset(c), c.bytes.size() - len);
    std::copy(chunk.begin(), chunk.end(), c.bytes.begin() + static_cast<std::ptrdiff_t>(to));
    c.note = Hex(from) + "+" + std::to_string(len) + " over " + Hex(to);
    return true;
  }
  if (c.bytes.size() + len > c.max_size) return false;
  const std::size_t to = c.rng.Chance(1, 2) ? from + len : c.rng.Index(c.bytes.size() + 1);
  c.bytes.insert(c.bytes.begin() + static_cast<std::ptrdiff_t>(to), chunk.begin(), chunk.end());
  c.note = Hex(from) + "+" + std::to_string(len) + " at " + Hex(to);
  return true;
}

bool Splice(MutationContext& c) {
  if (c.seeds.empty()) return false;
  const std::size_t other = c.rng.Index(c.seeds.size());
  const std::vector<std::uint8_t>& b = c.seeds[other].bytes;
  if (b.empty()) return false;
  std::size_t cut_a = c.rng.Index(c.bytes.size() + 1), cut_b = 0;
  if (c.format == FuzzFormat::kMemtrace) {
    // Whole packets of each, most of the time: a trace that changes stream mid-file.
    const auto pa = WalkPackets(c.bytes), pb = WalkPackets(b);
    cut_b = c.rng.Index(b.size() + 1);
    if (!pa.empty() && !pb.empty() && c.rng.Chance(3, 4)) {
      cut_a = pa[c.rng.Index(pa.size())].end;
      cut_b = pb[c.rng.Index(pb.size())].begin;
    }
  } else {
    cut_b = std::min(cut_a, b.size());  // the same place in both layouts
  }
  if (cut_a + (b.size() - cut_b) > c.max_size) return false;
  c.bytes.resize(cut_a);
  c.bytes.insert(c.bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(cut_b), b.end());
  c.note = "..@" + Hex(cut_a) + " + " + c.seeds[other].name + "@" + Hex(cut_b) + "..";
  return true;
}

}  // namespace mpo::corpus::fuzz
