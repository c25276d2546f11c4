// Mutators that know memtrace's packet structure (core/memtrace/packet_header.h).
#include <algorithm>

#include "core/corpus/fuzz/mutators.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/memtrace/packet_header.h"

namespace mpo::corpus::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes Slice(const Bytes& b, const PacketSpan& p) {
  return {b.begin() + static_cast<std::ptrdiff_t>(p.begin),
          b.begin() + static_cast<std::ptrdiff_t>(p.end)};
}

struct HeaderFieldInfo {
  const char* name;
  std::size_t offset;  // v2 position (header_offset)
  std::size_t width;
  bool after_domain;  // moves by DomainShift in a v3 header
};

constexpr HeaderFieldInfo kHeaderFields[] = {
    {"magic", memtrace::header_offset::kMagic, 4, false},
    {"packet_size", memtrace::header_offset::kPacketSize, 4, false},
    {"time_begin", memtrace::header_offset::kTimeBegin, 8, false},
    {"time_end", memtrace::header_offset::kTimeEnd, 8, false},
    {"flush_duration", memtrace::header_offset::kFlushDuration, 4, false},
    {"version", memtrace::header_offset::kVersion, 2, false},
    {"pid", memtrace::header_offset::kPid, 8, false},
    {"verifier_ix", memtrace::header_offset::kVerifierIxV2, 2, true},
    {"verifier_pred", memtrace::header_offset::kVerifierPredV2, 2, true},
    {"verifier_value", memtrace::header_offset::kVerifierValueV2, 8, true},
    {"alloc_id_begin", memtrace::header_offset::kAllocIdBeginV2, 8, true},
    {"alloc_id_end", memtrace::header_offset::kAllocIdEndV2, 8, true},
};

// Values the packet_size field invites: below and at the header size, one byte off the
// packet's own size, past the end of the file, beyond 32 KiB, and the int32 sign.
std::uint64_t PacketSizeValue(FuzzRng& rng, const PacketSpan& p, std::size_t file_size) {
  const std::uint64_t bits = 8 * std::uint64_t{p.end - p.begin};
  switch (rng.Below(8)) {
    case 0: return 8 * rng.Below(memtrace::kHeaderSizeV3 + 1);
    case 1: return 8 * memtrace::PacketHeaderSize(p.version);
    case 2: return bits - 8 * rng.Between(1, 16);
    case 3: return bits + 8 * rng.Between(1, 16);
    case 4: return 8 * (file_size - p.begin + rng.Between(1, 70000));
    case 5: return 8 * (memtrace::kMaxPacketSize + rng.Below(2));
    case 6: return bits + rng.Between(1, 7);  // not a whole number of bytes
    default: return InterestingValue(rng, bits, 4);
  }
}

}  // namespace

bool PacketDrop(MutationContext& c) {
  const auto packets = WalkPackets(c.bytes);
  if (packets.empty()) return false;
  const std::size_t k = c.rng.Index(packets.size());
  c.bytes.erase(c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[k].begin),
                c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[k].end));
  c.note = "#" + std::to_string(k);
  return true;
}

bool PacketSwap(MutationContext& c) {
  const auto packets = WalkPackets(c.bytes);
  if (packets.size() < 2) return false;
  std::size_t i = c.rng.Index(packets.size() - 1);
  std::size_t j = c.rng.Chance(1, 2) ? i + 1 : c.rng.Index(packets.size());
  if (i == j) j = i + 1;
  if (i > j) std::swap(i, j);
  const Bytes a = Slice(c.bytes, packets[i]), b = Slice(c.bytes, packets[j]);
  const Bytes between(c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[i].end),
                      c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[j].begin));
  Bytes out(c.bytes.begin(), c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[i].begin));
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), between.begin(), between.end());
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), c.bytes.begin() + static_cast<std::ptrdiff_t>(packets[j].end),
             c.bytes.end());
  c.bytes = std::move(out);
  c.note = "#" + std::to_string(i) + " <-> #" + std::to_string(j);
  return true;
}

