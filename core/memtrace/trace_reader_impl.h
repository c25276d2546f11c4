// The definitions of BasicTraceReader (trace_reader.h): included by trace_reader.cc,
// which compiles the correct reader, and by the test-only instantiations of mutants.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/base/splitmix64.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/writer_rules.h"

namespace mpo::memtrace {

namespace trace_reader_detail {

inline Status Corrupt(const char* field, std::string message, std::uint64_t offset) {
  return Status(ErrorCode::kCorrupt, std::move(message)).WithField(field).AtOffset(offset);
}

// The largest event the unchecked cursor reads before the backtrace: a long alloc's
// header, length, nsamples, source, common prefix (vints of up to 9 bytes) and u16
// suffix length.
inline constexpr std::size_t kMaxFastEventBytes = 4 + 9 + 9 + 1 + 9 + 2;

}  // namespace trace_reader_detail

template <class Faults>
Result<std::unique_ptr<BasicTraceReader<Faults>>> BasicTraceReader<Faults>::Open(
    std::unique_ptr<ByteSource> source, ReaderOptions options) {
  std::unique_ptr<BasicTraceReader> r(new BasicTraceReader(std::move(source), options));
  r->file_size_ = r->source_->size();
  r->frames_left_ = options.limits.max_frames;
  r->held_left_ = options.limits.max_held_frames;
  r->location_bytes_left_ = options.limits.max_location_bytes;
  Status s = r->ReadInfo();
  if (!s.ok()) return s;
  return r;
}

template <class Faults>
Result<std::unique_ptr<BasicTraceReader<Faults>>> BasicTraceReader<Faults>::OpenFile(
    const std::string& path, ReaderOptions options) {
  auto src = OpenFileSource(path);
  if (!src.ok()) return src.status();
  return Open(std::move(*src), options);
}

template <class Faults>
Status BasicTraceReader<Faults>::ReadInfo() {
  std::uint8_t hdr[kHeaderSizeV3];
  auto got = source_->ReadAt(0, hdr);
  if (!got.ok()) return got.status();
  ByteReader hin(std::span<const std::uint8_t>(hdr, *got), 0);
  MPO_RETURN_IF_ERROR(ReadPacketHeader(hin, &info_header_, options_.rules));
  const std::uint64_t size =
      Faults::PacketBytes(info_header_.packet_size_bits / 8, info_header_.packet_size_bits);
  // The real readers read the info packet into one 32 KiB buffer and refuse a larger one
  // (a well-defined refusal, so the reference modes give it).
  if (options_.rules.info_packet_within_buffer && size > kMaxPacketSize)
    return Status(ErrorCode::kCorrupt, "trace info packet of " + std::to_string(size) +
                                           " bytes does not fit memtrace's " +
                                           std::to_string(kMaxPacketSize) + "-byte buffer")
        .WithField("trace info packet size")
        .AtOffset(header_offset::kPacketSize);
  if (size > options_.max_packet_bytes)
    return Status(ErrorCode::kOutOfRange, "trace info packet of " + std::to_string(size) +
                                              " bytes exceeds the limit of " +
                                              std::to_string(options_.max_packet_bytes))
        .WithField("packet header: packet_size")
        .AtOffset(header_offset::kPacketSize);
  const std::size_t hsize = info_header_.header_size();
  packet_buf_.resize(size - hsize);
  auto body = source_->ReadAt(hsize, packet_buf_);
  if (!body.ok()) return body.status();
  if (*body < packet_buf_.size())
    return Status(ErrorCode::kTruncated, "trace info packet declares " + std::to_string(size) +
                                             " bytes but the file has " +
                                             std::to_string(file_size_))
        .WithField("trace info packet size")
        .AtOffset(header_offset::kPacketSize);
  ByteReader in(packet_buf_, hsize);
  const std::uint64_t ev_off = in.offset();
  EventHeader ev = ReadEventHeader(in, info_header_.time_begin, info_header_.time_end);
  if (!in.ok()) return in.status();
  if (ev.code != static_cast<unsigned>(EventCode::kTraceInfo))
    return trace_reader_detail::Corrupt(
        "trace info packet code",
        "first event has code " + std::to_string(ev.code) + ", expected trace info (0)", ev_off);
  if (ev.time != info_header_.time_begin)
    return trace_reader_detail::Corrupt("trace info packet time",
                                        "trace info time " + std::to_string(ev.time) +
                                            " differs from packet start " +
                                            std::to_string(info_header_.time_begin),
                                        ev_off);
  info_.start_time = Faults::StartTime(info_header_.time_begin, info_header_.time_end);
  info_.sample_rate = Faults::SampleRate(in.Float("trace info: sample_rate"));
  info_.word_size = Faults::WordSize(in, "trace info: word_size");
  info_.executable_name = std::string(in.String("trace info: executable_name"));
  info_.host_name = std::string(in.String("trace info: host_name"));
  info_.ocaml_runtime_params = std::string(in.String("trace info: ocaml_runtime_params"));
  info_.pid = static_cast<std::int64_t>(in.U64("trace info: pid"));
  info_.initial_domain = info_header_.domain;
  if (Faults::HasContext(info_header_.version)) {
    std::string_view ctx = in.String("trace info: context");
    if (!ctx.empty()) info_.context = std::string(ctx);
  }
  if (!in.ok()) return in.status();
  if (in.remaining() != 0)
    return trace_reader_detail::Corrupt(
        "trace info packet done",
        std::to_string(in.remaining()) + " bytes left after the trace info event", in.offset());
  // memtrace HEAD reads every version with per-domain streams (core/base/verdicts.h).
  legacy_ = !HasDomainStreams(info_header_.version) && !options_.rules.domain_streams_every_version;
  next_packet_off_ = size;
  return Status::Ok();
}

template <class Faults>
auto BasicTraceReader<Faults>::Domain(std::uint16_t id) -> Result<DomainState*> {
  auto it = domains_.find(id);
  if (it != domains_.end()) return it->second.get();
  if (domains_.size() >= options_.max_domains)
    return Status(ErrorCode::kOutOfRange,
                  "more than " + std::to_string(options_.max_domains) + " domains")
        .WithField("packet header: domain")
        .AtOffset(packet_off_ + header_offset::kDomain);
  auto st = std::make_unique<DomainState>();
  st->last_timestamp = info_.start_time;
  st->backtraces.set_max_length(options_.max_backtrace_length);
  st->backtraces.set_budget(&held_left_, options_.limits.max_held_frames);
  if (options_.check_canonical) st->backtraces.CheckCanonical();
  DomainState* p = st.get();
  domains_.emplace(id, std::move(st));
  return p;
}

template <class Faults>
bool BasicTraceReader<Faults>::Bad(Status s) {
  error_ = std::move(s);
  return false;
}

template <class Faults>
bool BasicTraceReader<Faults>::FramesExceeded() {
  return Bad(LimitExceeded("backtrace entries decoded over the trace", options_.limits.max_frames,
                           "--max-frames")
                 .AtOffset(event_off_));
}

template <class Faults>
std::uint64_t BasicTraceReader<Faults>::PacketBytes() const {
  return Faults::PacketBytes(packet_.packet_size_bits / 8, packet_.packet_size_bits);
}

template <class Faults>
Status BasicTraceReader<Faults>::LoadPacket(bool* end) {
  *end = false;
  while (next_packet_off_ < file_size_) {
    const std::uint64_t off = next_packet_off_;
    MPO_RETURN_IF_ERROR(ReadHeaderAt(off));
    // memtrace 0.2.3 checks the cache verifier while it reads the header: before it looks
    // at the packet's size, its truncation or whether it continues the stream.
    if (legacy_ && options_.parse_backtraces) {
      auto dom = Domain(Faults::StreamOf(packet_.domain));
      if (!dom.ok()) return dom.status();
      MPO_RETURN_IF_ERROR(CheckVerifier(**dom));
    }
    bool truncated;
    MPO_RETURN_IF_ERROR(CheckPacketSize(&truncated));
    if (truncated) {
      warnings_.push_back({off, "skipping truncated packet (" + std::to_string(PacketBytes()) +
                                    " bytes declared, " + std::to_string(file_size_ - off) +
                                    " present)"});
      next_packet_off_ = file_size_;
      break;
    }
    next_packet_off_ = off + PacketBytes();
    ++packets_read_;
    auto dom = Domain(Faults::StreamOf(packet_.domain));
    if (!dom.ok()) return dom.status();
    if (SkipsPacket(**dom)) continue;
    if (!legacy_ && options_.parse_backtraces) MPO_RETURN_IF_ERROR(CheckVerifier(**dom));
    MPO_RETURN_IF_ERROR(LoadBody());
    StartPacket(*dom);
    return Status::Ok();
  }
  *end = true;
  return Status::Ok();
}

template <class Faults>
Status BasicTraceReader<Faults>::ReadHeaderAt(std::uint64_t off) {
  std::uint8_t hdr[kHeaderSizeV3];
  auto got = source_->ReadAt(off, hdr);
  if (!got.ok()) return got.status();
  // A file ending inside a packet header is refused in every mode: both memtrace
  // readers fail reading the header (buffer underflow), never skip it.
  ByteReader hin(std::span<const std::uint8_t>(hdr, *got), off);
  packet_off_ = off;
  MPO_RETURN_IF_ERROR(ReadPacketHeader(hin, &packet_, options_.rules));
  if (!options_.rules.mixed_versions && packet_.version != info_header_.version)
    return Status(ErrorCode::kCorrupt, "a packet of format v" + std::to_string(packet_.version) +
                                           " in a v" + std::to_string(info_header_.version) +
                                           " trace")
        .WithField("packet header: version")
        .AtOffset(off + header_offset::kVersion);
  return Status::Ok();
}

template <class Faults>
Status BasicTraceReader<Faults>::CheckVerifier(const DomainState& d) const {
  if (Faults::VerifierMatches(d.backtraces.Check(packet_.verifier))) return Status::Ok();
  return trace_reader_detail::Corrupt(
      "packet header: cache verification", "backtrace cache differs from the writer's",
      packet_off_ + header_offset::kVerifierIxV2 + DomainShift(HasDomainStreams(packet_.version)));
}

template <class Faults>
Status BasicTraceReader<Faults>::CheckPacketSize(bool* truncated) const {
  const std::uint64_t off = packet_off_;
  const std::uint64_t size = PacketBytes();
  const std::size_t hsize = packet_.header_size();
  *truncated = off + size > file_size_;
  if (*truncated && !options_.rules.skip_truncated_last_packet)
    return Status(ErrorCode::kTruncated, "truncated packet: " + std::to_string(size) +
                                             " bytes declared, " +
                                             std::to_string(file_size_ - off) + " present")
        .WithField("packet header: packet_size")
        .AtOffset(off + header_offset::kPacketSize);
  // The reference modes skip a truncated last packet whatever size it declares (the real
  // readers never compare it with a limit); a complete one over the cap is refused.
  if (size > options_.max_packet_bytes && !*truncated)
    return Status(ErrorCode::kOutOfRange, "packet of " + std::to_string(size) +
                                              " bytes exceeds the limit of " +
                                              std::to_string(options_.max_packet_bytes))
        .WithField("packet header: packet_size")
        .AtOffset(off + header_offset::kPacketSize);
  // The real readers cannot read a body over their 32 KiB buffer (they skip its first
  // 32 KiB as truncated and parse the rest as packets): a declared difference, refused.
  // A truncated last packet is the same case once more than 32 KiB of its body is
  // present; with less, their read ends at the end of the file and they skip it.
  const bool body_overflows =
      *truncated ? file_size_ - off > hsize + kMaxPacketSize : size - hsize > kMaxPacketSize;
  if (options_.rules.body_within_buffer && body_overflows)
    return Status(ErrorCode::kOutOfRange, "packet body of " + std::to_string(size - hsize) +
                                              " bytes exceeds memtrace's " +
                                              std::to_string(kMaxPacketSize) + "-byte buffer")
        .WithField("packet header: packet_size")
        .AtOffset(off + header_offset::kPacketSize);
  return Status::Ok();
}

template <class Faults>
bool BasicTraceReader<Faults>::SkipsPacket(const DomainState& d) {
  if (legacy_ && !(d.last_timestamp <= packet_.time_begin &&
                   d.alloc_id == OcamlIntOfInt64(packet_.alloc_id_begin))) {
    // memtrace 0.2.3 skips packets that do not continue the stream.
    warnings_.push_back({packet_off_, "skipping bad packet at id " + std::to_string(d.alloc_id) +
                                          " " + std::to_string(packet_.alloc_id_begin) + "-" +
                                          std::to_string(packet_.alloc_id_end)});
    return true;
  }
  if (Faults::ForeignPid(packet_.pid != info_.pid, packet_.pid, info_.pid)) {
    warnings_.push_back(
        {packet_off_, "skipping bad packet (wrong pid: " + std::to_string(packet_.pid) +
                          ", but tracing " + std::to_string(info_.pid) + ")"});
    return true;
  }
  return false;
}

template <class Faults>
Status BasicTraceReader<Faults>::LoadBody() {
  const std::uint64_t off = packet_off_;
  const std::uint64_t size = PacketBytes();
  const std::size_t hsize = packet_.header_size();
  const std::span<const std::uint8_t> whole = source_->InMemory();
  if (whole.size() == file_size_ && !whole.empty()) {
    // off + size <= file_size_ was checked (CheckPacketSize).
    cursor_ = ByteReader(whole.subspan(off + hsize, size - hsize), off + hsize);
    return Status::Ok();
  }
  packet_buf_.resize(size - hsize);
  auto body = source_->ReadAt(off + hsize, packet_buf_);
  if (!body.ok()) return body.status();
  if (*body != packet_buf_.size())
    return Status(ErrorCode::kIo, "short read inside the file").AtOffset(off + hsize);
  cursor_ = ByteReader(packet_buf_, off + hsize);
  return Status::Ok();
}

template <class Faults>
void BasicTraceReader<Faults>::StartPacket(DomainState* d) {
  dom_ = d;
  alloc_id_ =
      legacy_ ? Faults::LegacyAllocIdBegin(d->alloc_id, OcamlIntOfInt64(packet_.alloc_id_begin))
              : Faults::PacketAllocIdBegin(OcamlIntOfInt64(packet_.alloc_id_begin), d->alloc_id);
  // ReadEventHeader's time is begin + off (mod 2^64), off < 2^25. With begin <= end it
  // is in [begin, end] iff off <= end - begin: a sum past INT64_MAX (which wraps below
  // begin) needs off > INT64_MAX - begin >= end - begin. With end < begin, never.
  const std::int64_t b = packet_.time_begin;
  const std::int64_t e = packet_.time_end;
  const std::uint64_t span = static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(b);
  fast_time_low_ = static_cast<std::uint32_t>(b) & kEventTimeMask;
  fast_time_span_ =
      e < b ? -1 : static_cast<std::int64_t>(std::min<std::uint64_t>(span, INT64_MAX));
  in_packet_ = true;
  if (options_.check_canonical) canonical_events_.OnPacket(packet_, d->backtraces);
}

template <class Faults>
template <class MakeError>
auto BasicTraceReader<Faults>::Stop(MakeError&& make) -> Step {
  error_ = make();
  return Step::kStop;
}

template <class Faults>
template <class Cursor, class MakeError>
[[gnu::always_inline]] inline auto BasicTraceReader<Faults>::Refuse(MakeError&& make) -> Step {
  if constexpr (Cursor::kChecked)
    return Stop(std::forward<MakeError>(make));
  else
    return Step::kAgain;
}

template <class Faults>
template <class Cursor>
[[gnu::always_inline]] inline auto BasicTraceReader<Faults>::ReadHeader(Cursor& in, EventHeader* h)
    -> Step {
  if constexpr (!Cursor::kChecked) {
    // ReadEventHeader's time, its packet bounds check as one comparison (see
    // fast_time_span_). An unknown code is one the caller declines.
    const std::uint32_t word = in.U32("event header");
    const std::uint32_t time_off = (word - fast_time_low_) & kEventTimeMask;
    if (static_cast<std::int64_t>(time_off) > fast_time_span_) [[unlikely]]
      return Step::kAgain;
    h->time = static_cast<std::int64_t>(static_cast<std::uint64_t>(packet_.time_begin) + time_off);
    h->code = word >> kEventTimeBits;
    return dom_->last_timestamp <= h->time ? Step::kEvent : Step::kAgain;
  } else {
    const std::uint8_t* const word_at = in.cursor();
    *h = ReadEventHeader(in, packet_.time_begin, packet_.time_end);
    if (!in.ok()) return CursorFailed(in);
    h->time = Faults::EventTime(h->time, LoadLe<std::uint32_t>(word_at), packet_.time_begin);
    const std::int64_t last = dom_->last_timestamp;
    if (!(last <= h->time))
      return Stop([&] {
        return trace_reader_detail::Corrupt("event header: monotone timestamps",
                                            "event time " + std::to_string(h->time) +
                                                " is before the previous event's " +
                                                std::to_string(last),
                                            event_off_);
      });
    // Committed at once (a field failing later leaves it, and SkipToNextPacket carries
    // on from there); the unchecked cursor commits it with the event (Commit).
    dom_->last_timestamp = h->time;
    return Step::kEvent;
  }
}

template <class Faults>
[[gnu::always_inline]] inline void BasicTraceReader<Faults>::Commit(std::int64_t time,
                                                                    EventKind kind) {
  dom_->last_timestamp = time;
  event_.time = time;
  event_.domain = Faults::EventDomain(packet_.domain, info_.initial_domain);
  event_.kind = kind;
}

template <class Faults>
template <class Cursor, class Hook>
[[gnu::always_inline]] inline auto BasicTraceReader<Faults>::DecodeEvent(Cursor& in, Hook& hook)
    -> Step {
  event_off_ = cursor_.offset();
  EventHeader h;
  if (const Step s = ReadHeader(in, &h); s != Step::kEvent) [[unlikely]]
    return s;
  const bool is_short = IsShortAllocCode(h.code);
  if (is_short || h.code == static_cast<unsigned>(EventCode::kAlloc)) [[likely]]
    return DecodeAlloc(in, hook, h, is_short);
  if (h.code == static_cast<unsigned>(EventCode::kPromote) ||
      h.code == static_cast<unsigned>(EventCode::kCollect))
    return DecodeIdDelta(in, hook, h);
  if constexpr (!Cursor::kChecked) {
    return Step::kAgain;
  } else {
    if (h.code == static_cast<unsigned>(EventCode::kLocation)) return DecodeLocation(in, hook);
    // ReadEventHeader refused unknown codes: this is the trace-info code.
    return Stop([&] {
      return trace_reader_detail::Corrupt("event header: code",
                                          "multiple trace-info events present", event_off_);
    });
  }
}

template <class Faults>
template <class Cursor, class Hook>
[[gnu::always_inline]] inline auto BasicTraceReader<Faults>::DecodeIdDelta(Cursor& in, Hook& hook,
                                                                           const EventHeader& h)
    -> Step {
  const bool promote = h.code == static_cast<unsigned>(EventCode::kPromote);
  const std::uint8_t* const vint = in.cursor();
  const OcamlInt delta = ReadVint(in, promote ? "promote: obj_id_delta" : "collect: obj_id_delta");
  if (!in.ok()) return CursorFailed(in);
  if (delta < 0 && (promote || Faults::RefusesNegativeCollect(legacy_))) [[unlikely]]
    return Refuse<Cursor>([&] {
      return trace_reader_detail::Corrupt(
          promote ? "promote: promote id sync" : "collect: collect id sync",
          "negative id delta " + std::to_string(delta), cursor_.OffsetAt(vint));
    });
  hook.OnIdDelta(vint, delta);
  Settle(in);
  Commit(h.time, promote ? EventKind::kPromote : EventKind::kCollect);
  event_.backtrace = {};
  event_.obj_id = Faults::DeltaId(OcamlSub(OcamlSub(alloc_id_, 1), delta), alloc_id_, delta);
  return Step::kEvent;
}

template <class Faults>
template <class Cursor, class Hook>
[[gnu::always_inline]] inline auto BasicTraceReader<Faults>::DecodeAlloc(Cursor& in, Hook& hook,
                                                                         const EventHeader& h,
                                                                         bool is_short) -> Step {
  Event& e = event_;
  std::uint32_t nencoded;
  OcamlInt common;
  const std::uint8_t* common_vint;
  if (is_short) {
    common_vint = in.cursor();
    common = Faults::CommonPrefix(ReadVint(in, "short alloc: common_prefix"));
    nencoded = in.U8("short alloc: new_suffix");
    if (!in.ok()) return CursorFailed(in);
    hook.OnShortAlloc(common_vint, common);
    e.length = Faults::ShortAllocLength(ShortAllocLength(h.code), h.code);
    e.nsamples = Faults::ShortAllocSamples(1);
    e.source = AllocationSource::kMinor;
  } else {
    const std::uint8_t* const length_vint = in.cursor();
    const OcamlInt length = ReadVint(in, "alloc: length");
    const std::uint8_t* const nsamples_vint = in.cursor();
    const OcamlInt nsamples = ReadVint(in, "alloc: nsamples");
    const std::uint8_t* const source_at = in.cursor();
    const std::uint8_t src = Faults::Source(in.U8("alloc: source"));
    if (!in.ok()) return CursorFailed(in);
    if (src > 2) [[unlikely]]
      return Refuse<Cursor>([&] {
        return trace_reader_detail::Corrupt(
            "alloc: source", "allocation source " + std::to_string(src) + " is not 0..2",
            cursor_.OffsetAt(source_at));
      });
    common_vint = in.cursor();
    common = Faults::CommonPrefix(ReadVint(in, "alloc: common_prefix"));
    nencoded = ReadSuffixCount(in, "alloc: new_suffix");
    if (!in.ok()) return CursorFailed(in);
    hook.OnLongAlloc(length_vint, length, nsamples_vint, nsamples, common_vint, common);
    e.length = length;
    e.nsamples = Faults::LongAllocSamples(nsamples);
    e.source = static_cast<AllocationSource>(src);
  }
  if (common < 0 && options_.parse_backtraces) [[unlikely]]
    return Refuse<Cursor>([&] {
      return trace_reader_detail::Corrupt("alloc: common_prefix",
                                          "negative common prefix " + std::to_string(common),
                                          cursor_.OffsetAt(common_vint));
    });
  Commit(h.time, EventKind::kAlloc);
  e.common_prefix = common;
  if (options_.parse_backtraces) {
    // The position stays in a register; on failure GetAt leaves cursor_ at the failing
    // field, with its error.
    const std::uint8_t* p = dom_->backtraces.template GetAt<Hook::kActive, Faults>(
        cursor_, in.cursor(), nencoded, common, alloc_id_, &e.backtrace);
    if (p == nullptr) [[unlikely]]
      return Stop([&] { return cursor_.status(); });
    cursor_.Advance(p);
    if (!ChargeFrames(e.backtrace.size())) [[unlikely]]
      return Step::kStop;
    hook.OnBacktrace(is_short, e, dom_->backtraces);
  } else {
    Settle(in);
    e.backtrace = {};
    BacktraceReader::Skip(cursor_, nencoded);
    if (!cursor_.ok()) [[unlikely]]
      return Stop([&] { return cursor_.status(); });
  }
  e.obj_id = alloc_id_;
  alloc_id_ = OcamlAdd(alloc_id_, 1);
  return Step::kEvent;
}

template <class Faults>
template <class Hook>
auto BasicTraceReader<Faults>::DecodeLocation(ByteReader& in, Hook& hook) -> Step {
  hook.OnLocation();
  OcamlInt code;
  const std::uint64_t body_off = in.offset();
  dom_->locations.template GetCompact<Faults>(in, strings_, &code, &loc_scratch_);
  if (!in.ok()) return CursorFailed(in);
  bool inserted;
  FrameRun* run = locs_.Find(code, true, &inserted);
  if (inserted) {
    *run = FrameRun{static_cast<std::uint32_t>(frames_.size()),
                    static_cast<std::uint32_t>(loc_scratch_.size())};
    frames_.insert(frames_.end(), loc_scratch_.begin(), loc_scratch_.end());
  } else if (!std::equal(loc_scratch_.begin(), loc_scratch_.end(), frames_.begin() + run->begin,
                         frames_.begin() + run->begin + run->count)) {
    return Stop([&] {
      char buf[64];
      std::snprintf(buf, sizeof buf, "location code %llx",
                    static_cast<unsigned long long>(OcamlUnsigned(code)));
      return trace_reader_detail::Corrupt("location: consistent location info",
                                          std::string(buf) + " redefined with different frames",
                                          body_off);
    });
  }
  // A location event is decoded but not an event of the trace: read on.
  return Step::kAgain;
}

template <class Faults>
Result<const Event*> BasicTraceReader<Faults>::Next() {
  const Event* e = NextEvent();
  if (e == nullptr && !error_.ok()) return error_;
  return e;
}

template <class Faults>
auto BasicTraceReader<Faults>::NextPacketStep() -> Step {
  bool end;
  Status s = LoadPacket(&end);
  if (!s.ok()) return Stop([&] { return std::move(s); });
  if (!end) return Step::kAgain;
  done_ = true;
  return Step::kStop;
}

template <class Faults>
auto BasicTraceReader<Faults>::EndPacketStep() -> Step {
  in_packet_ = false;
  if (legacy_) dom_->alloc_id = alloc_id_;
  if (packet_.alloc_id_end == alloc_id_) return Step::kAgain;
  return Stop([&] {
    return trace_reader_detail::Corrupt("packet: alloc id sync",
                                        "packet ends at alloc id " + std::to_string(alloc_id_) +
                                            " but its header says " +
                                            std::to_string(packet_.alloc_id_end),
                                        packet_off_ + packet_.header_size() - 8);
  });
}

template <class Faults>
template <class Hook>
auto BasicTraceReader<Faults>::SlowStep(Hook& hook) -> Step {
  // Read past the canonical observer, a reader opened with check_canonical cannot say
  // canonical() any more.
  if (!Hook::kActive && options_.check_canonical) canonical_events_.Abandon();
  if (!error_.ok() || done_) return Step::kStop;
  if (!in_packet_) return NextPacketStep();
  if (cursor_.remaining() == 0) return EndPacketStep();
  return ParseEvent(hook);
}

template <class Faults>
template <class Hook>
[[gnu::always_inline]] inline const Event* BasicTraceReader<Faults>::NextEventOf(Hook& hook) {
  while (true) {
    Step step = Step::kAgain;
    // (After an error or at the end, in_packet_ is false, error_ is set, or the cursor
    // has no bytes left: SlowStep handles those.)
    if constexpr (Faults::kFastPath) {
      if (in_packet_ && cursor_.remaining() >= trace_reader_detail::kMaxFastEventBytes &&
          error_.ok()) [[likely]] {
        UncheckedReader in(cursor_.cursor());
        step = DecodeEvent(in, hook);
      }
    }
    if (step == Step::kAgain) [[unlikely]]
      step = SlowStep(hook);
    if (step == Step::kEvent) [[likely]]
      return &event_;
    if (step == Step::kStop) return nullptr;
  }
}

template <class Faults>
const Event* BasicTraceReader<Faults>::NextEvent() {
  NoCanonicalEvents none;
  return NextEventOf(none);
}

template <class Faults>
const Event* BasicTraceReader<Faults>::NextCheckedEvent() {
  return NextEventOf(canonical_events_);
}

template <class Faults>
bool BasicTraceReader<Faults>::canonical() const {
  if (!canonical_events_.ok() || !options_.parse_backtraces) return false;
  for (const auto& [id, d] : domains_)
    if (!d->backtraces.canonical()) return false;
  return true;
}

template <class Faults>
bool BasicTraceReader<Faults>::SkipToNextPacket() {
  // Only when the failing packet's header (and so its size) was valid.
  if (error_.ok() || next_packet_off_ <= packet_off_) return false;
  error_ = Status();
  in_packet_ = false;
  if (legacy_ && dom_ != nullptr && error_.ok())
    dom_->alloc_id = OcamlIntOfInt64(packet_.alloc_id_end);
  return true;
}

template <class Faults>
const std::vector<Location>* BasicTraceReader<Faults>::LookupLocation(OcamlInt code) const {
  bool over_budget;
  return Materialize(code, &over_budget);
}

template <class Faults>
const std::vector<Location>* BasicTraceReader<Faults>::Materialize(OcamlInt code,
                                                                   bool* over_budget) const {
  *over_budget = false;
  auto m = materialized_.find(code);
  if (m != materialized_.end()) return &m->second;
  bool inserted;
  const FrameRun* run = const_cast<CodeTable&>(locs_).Find(code, false, &inserted);
  if (run == nullptr) return nullptr;
  // Each code is materialised once, but a code may repeat a long string in all its
  // frames: the copies are what the budget counts.
  std::uint64_t bytes = 0;
  for (std::uint32_t i = 0; i < run->count; ++i) {
    const CompactFrame& f = frames_[run->begin + i];
    bytes += sizeof(Location) + strings_.Get(f.filename).size() + strings_.Get(f.defname).size();
  }
  if (bytes > location_bytes_left_) {
    *over_budget = true;
    return nullptr;
  }
  location_bytes_left_ -= bytes;
  std::vector<Location> v;
  v.reserve(run->count);
  for (std::uint32_t i = 0; i < run->count; ++i)
    v.push_back(memtrace::Materialize(frames_[run->begin + i], strings_));
  return &materialized_.emplace(code, std::move(v)).first->second;
}

template <class Faults>
bool BasicTraceReader<Faults>::HasLocation(OcamlInt code) const {
  bool inserted;
  return const_cast<CodeTable&>(locs_).Find(code, false, &inserted) != nullptr;
}

template <class Faults>
std::span<const CompactFrame> BasicTraceReader<Faults>::CompactFramesOf(OcamlInt code,
                                                                        bool* found) const {
  bool inserted;
  const FrameRun* run = const_cast<CodeTable&>(locs_).Find(code, false, &inserted);
  *found = run != nullptr;
  if (run == nullptr) return {};
  return std::span<const CompactFrame>(frames_).subspan(run->begin, run->count);
}

template <class Faults>
Result<const std::vector<Location>*> BasicTraceReader<Faults>::LocationOfEntry(
    OcamlInt code, std::uint64_t event_offset) const {
  bool over_budget;
  const std::vector<Location>* locs = Materialize(code, &over_budget);
  if (locs != nullptr) return locs;
  if (over_budget)
    return LimitExceeded("location strings materialised", options_.limits.max_location_bytes,
                         "--max-location-bytes")
        .AtOffset(event_offset);
  char buf[96];
  std::snprintf(buf, sizeof buf, "invalid location code %08llx (never defined)",
                static_cast<unsigned long long>(OcamlUnsigned(code)));
  return trace_reader_detail::Corrupt("backtrace: location code", buf, event_offset);
}

template <class Faults>
std::vector<OcamlInt> BasicTraceReader<Faults>::LocationCodes() const {
  return locs_.codes;
}

template <class Faults>
auto BasicTraceReader<Faults>::CodeTable::Find(OcamlInt code, bool insert, bool* inserted)
    -> FrameRun* {
  *inserted = false;
  auto slot_of = [](OcamlInt c, std::size_t mask) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(c) * kGoldenGamma) >> 32) & mask;
  };
  if (!slots.empty()) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = slot_of(code, mask);; i = (i + 1) & mask) {
      if (slots[i] == 0) break;
      if (codes[slots[i] - 1] == code) return &runs[slots[i] - 1];
    }
  }
  if (!insert) return nullptr;
  if ((codes.size() + 1) * 2 > slots.size()) {
    std::vector<std::uint32_t> grown(slots.empty() ? 1024 : slots.size() * 2, 0);
    const std::size_t mask = grown.size() - 1;
    for (std::uint32_t k = 0; k < codes.size(); ++k) {
      std::size_t i = slot_of(codes[k], mask);
      while (grown[i] != 0) i = (i + 1) & mask;
      grown[i] = k + 1;
    }
    slots.swap(grown);
  }
  const std::size_t mask = slots.size() - 1;
  std::size_t i = slot_of(code, mask);
  while (slots[i] != 0) i = (i + 1) & mask;
  codes.push_back(code);
  runs.push_back(FrameRun{0, 0});
  slots[i] = static_cast<std::uint32_t>(codes.size());
  *inserted = true;
  return &runs.back();
}

}  // namespace mpo::memtrace
