// The body of the cursor's poll, over a fault policy (faults.h): cursor.cc instantiates
// it once with NoFaults (Cursor::ReadPoll); tests of deliberately broken consumers
// include it to instantiate it with theirs (Cursor::FromBytesWith).
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/faults.h"
#include "core/ring/mapped_file.h"
#include "core/ring/mapped_ring.h"
#include "core/ring/placement.h"
#include "core/ring/ring_protocol.h"
#include "core/ring/ring_switch.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {

struct Cursor::State {
  MappedFile file;                  // when reading a file
  std::vector<std::uint64_t> copy;  // when reading bytes
  std::uint64_t* base = nullptr;    // 8-byte aligned start of the file
  std::uint64_t size = 0;
  MetadataHeader meta{};
  std::vector<std::uint64_t> positions;
  std::uint64_t next_domain = 0;
  bool open = true;
  std::vector<std::uint64_t> buffer;
  CursorOptions options;
  PollGate<sync::StdPlatform> gate;
  // Set by FromBytesWith: the poll of a consumer with a fault policy (tests only).
  Result<std::uint64_t> (*poll)(Cursor&, EventCallbacks&, std::uint64_t) = nullptr;
};

namespace internal {

// Turns ring messages into typed callbacks for one domain, by fault policy `Faults`.
template <class Faults>
class Decoder {
 public:
  Decoder(EventCallbacks& cb, std::uint32_t ring, const std::byte* file_bytes,
          const MetadataHeader& meta, std::uint64_t file_size, const MappedFile& file,
          const RingRules& rules)
      : cb_(cb),
        ring_(ring),
        bytes_(file_bytes),
        meta_(meta),
        size_(file_size),
        file_(file),
        rules_(rules) {}

  bool Lost(std::uint64_t words) {
    words = Faults::LostWords(words);
    if (rules_.lost_words_as_c_int) return cb_.LostEvents(ring_, OcamlLostWords(words));
    // No producer writes 2^63 words; and lost words are reported as a signed 64-bit count.
    if (words >> 63 != 0) {
      Corrupt("lost words", "ring head " + std::to_string(words) + " words ahead of the reader");
      return false;
    }
    return cb_.LostEvents(ring_, words);
  }

