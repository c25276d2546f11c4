// The on-disk layout of OCaml 5's runtime events file (`<pid>.events`, file version 1).
//
//   +-------------------------------------------------------------+  offset 0
//   | metadata header: eight little-endian u64 words (64 bytes)    |
//   +-------------------------------------------------------------+  headers_offset
//   | one ring header per possible domain (80 bytes each):         |
//   |   head, tail, then 8 padding words so that two domains'      |
//   |   head/tail never share a cache line                         |
//   +-------------------------------------------------------------+  data_offset
//   | one ring per possible domain: ring_size_elements u64 words   |
//   +-------------------------------------------------------------+  custom_events_offset
//   | 8192 user-event name slots of 128 bytes (NUL-padded)         |
//   +-------------------------------------------------------------+
//
// head and tail are word counters that only grow; a position p lives at word
// p & (ring_size_elements - 1). Events are [tail - head) words and never straddle the
// end of the ring: a padding event fills the gap instead.
//
// Event header word (bit 63 on the left):
//
//   | 63 ........ 54 | 53   | 52 .. 49 | 48 ......... 36 | 35 ...... 0 |
//   | length (10)    | user | type (4) | id (13)         | unused (0)  |
//
// length counts every word of the event: header, timestamp and payload. A runtime
// event of type 0 (EV_INTERNAL) and id 0 is padding: skipped, never counted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpo::ring {

inline constexpr std::uint64_t kFileVersion = 1;
inline constexpr std::uint64_t kMetadataHeaderBytes = 64;
inline constexpr std::uint64_t kRingHeaderBytes = 80;
inline constexpr std::uint64_t kMaxUserEvents = 1u << 13;    // name slots
inline constexpr std::uint64_t kUserEventNameBytes = 128;    // per slot, with NUL
inline constexpr std::uint64_t kMaxMessageWords = 1u << 10;  // OCaml's buffer bound
inline constexpr std::uint64_t kMaxDomainsLimit = 4096;      // OCaml's Max_domains_max
inline constexpr std::uint64_t kDefaultMaxDomains = 128;
inline constexpr unsigned kDefaultRingLog2Words = 16;
inline constexpr std::size_t kAllocBuckets = 20;  // 10 single sizes, 9 decades, 1 "more"
inline constexpr std::size_t kMaxCustomPayloadBytes = 1024;
// The words of the longest custom payload: its bytes, padding and the pad-count byte.
inline constexpr std::size_t kMaxCustomPayloadWords = kMaxCustomPayloadBytes / 8 + 1;

// Word indices of the metadata header fields.
enum MetadataWord : std::size_t {
  kVersionWord = 0,
  kMaxDomainsWord = 1,
  kRingHeaderSizeWord = 2,
  kRingSizeBytesWord = 3,
  kRingSizeElementsWord = 4,
  kHeadersOffsetWord = 5,
  kDataOffsetWord = 6,
  kCustomEventsOffsetWord = 7,
};

// Word indices inside a ring header.
inline constexpr std::size_t kRingHeadWord = 0;
inline constexpr std::size_t kRingTailWord = 1;

struct MetadataHeader {
  std::uint64_t version;
  std::uint64_t max_domains;
  std::uint64_t ring_header_size_bytes;
  std::uint64_t ring_size_bytes;
  std::uint64_t ring_size_elements;
  std::uint64_t headers_offset;
  std::uint64_t data_offset;
  std::uint64_t custom_events_offset;
};
static_assert(sizeof(MetadataHeader) == kMetadataHeaderBytes);
static_assert(offsetof(MetadataHeader, custom_events_offset) == 8 * kCustomEventsOffsetWord);

// Where everything lives in a file written with the given geometry (what OCaml writes).
struct FileGeometry {
  std::uint64_t max_domains = kDefaultMaxDomains;
  std::uint64_t ring_words = std::uint64_t{1} << kDefaultRingLog2Words;

