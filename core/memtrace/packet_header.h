// CTF packet headers and event headers of memtrace traces (mirrors put_ctf_header /
// get_ctf_header / put_event_header / get_event_header in memtrace's trace.ml).
//
// Packet header, little-endian; `domain` exists only from format v3:
//
//   off  size  field
//     0     4  magic 0xc1fc1fc1
//     4     4  packet_size, in BITS, header included (memtrace checks it as an int32 >= 0)
//     8     8  time_begin (us since the epoch; every event time lies in [begin, end])
//    16     8  time_end
//    24     4  flush_duration (always 0)
//    28     2  version (1, 2 or 3)
//    30     8  pid
//    38     2  domain                               (v3 only; later fields move by 2)
//  38/40    2  cache verifier ix (0xffff: dummy)
//  40/42    2  cache verifier pred
//  42/44    8  cache verifier value
//  50/52    8  alloc_id_begin
//  58/60    8  alloc_id_end
//  66/68       (header size)
//
// Event header: one u32, bits 0..24 the low 25 bits of the event time in us, bits 25..31
// the event code (0 trace info, 1 location, 2 alloc, 3 promote, 4 collect, 101..116 short
// alloc of length 1..16). A reader rebuilds the time from the packet's time_begin, adding
// 2^25 when the low bits are below time_begin's (a packet spans at most 30 s < 2^25 us).
#pragma once

#include <cstdint>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"

namespace mpo::memtrace {

inline constexpr std::uint32_t kCtfMagic = 0xc1fc1fc1;
inline constexpr int kMaxFormatVersion = 3;
inline constexpr std::size_t kHeaderSizeV2 = 66;
inline constexpr std::size_t kHeaderSizeV3 = 68;
inline constexpr std::size_t kMaxPacketSize = 1 << 15;  // what memtrace writes and reads

constexpr std::size_t PacketHeaderSize(int version) {
  return version == 3 ? kHeaderSizeV3 : kHeaderSizeV2;
}

// The stream rule. Up to format v2 (memtrace 0.2.3) a trace is one stream: packets
// carry no domain, every packet continues the previous one's backtrace cache and alloc
// ids, and a reader skips packets that do not continue it. From v3 each packet names its
// domain, each domain is its own stream (backtrace cache, last time), and alloc ids come
// in chunks stated by each packet's header.
constexpr bool HasDomainStreams(int version) { return version >= 3; }

// Byte offsets of the header fields, from the packet's start (the table above). The
// fields after `domain` are given at their v2 position; a header with the domain field
// puts each of them DomainShift(true) bytes later.
namespace header_offset {
inline constexpr std::size_t kMagic = 0;
inline constexpr std::size_t kPacketSize = 4;
inline constexpr std::size_t kTimeBegin = 8;
inline constexpr std::size_t kTimeEnd = 16;
inline constexpr std::size_t kFlushDuration = 24;
inline constexpr std::size_t kVersion = 28;
inline constexpr std::size_t kPid = 30;
inline constexpr std::size_t kDomain = 38;  // v3 only
inline constexpr std::size_t kVerifierIxV2 = 38;
inline constexpr std::size_t kVerifierPredV2 = 40;
inline constexpr std::size_t kVerifierValueV2 = 42;
inline constexpr std::size_t kAllocIdBeginV2 = 50;
inline constexpr std::size_t kAllocIdEndV2 = 58;
}  // namespace header_offset

// How far the fields after `pid` move when the header carries the 2-byte domain field
// (HasDomainStreams).
constexpr std::size_t DomainShift(bool has_domain) { return has_domain ? 2 : 0; }

// The layout pinned: each field starts where the previous one ends, and the last one
// ends at the header size of each version.
static_assert(header_offset::kPacketSize == header_offset::kMagic + 4);
static_assert(header_offset::kTimeBegin == header_offset::kPacketSize + 4);
static_assert(header_offset::kTimeEnd == header_offset::kTimeBegin + 8);
static_assert(header_offset::kFlushDuration == header_offset::kTimeEnd + 8);
static_assert(header_offset::kVersion == header_offset::kFlushDuration + 4);
static_assert(header_offset::kPid == header_offset::kVersion + 2);
static_assert(header_offset::kDomain == header_offset::kPid + 8);
static_assert(header_offset::kVerifierIxV2 == header_offset::kPid + 8);
static_assert(header_offset::kVerifierIxV2 + DomainShift(true) == header_offset::kDomain + 2);
static_assert(header_offset::kVerifierPredV2 == header_offset::kVerifierIxV2 + 2);
static_assert(header_offset::kVerifierValueV2 == header_offset::kVerifierPredV2 + 2);
static_assert(header_offset::kAllocIdBeginV2 == header_offset::kVerifierValueV2 + 8);
static_assert(header_offset::kAllocIdEndV2 == header_offset::kAllocIdBeginV2 + 8);
static_assert(header_offset::kAllocIdEndV2 + 8 == kHeaderSizeV2);
static_assert(header_offset::kAllocIdEndV2 + 8 + DomainShift(true) == kHeaderSizeV3);

struct PacketHeader {
  std::uint32_t magic = kCtfMagic;
  std::uint32_t packet_size_bits = 0;
  std::int64_t time_begin = 0;
  std::int64_t time_end = 0;
  std::uint32_t flush_duration = 0;
  std::uint16_t version = 0;
  std::int64_t pid = 0;
  std::uint16_t domain = 0;
  CacheVerifier verifier;
  std::int64_t alloc_id_begin = 0;
  std::int64_t alloc_id_end = 0;

