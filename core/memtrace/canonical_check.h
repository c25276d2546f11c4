// Whether a trace is byte for byte what TraceWriter writes for the events in it: its
// trace-info packet, every event, every packet boundary and header, and every location
// packet the same as `memtrace copy` at the trace's own format version would write them.
// Such a trace is its own copy, so CopyTrace writes its bytes instead of encoding them
// again (trace_copy.h).
//
// 1. Scope: format v2 or v3, one stream (every event in the trace info's domain: what
//    memtrace writes for a single-domain program). Anything else answers "no", as do a
//    read error and a reader warning; the caller then copies in full, which reports them.
// 2. Exactness: "yes" means equal bytes, never "probably". Each choice the writer makes
//    is made again with the writer's own rules and compared with the trace. The reader
//    checks each event (ReaderOptions::check_canonical: fields, backtrace codewords,
//    packets of events or of locations only); this checks the rest, which
//    writer_rules.h decides: where each packet ends, the headers (times, object ids, the
//    cache verifier sequence), the trace-info packet and the location packets, compared
//    byte for byte with what the writer would write.
// 3. Cost: a few comparisons per event on top of reading it; per packet, its header
//    and its location packets written into a scratch buffer and compared.
// Threading: one thread at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/writer_rules.h"

namespace mpo::memtrace {

class CanonicalCheck {
 public:
  // `reader` was opened with ReaderOptions::check_canonical on `source` and has read
  // nothing past the trace info; both outlive this.
  CanonicalCheck(const TraceReader& reader, ByteSource& source);

  // The trace-info packet; first.
  bool Start();
  // The event `reader.NextEvent()` has just returned.
  bool OnEvent(const Event& ev) {
    if (reader_.packet_offset() != packet_off_) [[unlikely]]
      return FirstOfPacket(ev);
    // Not the first of its packet: the writer did not start a new one before it.
    if (StartsNewPacket(kMaxPacketSize - (reader_.event_offset() - packet_off_), pending_.size(),
                        ev.time, time_start_, ids_.Spent(version_)))
      return false;
    return Put(ev);
  }
  // Once NextEvent has returned nullptr: the writer's final flush, and the end of the file.
  bool Finish();

 private:
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};

  bool Put(const Event& ev) {
    time_end_ = ev.time;
    if (ev.kind != EventKind::kAlloc) return true;
    ids_.next = OcamlAdd(ids_.next, 1);
    return reader_.event_misses().empty() || AddMisses();
  }
  bool FirstOfPacket(const Event& ev);
  bool AddMisses();
  // TraceWriter::FlushAt: the location packets from flush_from_ on, then the event
  // packet's header; a new packet starts at `now`.
  bool Flush(std::int64_t now);
  bool SameBytes(std::uint64_t off, std::span<const std::uint8_t> want);

  const TraceReader& reader_;
  ByteSource& source_;
  const int version_;
  const std::uint16_t domain_;
  const std::int64_t pid_;

  // The writer's state for the stream (TraceWriter::DomainWriter and the ids).
  LocationWriter locations_;
  std::vector<PendingLocation> pending_;
  std::int64_t time_start_ = 0;
  std::int64_t time_end_ = 0;
  PacketIds ids_;
  OcamlInt global_ids_ = 0;
  std::uint16_t verifier_ix_ = kDummyVerifierIndex;  // of the packet being filled
  std::uint16_t next_verifier_ix_ = kVerifierFirstIndex;

  // Where the packet being filled lies in the trace (kUnknown until its first event),
  // its size and the cache slot its verifier names (read there), and where the bytes of
  // its flush begin (the end of the previous event packet).
  std::uint64_t packet_off_ = kUnknown;
  std::uint64_t packet_size_ = 0;
  CacheVerifier packet_slot_;
  std::uint64_t flush_from_ = 0;
  bool events_seen_ = false;

  ByteWriter scratch_;
  std::vector<std::uint8_t> compare_;
};

}  // namespace mpo::memtrace
