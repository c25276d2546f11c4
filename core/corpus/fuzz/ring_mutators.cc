// Mutators that know the runtime events ring layout (core/ring/layout.h).
#include "core/corpus/fuzz/mutators.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/fuzz/ring_walk.h"
#include "core/ring/layout.h"

namespace mpo::corpus::fuzz {
namespace {

constexpr const char* kMetadataNames[] = {
    "version",        "max_domains", "ring_header_size_bytes", "ring_size_bytes", "ring_size_words",
    "headers_offset", "data_offset", "custom_events_offset"};
static_assert(std::size(kMetadataNames) * 8 == ring::kMetadataHeaderBytes);

}  // namespace

bool RingMetadata(MutationContext& c) {
  const std::size_t w = c.rng.Index(std::size(kMetadataNames));
  const std::size_t at = 8 * w;
  if (c.bytes.size() < at + 8) return false;
  const std::uint64_t current = LoadLe(c.bytes, at, 8);
  std::uint64_t v = 0;
  switch (c.rng.Below(4)) {
    case 0: v = current + c.rng.Between(1, 7); break;     // unaligned, not a power of two
    case 1: v = c.bytes.size() - c.rng.Below(16); break;  // at the end of the file
    default: v = InterestingValue(c.rng, current, 8); break;
  }
  StoreLe(c.bytes, at, 8, v);
  c.note = std::string(kMetadataNames[w]) + " := " + Hex(v);
  return true;
}

bool RingHeadTail(MutationContext& c) {
  const RingMap map = MapRing(c.bytes);
  if (map.domains.empty()) return false;
  const RingDomain& d = map.domains[c.rng.Index(map.domains.size())];
  const bool tail = c.rng.Chance(1, 2);
  const std::uint64_t ring_words = LoadLe(c.bytes, 8 * ring::kRingSizeElementsWord, 8);
  std::uint64_t v = 0;
  switch (c.rng.Below(6)) {
    case 0: v = tail ? d.head : d.tail; break;                 // an empty or a full ring
    case 1: v = (tail ? d.tail : d.head) + ring_words; break;  // one lap on
    case 2: v = tail ? d.head - 1 : d.tail + 1; break;         // head past tail
    case 3: v = (std::uint64_t{1} << 63) - c.rng.Below(4); break;
    default: v = InterestingValue(c.rng, tail ? d.tail : d.head, 8); break;
  }
  StoreLe(c.bytes, tail ? d.tail_at : d.head_at, 8, v);
  c.note = std::string(tail ? "tail" : "head") + "@" + Hex(tail ? d.tail_at : d.head_at) +
           " := " + Hex(v);
  return true;
}

bool RingEvent(MutationContext& c) {
  const RingMap map = MapRing(c.bytes);
  std::size_t with_events = 0;
  for (const RingDomain& d : map.domains) with_events += d.events.empty() ? 0 : 1;
  if (with_events == 0) return false;
  std::size_t pick = c.rng.Index(with_events);
  const RingDomain* dom = nullptr;
  for (const RingDomain& d : map.domains) {
    if (d.events.empty()) continue;
    if (pick-- == 0) {
      dom = &d;
      break;
    }
  }
  if (dom == nullptr) return false;
  const std::size_t at = dom->events[c.rng.Index(dom->events.size())];
  const std::uint64_t h = LoadLe(c.bytes, at, 8);
  namespace hd = ring::header;
  std::uint64_t len = hd::Length(h), type = hd::Type(h), id = hd::Id(h);
  bool user = hd::IsUser(h);
  std::string what;
  switch (c.rng.Below(5)) {
    case 0: {
      static constexpr std::uint64_t kLengths[] = {0, 1, 2, 3, hd::kMaxLength};
      len = c.rng.Chance(1, 2) ? kLengths[c.rng.Index(std::size(kLengths))]
                               : (len + c.rng.Between(1, 3)) & hd::kLengthMask;
      what = "length := " + std::to_string(len);
      break;
    }
    case 1:
      type = c.rng.Below(hd::kTypeMask + 1);
      what = "type := " + std::to_string(type);
      break;
    case 2:
      id = c.rng.Chance(1, 2) ? c.rng.Below(64) : c.rng.Below(hd::kIdMask + 1);
      what = "id := " + std::to_string(id);
      break;
    case 3:
      user = !user;
      what = user ? "user := 1" : "user := 0";
      break;
    default:
      type = 0;
      user = false;
      id = 0;
      what = "padding";
      break;
  }
  const std::uint64_t nh =
      hd::Make(len, user, static_cast<unsigned>(type), static_cast<unsigned>(id)) |
      (h & ((std::uint64_t{1} << hd::kIdShift) - 1));
  StoreLe(c.bytes, at, 8, nh);
  c.note = "@" + Hex(at) + " " + what;
  return true;
}

}  // namespace mpo::corpus::fuzz