  SinkAction Message(std::uint64_t, std::span<const std::uint64_t> w) {
    const std::uint64_t h = w[0];
    const std::uint64_t ts = Faults::Timestamp(w[1]);
    const unsigned id = Faults::Id(h);
    bool go = true;
    if (!Faults::IsUser(h)) {
      // Words copied from a vanished page read as zeros: never deliver them.
      if (file_.faulted()) return Corrupt("event", "the file shrank");
      switch (static_cast<RuntimeType>(Faults::Type(h))) {
        case RuntimeType::kBegin: go = cb_.RuntimeBegin(ring_, ts, id); break;
        case RuntimeType::kExit: go = cb_.RuntimeEnd(ring_, ts, id); break;
        case RuntimeType::kCounter:
          if (w.size() < 3) return Corrupt("counter event", "counter event without a value");
          go = cb_.RuntimeCounter(ring_, ts, id, w[2]);
          break;
        case RuntimeType::kAlloc:
          // OCaml delivers 20 buckets whatever the length: fewer are read from stale
          // memory (never copied), more are dropped (its verdict, ocaml-5.3).
          if (w.size() < 2 + kAllocBuckets ||
              (w.size() > 2 + kAllocBuckets && !rules_.extra_alloc_buckets_dropped)) {
            return Corrupt("alloc event", "alloc event of " + std::to_string(w.size() - 2) +
                                              " buckets, not " + std::to_string(kAllocBuckets));
          }
          go = cb_.Alloc(ring_, ts, Faults::AllocBuckets(w));
          break;
        case RuntimeType::kLifecycle:
          go = cb_.LifecycleEvent(
              ring_, ts, id,
              Faults::LifecycleHasData(w.size()) ? static_cast<std::int64_t>(w[2]) : 0);
          break;
        default: break;  // internal/flush and unknown types: counted, not delivered (as OCaml)
      }
    } else {
      const auto slot = PlaceNameSlot(meta_, size_, Faults::NameSlot(id));
      if (!slot.ok()) {
        return Corrupt("user event",
                       "user event id " + std::to_string(id) + " has no name slot in the file");
      }
      std::memcpy(name_, bytes_ + *slot, kUserEventNameBytes);
      const std::string_view name(name_, ::strnlen(name_, kUserEventNameBytes));
      if (file_.faulted()) return Corrupt("event", "the file shrank");
      const auto type = static_cast<UserType>(Faults::Type(h));
      // OCaml 5.3 registers the name of a unit, int or span event it meets unregistered,
      // and registering a name of 128 bytes (its slot, no NUL) raises Invalid_argument.
      if (rules_.unterminated_name_refused && name.size() == kUserEventNameBytes &&
          (type == UserType::kUnit || type == UserType::kInt || type == UserType::kSpanBegin ||
           type == UserType::kSpanEnd)) {
        return Corrupt("user event", "user event id " + std::to_string(id) +
                                         ": its name fills the 128-byte slot with no NUL "
                                         "(OCaml 5.3 cannot register it)");
      }
      switch (type) {
        case UserType::kUnit: go = cb_.UserUnit(ring_, ts, id, name); break;
        case UserType::kInt:
          if (w.size() < 3) return Corrupt("user int event", "user int event without a value");
          go = cb_.UserInt(ring_, ts, id, name, w[2]);
          break;
        case UserType::kSpanBegin:
        case UserType::kSpanEnd:
          go = cb_.UserSpan(ring_, ts, id, name, type == UserType::kSpanBegin);
          break;
        default:  // custom, and every unknown type, as OCaml
          // OCaml 5.3 finds no registered event for an empty name and drops the event
          // (counted) before it looks at the payload.
          if (rules_.nameless_custom_dropped && name.empty()) break;
          // OCaml copies the payload into a 1024-byte buffer: a longer one overflows it.
          if (w.size() - 2 > kMaxCustomPayloadWords) {
            return Corrupt("custom event", "custom event of " + std::to_string(w.size() - 2) +
                                               " payload words (a producer writes at most " +
                                               std::to_string(kMaxCustomPayloadWords) + ")");
          }
          go = cb_.UserCustom(ring_, ts, id, name, Faults::CustomPayload(w));
          break;
      }
    }
    return go ? SinkAction::kContinue : SinkAction::kStop;
  }

  const std::string& why() const { return why_; }
  // What the refused message was ("alloc event"), for the error's field.
  const std::string& what() const { return what_; }
  // Whether a callback answered kStop because the ring is corrupt (a Lost refused).
  bool failed() const { return !why_.empty(); }

 private:
  SinkAction Corrupt(std::string what, std::string why) {
    what_ = std::move(what);
    why_ = std::move(why);
    return SinkAction::kCorrupt;
  }
  EventCallbacks& cb_;
  std::uint32_t ring_;
  const std::byte* bytes_;  // the whole file
  const MetadataHeader& meta_;
  std::uint64_t size_;
  const MappedFile& file_;  // unmapped when reading bytes (never faults)
  RingRules rules_;
  char name_[kUserEventNameBytes];
  std::string what_;
  std::string why_;
};

}  // namespace internal

