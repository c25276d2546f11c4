#include "core/memtrace/canonical_check.h"

#include <cstring>
#include <span>

#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {

namespace {
const OcamlInt kIdsPerChunk = WriterOptions{}.obj_ids_per_chunk;
}  // namespace

CanonicalCheck::CanonicalCheck(const TraceReader& reader, ByteSource& source)
    : reader_(reader),
      source_(source),
      version_(reader.version()),
      domain_(reader.info().initial_domain),
      pid_(reader.info().pid),
      scratch_(kMaxPacketSize) {}

bool CanonicalCheck::Start() {
  if (version_ != 2 && version_ != 3) return false;
  const Info& info = reader_.info();
  if (!WriteInfoPacket(scratch_, info, version_, pid_).ok() || !SameBytes(0, scratch_.bytes()))
    return false;
  flush_from_ = scratch_.pos();
  time_start_ = time_end_ = info.start_time;
  // TraceWriter::WriterFor, for the first domain.
  if (HasDomainStreams(version_)) ids_.StartPacket(version_, &global_ids_, kIdsPerChunk);
  return true;
}

bool CanonicalCheck::FirstOfPacket(const Event& ev) {
  if (!reader_.canonical() || reader_.packet_header().domain != domain_) return false;
  // The writer starts a new packet before this event: the one it fills (the previous
  // event packet, or the empty first one) cannot take it. Only the first packet may
  // take its first event.
  const std::size_t pos = events_seen_ ? packet_size_ : PacketHeaderSize(version_);
  const bool fresh = StartsNewPacket(kMaxPacketSize - pos, pending_.size(), ev.time, time_start_,
                                     ids_.Spent(version_));
  if (events_seen_ && !fresh) return false;
  if (fresh && !Flush(ev.time)) return false;
  events_seen_ = true;
  packet_off_ = reader_.packet_offset();
  // A packet holds nothing but its events (the reader checks that no location event is
  // among them), so its size is theirs; the writer's never pass kMaxPacketSize.
  packet_size_ = reader_.packet_header().packet_size_bits / 8;
  if (packet_size_ > kMaxPacketSize) return false;
  packet_slot_ = reader_.packet_cache_slot();
  return Put(ev);
}

bool CanonicalCheck::AddMisses() {
  // The writer's location lookups: the same calls, so the same location budget.
  for (const OcamlInt code : reader_.event_misses()) {
    auto locs = reader_.LocationOfEntry(code, reader_.event_offset());
    if (!locs.ok()) return false;
    pending_.emplace_back(code, *locs);
  }
  return true;
}

bool CanonicalCheck::Flush(std::int64_t now) {
  std::uint64_t at = flush_from_;
  bool same = true;
  const Status s =
      WriteLocationPackets(scratch_, locations_, version_, pid_, domain_, time_start_, ids_.start,
                           pending_, [this, &at, &same](std::span<const std::uint8_t> b) {
                             same = SameBytes(at, b);
                             at += b.size();
                             return same ? Status::Ok() : Status(ErrorCode::kCorrupt, "differs");
                           });
  if (!s.ok() || !same) return false;
  if (packet_off_ == kUnknown) {
    // A packet without events: the first one, flushed before the first event (over 30 s
    // after the trace's start) or at the end of a trace without events. It lies right
    // after its location packets (none) and carries the dummy verifier.
    if (verifier_ix_ != kDummyVerifierIndex) return false;
    packet_off_ = at;
    packet_size_ = PacketHeaderSize(version_);
  }
  if (packet_off_ != at) return false;
  // The verifier: the dummy in the first event packet; then the writer's cache slot at
  // the flush, which is the reader's before the packet (canonical backtraces).
  const CacheVerifier verifier =
      verifier_ix_ == kDummyVerifierIndex
          ? CacheVerifier{}
          : CacheVerifier{verifier_ix_, packet_slot_.pred, packet_slot_.value};
  scratch_.Reset();
  const PacketHeaderSlots h = WritePacketHeader(scratch_, version_, pid_, domain_, verifier);
  FinishPacketHeader(scratch_, h, time_start_, time_end_, ids_.start, ids_.next);
  scratch_.Update32(h.size, static_cast<std::uint32_t>(packet_size_ * 8));
  if (!scratch_.ok() || !SameBytes(packet_off_, scratch_.bytes())) return false;
  flush_from_ = packet_off_ + packet_size_;
  time_start_ = time_end_ = now;
  pending_.clear();
  ids_.StartPacket(version_, &global_ids_, kIdsPerChunk);
  verifier_ix_ = next_verifier_ix_;
  next_verifier_ix_ = NextVerifierIndex(next_verifier_ix_);
  packet_off_ = kUnknown;
  return true;
}

bool CanonicalCheck::Finish() {
  if (!reader_.canonical() || !reader_.status().ok() || !reader_.warnings().empty()) return false;
  // TraceWriter::Flush, and nothing after it.
  return Flush(time_end_) && flush_from_ == source_.size();
}

bool CanonicalCheck::SameBytes(std::uint64_t off, std::span<const std::uint8_t> want) {
  if (off > source_.size() || want.size() > source_.size() - off) return false;
  if (want.empty()) return true;
  const std::span<const std::uint8_t> whole = source_.InMemory();
  if (!whole.empty()) return std::memcmp(whole.data() + off, want.data(), want.size()) == 0;
  compare_.resize(want.size());
  auto got = source_.ReadAt(off, compare_);
  return got.ok() && *got == want.size() &&
         std::memcmp(compare_.data(), want.data(), want.size()) == 0;
}

}  // namespace mpo::memtrace