  std::size_t header_size() const { return PacketHeaderSize(version); }
};

// Whether a packet of format `version` is read at all under `rules`: v001 to v003
// (strict), v001 and v002 (memtrace 0.2.3), v000 to v003 (memtrace HEAD, which only refuses
// versions above its own and reads v000 with the v002 layout).
bool ReadsFormatVersion(const MemtraceRules& rules, unsigned version);

// Reads a header at the cursor and applies memtrace's checks in memtrace's order (magic,
// version, size, time order, alloc id order), each failure a typed error at the field's
// offset: kCorrupt, kUnsupportedVersion (ReadsFormatVersion), kTruncated for too few bytes.
Status ReadPacketHeader(ByteReader& in, PacketHeader* h, const MemtraceRules& rules = {});

// Writes a header; `size`, times and alloc ids are patched later by FinishPacketHeader.
struct PacketHeaderSlots {
  std::size_t size, time_begin, time_end, flush_duration, alloc_begin, alloc_end;
};
PacketHeaderSlots WritePacketHeader(ByteWriter& out, int version, std::int64_t pid,
                                    std::uint16_t domain, const CacheVerifier& verifier);
void FinishPacketHeader(ByteWriter& out, const PacketHeaderSlots& slots, std::int64_t time_begin,
                        std::int64_t time_end, OcamlInt alloc_id_begin, OcamlInt alloc_id_end);

enum class EventCode : std::uint8_t {
  kTraceInfo = 0,
  kLocation = 1,
  kAlloc = 2,
  kPromote = 3,
  kCollect = 4,
  kShortAllocFirst = 101,  // 101..116: short alloc of length code - 100
  kShortAllocLast = 116,
};
inline constexpr int kEventTimeBits = 25;
inline constexpr std::uint32_t kEventTimeMask = (1u << kEventTimeBits) - 1;
inline constexpr std::int64_t kPacketMaxTime = std::int64_t{30} * 1000 * 1000;  // us
static_assert(kPacketMaxTime < (std::int64_t{1} << kEventTimeBits));

// Short allocs (minor heap, one sample, length 1..16) carry their length in the event
// code: code = 100 + length. The writer and the readers convert with these only.
inline constexpr unsigned kShortAllocCodeBase = 100;
inline constexpr int kShortAllocMaxLength = 16;
constexpr bool IsShortAllocCode(unsigned code) {
  return code >= static_cast<unsigned>(EventCode::kShortAllocFirst) &&
         code <= static_cast<unsigned>(EventCode::kShortAllocLast);
}
// Precondition: 1 <= length <= kShortAllocMaxLength.
constexpr unsigned ShortAllocCode(unsigned length) { return kShortAllocCodeBase + length; }
// Precondition: IsShortAllocCode(code).
constexpr unsigned ShortAllocLength(unsigned code) { return code - kShortAllocCodeBase; }
static_assert(ShortAllocCode(1) == static_cast<unsigned>(EventCode::kShortAllocFirst));
static_assert(ShortAllocCode(kShortAllocMaxLength) ==
              static_cast<unsigned>(EventCode::kShortAllocLast));

constexpr bool IsKnownEventCode(unsigned c) { return c <= 4 || IsShortAllocCode(c); }

inline void WriteEventHeader(ByteWriter& out, unsigned code, std::int64_t time) {
  out.U32((static_cast<std::uint32_t>(code) << kEventTimeBits) |
          (static_cast<std::uint32_t>(time) & kEventTimeMask));
}

// Reads an event header of a packet starting at `time_begin` and ending at `time_end`:
// checks, in memtrace's order, that the time lies in the packet's bounds and that the
// code is known.
struct EventHeader {
  unsigned code = 0;
  std::int64_t time = 0;
};
// Records the failure of an event header check (kept out of the hot path).
[[gnu::cold, gnu::noinline]] void FailEventHeader(ByteReader& in, std::uint64_t at,
                                                  const EventHeader& ev, std::int64_t time_begin,
                                                  std::int64_t time_end);

inline EventHeader ReadEventHeader(ByteReader& in, std::int64_t time_begin, std::int64_t time_end) {
  EventHeader ev;
  const std::uint64_t at = in.offset();
  const std::uint32_t word = in.U32("event header");
  if (!in.ok()) [[unlikely]]
    return ev;
  const std::uint32_t start_low = static_cast<std::uint32_t>(time_begin) & kEventTimeMask;
  std::uint32_t low = word & kEventTimeMask;
  if (low < start_low) low += 1u << kEventTimeBits;
  ev.time = static_cast<std::int64_t>(
      (static_cast<std::uint64_t>(time_begin) & ~std::uint64_t{kEventTimeMask}) + low);
  ev.code = word >> kEventTimeBits;
  if (!(time_begin <= ev.time && ev.time <= time_end) || !IsKnownEventCode(ev.code)) [[unlikely]]
    FailEventHeader(in, at, ev, time_begin, time_end);
  return ev;
}

}  // namespace mpo::memtrace