template <class Faults>
Result<std::uint64_t> Cursor::ReadPollWith(EventCallbacks& callbacks, std::uint64_t max_events) {
  State& s = *s_;
  if (!s.open) {
    return Status(ErrorCode::kFailedPrecondition, "E_CURSOR_NOT_OPEN: cursor was closed");
  }
  if (!s.gate.TryEnter()) {
    return Status(ErrorCode::kBusy, "E_CURSOR_POLL_BUSY: poll called concurrently or re-entrantly");
  }
  // Once a read has hit a vanished page the mapping holds zeros there: stay failed.
  // (No fstat per poll: it would cost a system call per poll, and the guard already
  // catches every read that a shrink affects.)
  if (s.file.faulted()) {
    s.gate.Leave();
    return s.file.CheckIntact();
  }
  const MetadataHeader& m = s.meta;
  auto* bytes = reinterpret_cast<std::byte*>(s.base);
  ReadRules rules;
  rules.message_within_tail = s.options.rules.message_within_tail;
  rules.tail_within_lap = s.options.rules.tail_within_lap;
  const ReadBuffer buffer{s.buffer, s.options.batch_messages};
  std::uint64_t total = 0;
  Status status;
  const std::uint64_t start = s.next_domain;
  for (std::uint64_t i = 0; i < m.max_domains; ++i) {
    if (max_events != 0 && total >= max_events) break;
    const std::uint64_t d = (start + i) % m.max_domains;
    // Strict files were placed whole at open; OCaml places each domain when it reaches it.
    const auto placed = PlaceDomain(m, s.size, d);
    if (!placed.ok()) {
      status = placed.status();
      break;
    }
    const DomainPlace place = Faults::Place(*placed, m, d, s.size);
    const std::uint32_t ring_index = Faults::RingIndex(d, i);
    internal::Decoder<Faults> decoder(callbacks, ring_index, bytes, m, s.size, s.file,
                                      s.options.rules);
    const std::uint64_t budget = max_events == 0 ? 0 : max_events - total;
    ReadResult r;
    if (place.header % 8 == 0 && place.data % 8 == 0) {
      MappedRing ring(reinterpret_cast<std::uint64_t*>(bytes + place.header),
                      reinterpret_cast<std::uint64_t*>(bytes + place.data), Faults::RingWords(m));
      r = ReadRing<sync::StdPlatform>(ring, &s.positions[d], decoder, budget, buffer, rules);
    } else {
      const UnalignedRing ring(bytes + place.header, bytes + place.data, Faults::RingWords(m));
      r = ReadRing<sync::StdPlatform>(ring, &s.positions[d], decoder, budget, buffer, rules);
    }
    total += r.consumed;
    if (r.padding_words != 0) callbacks.PaddingSkipped(ring_index, r.padding_words);
    s.next_domain = (d + 1) % m.max_domains;
    if (r.status == ReadStatus::kCorrupt || decoder.failed()) {
      const std::uint64_t word = r.at & (m.ring_size_elements - 1);
      std::string why = decoder.why();
      // The field names the message's kind when the decoder refused one ("ring 0: alloc
      // event"), so that a caller (or a declared difference) can tell the kinds apart.
      // The decoder sets its kind and reason together: no reason, no kind ("event"). A
      // tail lapped too far is "lap": OCaml reads on there, a difference declared apart.
      std::string what = decoder.what().empty() ? "event" : decoder.what();
      if (r.lapped_too_far) {
        what = "lap";
        why = "tail more than " + std::to_string(rules.max_lap_words) +
              " words beyond a lap of the ring (OCaml 5.3 re-reads the ring up to it)";
      } else if (why.empty()) {
        why = "event header does not fit the ring";
      }
      status = Status(ErrorCode::kCorrupt,
                      "E_CORRUPT_STREAM: " + why + " (ring position " + std::to_string(r.at) + ")")
                   .WithField("ring " + std::to_string(d) + ": " + what)
                   .AtOffset(place.data + 8 * word);
      break;
    }
    if (r.status != ReadStatus::kDrained) break;
  }
  // A read that hit a vanished page saw zeros: whatever it concluded, the file shrank.
  if (s.file.faulted()) status = s.file.CheckIntact();
  s.gate.Leave();
  if (!status.ok()) return status;
  // OCaml 5.0.0 returns Int_val(count) as a value: OCaml untags it once more.
  if (s.options.rules.poll_count_as_int_val) return total >> 2;
  return total;
}

template <class Faults>
Result<Cursor> Cursor::FromBytesWith(std::span<const std::byte> bytes, CursorOptions o) {
  auto cursor = FromBytes(bytes, o);
  if (cursor.ok()) {
    cursor->s_->poll = [](Cursor& c, EventCallbacks& cb, std::uint64_t max_events) {
      return c.ReadPollWith<Faults>(cb, max_events);
    };
  }
  return cursor;
}

}  // namespace mpo::ring