  constexpr std::uint64_t HeadersOffset() const { return kMetadataHeaderBytes; }
  constexpr std::uint64_t DataOffset() const {
    return HeadersOffset() + max_domains * kRingHeaderBytes;
  }
  constexpr std::uint64_t CustomEventsOffset() const {
    return DataOffset() + max_domains * ring_words * 8;
  }
  constexpr std::uint64_t FileSize() const {
    return CustomEventsOffset() + kMaxUserEvents * kUserEventNameBytes;
  }
  constexpr MetadataHeader Header() const {
    return MetadataHeader{kFileVersion, max_domains,     kRingHeaderBytes, ring_words * 8,
                          ring_words,   HeadersOffset(), DataOffset(),     CustomEventsOffset()};
  }
};
// The files in testdata: 2 domains, 2^16 words.
static_assert(FileGeometry{2, 1u << 16}.FileSize() == 2097376);
static_assert(FileGeometry{2, 1u << 16}.CustomEventsOffset() == 1048800);

// Runtime event types (ev_runtime_message_type).
enum class RuntimeType : std::uint8_t {
  kInternal = 0,  // padding
  kLifecycle = 1,
  kBegin = 2,
  kExit = 3,
  kCounter = 4,
  kAlloc = 5,
  kFlush = 6,
};

// User event types as stored in the ring (ev_user_message_type).
enum class UserType : std::uint8_t {
  kUnit = 0,
  kInt = 1,
  kSpanBegin = 2,
  kSpanEnd = 3,
  kCustom = 4,
};

enum class Lifecycle : std::uint8_t {
  kRingStart = 0,
  kRingStop = 1,
  kRingPause = 2,
  kRingResume = 3,
  kForkParent = 4,
  kForkChild = 5,
  kDomainSpawn = 6,
  kDomainTerminate = 7,
};

// Header word codec; the masks follow the table at the top of this file.
namespace header {
inline constexpr unsigned kLengthShift = 54;
inline constexpr unsigned kUserShift = 53;
inline constexpr unsigned kTypeShift = 49;
inline constexpr unsigned kIdShift = 36;
inline constexpr std::uint64_t kLengthMask = (std::uint64_t{1} << 10) - 1;
inline constexpr std::uint64_t kTypeMask = (std::uint64_t{1} << 4) - 1;
inline constexpr std::uint64_t kIdMask = (std::uint64_t{1} << 13) - 1;
inline constexpr std::uint64_t kMaxLength = kLengthMask;  // words, header included
static_assert(((kLengthMask << kLengthShift) & (std::uint64_t{1} << kUserShift)) == 0);
static_assert(((kTypeMask << kTypeShift) & (kIdMask << kIdShift)) == 0);
static_assert(kIdMask + 1 == kMaxUserEvents);

constexpr std::uint64_t Length(std::uint64_t h) { return (h >> kLengthShift) & kLengthMask; }
constexpr bool IsUser(std::uint64_t h) { return (h >> kUserShift) & 1; }
constexpr unsigned Type(std::uint64_t h) { return (h >> kTypeShift) & kTypeMask; }
constexpr unsigned Id(std::uint64_t h) { return (h >> kIdShift) & kIdMask; }
constexpr std::uint64_t Make(std::uint64_t length, bool user, unsigned type, unsigned id) {
  return ((length & kLengthMask) << kLengthShift) | (std::uint64_t{user} << kUserShift) |
         ((type & kTypeMask) << kTypeShift) | ((id & kIdMask) << kIdShift);
}
constexpr std::uint64_t Padding(std::uint64_t length) { return Make(length, false, 0, 0); }
constexpr bool IsPadding(std::uint64_t h) { return !IsUser(h) && Type(h) == 0; }
// What read_poll counts (and max_events limits): OCaml tests the type field only, so
// user unit events (user type 0) are delivered but never counted. Kept for fidelity.
constexpr bool IsCounted(std::uint64_t h) { return Type(h) != 0; }
static_assert(Make(3, false, 1, 0) == 0xc2000000000000);  // ring_start in testdata/ring
static_assert(Make(3, true, 1, 1) == 0xe2001000000000);   // user int, id 1
}  // namespace header

// The 20-bucket histogram of major-heap allocation sizes: sizes 0..9 one bucket each,
// 10..99 one per decade, everything larger in the last bucket.
constexpr std::size_t AllocBucket(std::uint64_t size_words) {
  if (size_words < 10) return static_cast<std::size_t>(size_words);
  if (size_words - 10 < 90) return static_cast<std::size_t>(size_words / 10 + 9);
  return kAllocBuckets - 1;
}
static_assert(AllocBucket(9) == 9 && AllocBucket(10) == 10 && AllocBucket(99) == 18);
static_assert(AllocBucket(100) == 19);

}  // namespace mpo::ring
