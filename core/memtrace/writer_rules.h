// The choices TraceWriter makes about a stream's bytes, in one place: the writer makes
// them, and CanonicalCheck (the identity copy, canonical_check.h) recognises a trace
// that made exactly the same ones.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/packet_header.h"

namespace mpo::memtrace {

// Upper bound on an event's fixed-size part plus its backtrace or location body.
inline constexpr std::size_t kMaxEventSize = 100 + kMaxBacktraceLength;
static_assert(kMaxBacktraceLength >= kMaxLocationLength);
inline constexpr std::size_t kMaxPendingLocations = 128;

// Whether an event at `now` ends the packet being filled (which started at
// `packet_start` <= now) and goes into a new one: the packet has less room than a
// maximal event, too many locations wait for it, the event is over 30 s after the
// packet's start, or (v3) the stream's chunk of object ids is spent.
inline bool StartsNewPacket(std::size_t packet_remaining, std::size_t pending_locations,
                            std::int64_t now, std::int64_t packet_start, bool ids_spent) {
  return packet_remaining < kMaxEventSize || pending_locations > kMaxPendingLocations ||
         // now >= packet_start, so the unsigned difference is exact even for a gap of
         // 2^63 us or more (a signed one would turn negative: no new packet, and the
         // event's 25-bit time would wrap).
         static_cast<std::uint64_t>(now) - static_cast<std::uint64_t>(packet_start) >
             static_cast<std::uint64_t>(kPacketMaxTime) ||
         ids_spent;
}

// The object ids of the packet a stream is filling. v2 counts them on; v3 takes them in
// chunks from a counter shared by every domain, a new chunk when a packet starts with
// the last one spent.
struct PacketIds {
  OcamlInt start = 0;  // the packet's first id
  OcamlInt next = 0;   // the next alloc's
  OcamlInt last = 0;   // the end of the current chunk (v3)

  bool Spent(int version) const { return HasDomainStreams(version) && !(next < last); }
  // A new packet, its chunk (v3) taken from `*global` in steps of `chunk` when needed.
  void StartPacket(int version, OcamlInt* global, OcamlInt chunk) {
    if (Spent(version)) {
      next = *global;
      *global = OcamlAdd(*global, chunk);
      last = OcamlAdd(next, chunk);
    }
    start = next;
  }
};

// Whether an allocation takes the short form (codes 101..116): minor, one sample, 1..16
// words, and fewer than 256 backtrace entries after the common prefix.
constexpr bool UsesShortAlloc(OcamlInt length, OcamlInt nsamples, AllocationSource source,
                              std::size_t new_entries) {
  return 1 <= length && length <= kShortAllocMaxLength && source == AllocationSource::kMinor &&
         nsamples == 1 && new_entries < 256;
}

// The trace-info packet (the first packet of every trace), into `b` (reset first).
Status WriteInfoPacket(ByteWriter& b, const Info& info, int version, std::int64_t pid);

// A location the next flush writes: its code and frames (owned elsewhere).
using PendingLocation = std::pair<OcamlInt, const std::vector<Location>*>;

// The location packets written before an event packet of `domain` that starts at `time`
// with object id `id`: each filled while more than a maximal location body fits, every
// location in order. `emit(bytes)` gets each packet and returns a Status; the first
// failure stops. `b` is scratch (kMaxPacketSize), `locations` the stream's MTF state.
template <class Emit>
Status WriteLocationPackets(ByteWriter& b, LocationWriter& locations, int version, std::int64_t pid,
                            std::uint16_t domain, std::int64_t time, OcamlInt id,
                            std::span<const PendingLocation> pending, Emit&& emit) {
  std::size_t i = 0;
  while (i < pending.size()) {
    b.Reset();
    const PacketHeaderSlots h = WritePacketHeader(b, version, pid, domain, CacheVerifier{});
    while (i < pending.size() && b.remaining() > kMaxLocationLength) {
      WriteEventHeader(b, static_cast<unsigned>(EventCode::kLocation), time);
      locations.Put(b, pending[i].first, *pending[i].second);
      ++i;
    }
    FinishPacketHeader(b, h, time, time, id, id);
    if (!b.ok()) return b.status();
    MPO_RETURN_IF_ERROR(emit(b.bytes()));
  }
  return Status::Ok();
}

}  // namespace mpo::memtrace
