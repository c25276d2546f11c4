#include "core/memtrace/trace_writer.h"

#include <algorithm>
#include <string>

#include "core/memtrace/common_prefix.h"
#include "core/memtrace/writer_rules.h"

namespace mpo::memtrace {

namespace {
Status Invalid(std::string m) { return Status(ErrorCode::kInvalidArgument, std::move(m)); }

// The per-event errors, built out of line so that the inlined event path stays small.
[[gnu::cold, gnu::noinline]] Status NotAllocatedYet(bool promote, OcamlInt obj_id) {
  return Invalid(std::string(promote ? "promotion" : "collection") + " of object " +
                 std::to_string(obj_id) + ", which is not allocated yet");
}
[[gnu::cold, gnu::noinline]] Status WrongAllocId(OcamlInt got, OcamlInt expected) {
  return Invalid("incorrect allocation id: the event has " + std::to_string(got) +
                 ", the writer assigns " + std::to_string(expected));
}
[[gnu::cold, gnu::noinline]] Status NoFrames(OcamlInt code) {
  return Status(ErrorCode::kNotFound, "no frames for location code " + std::to_string(code))
      .WithField("backtrace");
}

}  // namespace

struct TraceWriter::DomainWriter {
  DomainWriter(std::uint16_t d, ColumnPacking packing, std::int64_t start)
      : domain(d), locations(packing), packet(kMaxPacketSize), time_start(start), time_end(start) {}
  std::uint16_t domain;
  LocationWriter locations;
  BacktraceWriter backtraces;
  std::vector<PendingLocation> new_locs;
  // The previous backtrace is last_backtrace[0, last_len): the vector only grows (to the
  // deepest backtrace seen), so that a new suffix is one copy, never a resize.
  std::vector<OcamlInt> last_backtrace;
  std::size_t last_len = 0;
  std::vector<std::size_t> misses;  // scratch: entries of the current alloc that missed
  ByteWriter packet;
  PacketHeaderSlots header{};
  std::int64_t time_start;
  std::int64_t time_end;
  PacketIds ids;
};

TraceWriter::TraceWriter(ByteSink& sink, const Info& info, WriterOptions options)
    : sink_(sink), info_(info), options_(std::move(options)), location_packet_(kMaxPacketSize) {}

TraceWriter::~TraceWriter() = default;

Result<std::unique_ptr<TraceWriter>> TraceWriter::Create(ByteSink& sink, const Info& info,
                                                         WriterOptions options) {
  if (options.format_version != 2 && options.format_version != 3)
    return Invalid("format version must be 2 or 3, not " + std::to_string(options.format_version));
  if (options.obj_ids_per_chunk <= 0) return Invalid("obj_ids_per_chunk must be positive");
  if (options.format_version < 3 && info.initial_domain != 0)
    return Invalid("format v2 has no domains; initial_domain must be 0");
  std::unique_ptr<TraceWriter> w(new TraceWriter(sink, info, std::move(options)));
  w->pid_ = w->options_.getpid ? w->options_.getpid() : info.pid;
  ByteWriter b(kMaxPacketSize);
  MPO_RETURN_IF_ERROR(WriteInfoPacket(b, info, w->options_.format_version, w->pid_));
  MPO_RETURN_IF_ERROR(sink.Write(b.bytes()));
  auto first = w->WriterFor(info.initial_domain);
  if (!first.ok()) return first.status();
  return w;
}

void TraceWriter::NewPacket(DomainWriter& w) {
  w.ids.StartPacket(options_.format_version, &global_ids_, options_.obj_ids_per_chunk);
}

Result<TraceWriter::DomainWriter*> TraceWriter::WriterFor(std::uint16_t domain) {
  if (last_ != nullptr && domain == last_domain_) return last_;
  if (!HasDomainStreams(options_.format_version) && domain != info_.initial_domain)
    return Invalid("format v2 has no domains; event for domain " + std::to_string(domain));
  if (last_ != nullptr) {
    Status s = FlushAt(*last_, last_->time_end);
    if (!s.ok()) return s;
  }
  auto it = writers_.find(domain);
  if (it == writers_.end()) {
    auto w = std::make_unique<DomainWriter>(domain, options_.column_packing, info_.start_time);
    if (HasDomainStreams(options_.format_version)) {
      NewPacket(*w);
    }
    w->header =
        WritePacketHeader(w->packet, options_.format_version, pid_, domain, CacheVerifier{});
    it = writers_.emplace(domain, std::move(w)).first;
  }
  last_ = it->second.get();
  last_domain_ = domain;
  return last_;
}

Status TraceWriter::FlushAt(DomainWriter& w, std::int64_t now) {
  if (!stopped_.ok()) return stopped_;
  if (options_.getpid && options_.getpid() != pid_) {
    stopped_ = Status(ErrorCode::kFailedPrecondition,
                      "the process id changed (fork): the trace belongs to the parent");
    return stopped_;
  }
  const int version = options_.format_version;
  Status s = WriteLocationPackets(
      location_packet_, w.locations, version, pid_, w.domain, w.time_start, w.ids.start, w.new_locs,
      [this](std::span<const std::uint8_t> bytes) { return sink_.Write(bytes); });
  if (!s.ok()) return stopped_ = s;
  FinishPacketHeader(w.packet, w.header, w.time_start, w.time_end, w.ids.start, w.ids.next);
  s = w.packet.ok() ? sink_.Write(w.packet.bytes()) : w.packet.status();
  if (!s.ok()) return stopped_ = s;
  w.time_start = now;
  w.time_end = now;
  w.new_locs.clear();
  w.packet.Reset();
  NewPacket(w);
  w.header = WritePacketHeader(w.packet, version, pid_, w.domain, w.backtraces.NextVerifier());
  return Status::Ok();
}

[[gnu::always_inline]] inline bool TraceWriter::NeedsFlush(const DomainWriter& w,
                                                           std::int64_t now) const {
  return StartsNewPacket(w.packet.remaining(), w.new_locs.size(), now, w.time_start,
                         w.ids.Spent(options_.format_version));
}

// The per-event helpers return bool (or nullptr) and assign *err only on failure; *err
// is the caller's return value, so a successful event builds one OK Status in all
// (building one is measurable per event: GCC zero-fills its ~100 bytes).
// Inline into each event kind: a call per event (frame set-up, saved registers) cost
// about as much as the rest of writing a collect event.
[[gnu::always_inline]] inline std::uint8_t* TraceWriter::BeginEvent(DomainWriter& w, unsigned code,
                                                                    std::int64_t now, Status* err) {
  if (NeedsFlush(w, now)) [[unlikely]] {
    *err = FlushAt(w, now);
    if (!err->ok()) return nullptr;
  }
  w.time_end = now;
  // The header word of WriteEventHeader, stored without its room check (NeedsFlush said
  // a maximal event fits).
  std::uint8_t* p = w.packet.cursor();
  StoreLe(p, (static_cast<std::uint32_t>(code) << kEventTimeBits) |
                 (static_cast<std::uint32_t>(now) & kEventTimeMask));
  return p + 4;
}

inline bool TraceWriter::CheckUsable(std::uint16_t domain, std::int64_t time, Status* err) {
  if (stopped_.ok() && last_ != nullptr && domain == last_domain_ && time >= last_->time_end)
      [[likely]]
    return true;
  return CheckUsableSlow(domain, time, err);
}

// A domain switch, a stopped writer or an error: kept out of the per-event path.
[[gnu::noinline]] bool TraceWriter::CheckUsableSlow(std::uint16_t domain, std::int64_t time,
                                                    Status* err) {
  if (!stopped_.ok()) {
    *err = stopped_;
    return false;
  }
  auto w = WriterFor(domain);
  if (!w.ok()) {
    *err = w.status();
    return false;
  }
  if (time < (*w)->time_end) {
    *err = Invalid("out-of-order timestamps: " + std::to_string(time) + " < " +
                   std::to_string((*w)->time_end));
    return false;
  }
  return true;
}

Result<OcamlInt> TraceWriter::NextAllocId(std::uint16_t domain) {
  if (!stopped_.ok()) return stopped_;
  auto w = WriterFor(domain);
  if (!w.ok()) return w.status();
  DomainWriter& d = **w;
  if (d.ids.Spent(options_.format_version)) MPO_RETURN_IF_ERROR(FlushAt(d, d.time_end));
  return d.ids.next;
}

Result<OcamlInt> TraceWriter::PutAlloc(std::uint16_t domain, std::int64_t time, OcamlInt length,
                                       OcamlInt nsamples, AllocationSource source,
                                       std::span<const OcamlInt> bt, const LocationLookup& lookup) {
  Status err;
  OcamlInt id = 0;
  if (!CheckUsable(domain, time, &err) ||
      !PutUsableAlloc(*last_, time, length, nsamples, source, bt, lookup, 0, &id, &err))
    return err;
  return id;
}

[[gnu::always_inline]] inline bool TraceWriter::PutUsableAlloc(
    DomainWriter& w, std::int64_t time, OcamlInt length, OcamlInt nsamples, AllocationSource source,
    std::span<const OcamlInt> bt, const LocationLookup& lookup, std::size_t known_common,
    OcamlInt* id_out, Status* err) {
  const std::size_t common = CommonPrefix(bt, {w.last_backtrace.data(), w.last_len}, known_common);
  const std::size_t new_len = bt.size() - common;
  if (bt.size() > w.last_backtrace.size()) [[unlikely]]
    w.last_backtrace.resize(std::max(bt.size(), 2 * w.last_backtrace.size()));
  std::copy(bt.begin() + static_cast<std::ptrdiff_t>(common), bt.end(),
            w.last_backtrace.begin() + static_cast<std::ptrdiff_t>(common));
  w.last_len = bt.size();
  const bool is_short = UsesShortAlloc(length, nsamples, source, new_len);
  std::uint8_t* p = BeginEvent(w,
                               is_short ? ShortAllocCode(static_cast<unsigned>(length))
                                        : static_cast<unsigned>(EventCode::kAlloc),
                               time, err);
  if (p == nullptr) return false;
  const OcamlInt id = w.ids.next;
  w.ids.next = OcamlAdd(w.ids.next, 1);
  // At most 4 + 30 bytes of fields and kMaxBacktraceLength of codewords: within the
  // kMaxEventSize that BeginEvent made room for, so no write below is checked.
  std::uint8_t* len_at;
  if (is_short) {
    p = PutVintUnchecked(p, static_cast<OcamlInt>(common));
    len_at = p;
    p += 1;
  } else {
    p = PutVintUnchecked(p, length);
    p = PutVintUnchecked(p, nsamples);
    *p++ = static_cast<std::uint8_t>(source);
    p = PutVintUnchecked(p, static_cast<OcamlInt>(common));
    len_at = p;
    p += 2;
  }
  // The entries that miss the cache are collected first and looked up after (same calls,
  // same order).
  w.misses.clear();
  std::uint32_t nencoded = 0;
  p = w.backtraces.PutUnchecked(p, id, bt, common, &nencoded, &w.misses);
  if (is_short)
    *len_at = static_cast<std::uint8_t>(nencoded);  // new_len < 256 bounds it
  else
    StoreLe(len_at, static_cast<std::uint16_t>(nencoded));
  w.packet.Advance(p);
  bool lookup_failed = false;
  for (const std::size_t i : w.misses) {
    const std::vector<Location>* locs = lookup(bt[i]);
    if (locs == nullptr) [[unlikely]] {
      if (!lookup_failed) *err = NoFrames(bt[i]);
      lookup_failed = true;
      static const std::vector<Location> kNone;
      w.new_locs.emplace_back(bt[i], &kNone);
    } else {
      w.new_locs.emplace_back(bt[i], locs);
    }
  }
  if (lookup_failed) [[unlikely]] {
    stopped_ = *err;
    return false;
  }
  *id_out = id;
  return true;
}

[[gnu::always_inline]] inline Status TraceWriter::PutIdEvent(std::uint16_t domain,
                                                             std::int64_t time, OcamlInt obj_id,
                                                             bool promote) {
  // Every path returns `result` (one Status, built in the caller's slot).
  Status result;
  if (!CheckUsable(domain, time, &result)) return result;
  DomainWriter& w = *last_;
  const OcamlInt delta = OcamlSub(OcamlSub(w.ids.next, 1), obj_id);
  if (delta < 0 && (promote || !HasDomainStreams(options_.format_version))) [[unlikely]] {
    result = NotAllocatedYet(promote, obj_id);
    return result;
  }
  std::uint8_t* p = BeginEvent(
      w, static_cast<unsigned>(promote ? EventCode::kPromote : EventCode::kCollect), time, &result);
  if (p == nullptr) return result;
  // The delta is taken after a possible flush, as memtrace does (a new chunk moves next_id).
  w.packet.Advance(PutVintUnchecked(p, OcamlSub(OcamlSub(w.ids.next, 1), obj_id)));
  return result;
}

Status TraceWriter::PutPromote(std::uint16_t domain, std::int64_t time, OcamlInt obj_id) {
  return PutIdEvent(domain, time, obj_id, true);
}

Status TraceWriter::PutCollect(std::uint16_t domain, std::int64_t time, OcamlInt obj_id) {
  return PutIdEvent(domain, time, obj_id, false);
}

[[gnu::always_inline]] inline Status TraceWriter::PutAllocEvent(const Event& ev,
                                                                const LocationLookup& lookup) {
  // Every path returns `result` (one Status, built in the caller's slot).
  Status result;
  if (!CheckUsable(ev.domain, ev.time, &result)) return result;
  DomainWriter& w = *last_;
  // The id this alloc will get: a flush before it takes a new chunk when this one is spent.
  OcamlInt expected = w.ids.next;
  if (w.ids.Spent(options_.format_version)) expected = global_ids_;
  if (expected != ev.obj_id) [[unlikely]] {
    if (!options_.adopt_object_ids) {
      result = WrongAllocId(ev.obj_id, expected);
      return result;
    }
    if (!AdoptObjectId(w, ev.obj_id, &result)) return result;
  }
  // (CheckUsable above still holds: a flush here leaves time_end where it was.)
  // A reader's common prefix may pass the previous backtrace's length (it then returns
  // that backtrace again): CommonPrefix clamps it.
  const std::size_t known_common =
      options_.trust_common_prefix ? KnownCommonPrefix(ev.common_prefix) : 0;
  OcamlInt id = 0;
  PutUsableAlloc(w, ev.time, ev.length, ev.nsamples, ev.source, ev.backtrace, lookup, known_common,
                 &id, &result);
  return result;
}

// One function for every kind: the helpers above are inlined into it, so that writing a
// decoded event makes no call on its common path (the backtrace codec aside).
Status TraceWriter::PutEvent(const Event& ev, const LocationLookup& lookup) {
  switch (ev.kind) {
    case EventKind::kPromote: return PutIdEvent(ev.domain, ev.time, ev.obj_id, true);
    case EventKind::kCollect: return PutIdEvent(ev.domain, ev.time, ev.obj_id, false);
    case EventKind::kAlloc: break;
  }
  return PutAllocEvent(ev, lookup);
}

// Copying a trace whose domains took their chunks in another order: the packet ends and
// the domain continues from `obj_id`, in the chunk that holds it.
[[gnu::noinline]] bool TraceWriter::AdoptObjectId(DomainWriter& w, OcamlInt obj_id, Status* err) {
  if (w.packet.pos() > PacketHeaderSize(options_.format_version) || !w.new_locs.empty()) {
    *err = FlushAt(w, w.time_end);
    if (!err->ok()) return false;
  }
  const OcamlInt chunk = options_.obj_ids_per_chunk;
  const OcamlInt rem = obj_id % chunk;
  w.ids.start = w.ids.next = obj_id;
  w.ids.last = OcamlAdd(OcamlSub(obj_id, rem < 0 ? rem + chunk : rem), chunk);
  if (w.ids.last > global_ids_) global_ids_ = w.ids.last;
  return true;
}

Status TraceWriter::Flush() {
  if (last_ == nullptr) return Status::Ok();
  return FlushAt(*last_, last_->time_end);
}

}  // namespace mpo::memtrace