bool PacketDuplicate(MutationContext& c) {
  const auto packets = WalkPackets(c.bytes);
  if (packets.empty()) return false;
  const std::size_t k = c.rng.Index(packets.size());
  const Bytes p = Slice(c.bytes, packets[k]);
  if (c.bytes.size() + p.size() > c.max_size) return false;
  // Right after itself (a replayed packet) or before another packet.
  const std::size_t to_packet = c.rng.Chance(1, 2) ? k : c.rng.Index(packets.size());
  const std::size_t to = packets[to_packet].end;
  c.bytes.insert(c.bytes.begin() + static_cast<std::ptrdiff_t>(to), p.begin(), p.end());
  c.note = "#" + std::to_string(k) + " after #" + std::to_string(to_packet);
  return true;
}

bool HeaderField(MutationContext& c) {
  const auto packets = WalkPackets(c.bytes);
  if (packets.empty()) return false;
  const std::size_t k = c.rng.Index(packets.size());
  const PacketSpan& p = packets[k];
  // packet_size and the times are where readers disagree most: weigh them up.
  const std::size_t f =
      c.rng.Chance(1, 3) ? 1 + c.rng.Index(3) : c.rng.Index(std::size(kHeaderFields));
  const HeaderFieldInfo& field = kHeaderFields[f];
  const std::size_t at =
      p.begin + field.offset +
      (field.after_domain ? memtrace::DomainShift(memtrace::HasDomainStreams(p.version)) : 0);
  const std::uint64_t current = LoadLe(c.bytes, at, field.width);
  std::uint64_t v = 0;
  if (f == 1) {
    v = PacketSizeValue(c.rng, p, c.bytes.size()) & 0xffffffffu;
  } else if (f == 5) {
    v = c.rng.Chance(3, 4) ? c.rng.Below(6) : InterestingValue(c.rng, current, 2);
  } else {
    v = InterestingValue(c.rng, current, field.width);
  }
  StoreLe(c.bytes, at, field.width, v);
  c.note = "#" + std::to_string(k) + " " + field.name + " := " + Hex(v);
  return true;
}

bool VarintEdit(MutationContext& c) {
  const auto packets = WalkPackets(c.bytes);
  if (packets.empty()) return false;
  const PacketSpan& p = packets[c.rng.Index(packets.size())];
  const std::size_t header = memtrace::PacketHeaderSize(p.version);
  if (p.end - p.begin <= header) return false;
  const std::size_t at = p.begin + header + c.rng.Index(p.end - p.begin - header);
  const std::uint8_t old = c.bytes[at];
  switch (c.rng.Below(3)) {
    case 0: {
      // A tag byte: the following bytes become a 2-, 4- or 8-byte payload.
      c.bytes[at] = static_cast<std::uint8_t>(252 + c.rng.Below(4));
      c.note = "@" + Hex(at) + " tag " + std::to_string(c.bytes[at]);
      return true;
    }
    case 1: {
      // The same small value in the 3-byte form (valid, not canonical); the packet
      // grows by two bytes and its size follows.
      if (old >= 253 || c.bytes.size() + 2 > c.max_size) return false;
      const std::uint8_t widened[] = {253, old, 0};
      c.bytes[at] = widened[0];
      c.bytes.insert(c.bytes.begin() + static_cast<std::ptrdiff_t>(at) + 1, widened + 1,
                     widened + 3);
      const std::size_t size_at = p.begin + memtrace::header_offset::kPacketSize;
      StoreLe(c.bytes, size_at, 4, LoadLe(c.bytes, size_at, 4) + 16);
      c.note = "@" + Hex(at) + " widen " + std::to_string(old);
      return true;
    }
    default: {
      // A tagged payload at its boundaries.
      static constexpr std::uint64_t kEdges[] = {0,          252,        253,       0xffff,
                                                 0x7fffffff, 0x80000000, 0xffffffff};
      const std::uint8_t tag = static_cast<std::uint8_t>(253 + c.rng.Below(3));
      const std::size_t width = tag == 253 ? 2 : tag == 254 ? 4 : 8;
      if (c.bytes.size() - at - 1 < width) return false;
      const std::uint64_t v =
          c.rng.Chance(1, 4) ? ~std::uint64_t{0} : kEdges[c.rng.Index(std::size(kEdges))];
      c.bytes[at] = tag;
      StoreLe(c.bytes, at + 1, width, v);
      c.note = "@" + Hex(at) + " tag " + std::to_string(tag) + " = " + Hex(v);
      return true;
    }
  }
}

}  // namespace mpo::corpus::fuzz
