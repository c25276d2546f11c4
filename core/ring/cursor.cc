#include "core/ring/cursor.h"

#include <cstring>
#include <utility>

#include "core/ring/mapped_file.h"
#include "core/ring/mapped_ring.h"
#include "core/ring/ring_protocol.h"
#include "core/ring/ring_switch.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {

bool EventCallbacks::RuntimeBegin(std::uint32_t, std::uint64_t, unsigned) { return true; }
bool EventCallbacks::RuntimeEnd(std::uint32_t, std::uint64_t, unsigned) { return true; }
bool EventCallbacks::RuntimeCounter(std::uint32_t, std::uint64_t, unsigned, std::uint64_t) {
  return true;
}
bool EventCallbacks::Alloc(std::uint32_t, std::uint64_t, std::span<const std::uint64_t>) {
  return true;
}
bool EventCallbacks::LifecycleEvent(std::uint32_t, std::uint64_t, unsigned, std::int64_t) {
  return true;
}
bool EventCallbacks::LostEvents(std::uint32_t, std::uint64_t) { return true; }
void EventCallbacks::PaddingSkipped(std::uint32_t, std::uint64_t) {}
bool EventCallbacks::UserUnit(std::uint32_t, std::uint64_t, unsigned, std::string_view) {
  return true;
}
bool EventCallbacks::UserInt(std::uint32_t, std::uint64_t, unsigned, std::string_view,
                             std::uint64_t) {
  return true;
}
bool EventCallbacks::UserSpan(std::uint32_t, std::uint64_t, unsigned, std::string_view, bool) {
  return true;
}
bool EventCallbacks::UserCustom(std::uint32_t, std::uint64_t, unsigned, std::string_view,
                                std::span<const std::uint64_t>) {
  return true;
}

Result<std::string_view> DecodeCustomPayload(std::span<const std::uint64_t> payload) {
  if (payload.empty()) {
    return Status(ErrorCode::kCorrupt, "custom event without payload words")
        .WithField("custom event: pad-count byte");
  }
  const std::size_t last = payload.size() * 8 - 1;
  unsigned char pad;
  std::memcpy(&pad, reinterpret_cast<const char*>(payload.data()) + last, 1);
  if (pad > last) {
    return Status(ErrorCode::kCorrupt, "pad count " + std::to_string(pad) + " exceeds payload of " +
                                           std::to_string(last) + " bytes")
        .WithField("custom event: pad-count byte");
  }
  return std::string_view(reinterpret_cast<const char*>(payload.data()), last - pad);
}

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
};

namespace {

// Turns ring messages into typed callbacks for one domain.
class Decoder {
 public:
  Decoder(EventCallbacks& cb, std::uint32_t ring, const std::byte* file_bytes,
          const MetadataHeader& meta, std::uint64_t file_size, const MappedFile& file,
          Verdicts verdicts)
      : cb_(cb),
        ring_(ring),
        bytes_(file_bytes),
        meta_(meta),
        size_(file_size),
        file_(file),
        verdicts_(verdicts) {}

  bool Lost(std::uint64_t words) {
    if (verdicts_ == Verdicts::kOcaml53) return cb_.LostEvents(ring_, OcamlLostWords(words));
    // No producer writes 2^63 words; and lost words are reported as a signed 64-bit count.
    if (words >> 63 != 0) {
      Corrupt("lost words", "ring head " + std::to_string(words) + " words ahead of the reader");
      return false;
    }
    return cb_.LostEvents(ring_, words);
  }

  SinkAction Message(std::uint64_t, std::span<const std::uint64_t> w) {
    const std::uint64_t h = w[0];
    const std::uint64_t ts = w[1];
    const unsigned id = header::Id(h);
    bool go = true;
    if (!header::IsUser(h)) {
      // Words copied from a vanished page read as zeros: never deliver them.
      if (file_.faulted()) return Corrupt("event", "the file shrank");
      switch (static_cast<RuntimeType>(header::Type(h))) {
        case RuntimeType::kBegin: go = cb_.RuntimeBegin(ring_, ts, id); break;
        case RuntimeType::kExit: go = cb_.RuntimeEnd(ring_, ts, id); break;
        case RuntimeType::kCounter:
          if (w.size() < 3) return Corrupt("counter event", "counter event without a value");
          go = cb_.RuntimeCounter(ring_, ts, id, w[2]);
          break;
        case RuntimeType::kAlloc:
          // OCaml delivers 20 buckets whatever the length: fewer are read from stale
          // memory (never copied), more are dropped (its verdict, kOcaml53).
          if (w.size() < 2 + kAllocBuckets ||
              (w.size() > 2 + kAllocBuckets && verdicts_ != Verdicts::kOcaml53)) {
            return Corrupt("alloc event", "alloc event of " + std::to_string(w.size() - 2) +
                                              " buckets, not " + std::to_string(kAllocBuckets));
          }
          go = cb_.Alloc(ring_, ts, w.subspan(2, kAllocBuckets));
          break;
        case RuntimeType::kLifecycle:
          go =
              cb_.LifecycleEvent(ring_, ts, id, w.size() > 2 ? static_cast<std::int64_t>(w[2]) : 0);
          break;
        default: break;  // internal/flush and unknown types: counted, not delivered (as OCaml)
      }
    } else {
      const auto slot = PlaceNameSlot(meta_, size_, id);
      if (!slot.ok()) {
        return Corrupt("user event",
                       "user event id " + std::to_string(id) + " has no name slot in the file");
      }
      std::memcpy(name_, bytes_ + *slot, kUserEventNameBytes);
      const std::string_view name(name_, ::strnlen(name_, kUserEventNameBytes));
      if (file_.faulted()) return Corrupt("event", "the file shrank");
      const auto type = static_cast<UserType>(header::Type(h));
      // OCaml 5.3 registers the name of a unit, int or span event it meets unregistered,
      // and registering a name of 128 bytes (its slot, no NUL) raises Invalid_argument.
      if (verdicts_ == Verdicts::kOcaml53 && name.size() == kUserEventNameBytes &&
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
          if (verdicts_ == Verdicts::kOcaml53 && name.empty()) break;
          // OCaml copies the payload into a 1024-byte buffer: a longer one overflows it.
          if (w.size() - 2 > kMaxCustomPayloadWords) {
            return Corrupt("custom event", "custom event of " + std::to_string(w.size() - 2) +
                                               " payload words (a producer writes at most " +
                                               std::to_string(kMaxCustomPayloadWords) + ")");
          }
          go = cb_.UserCustom(ring_, ts, id, name, w.subspan(2));
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
  Verdicts verdicts_;
  char name_[kUserEventNameBytes];
  std::string what_;
  std::string why_;
};

}  // namespace

Cursor::Cursor(std::unique_ptr<State> s) : s_(std::move(s)) {}
Cursor::Cursor(Cursor&&) noexcept = default;
Cursor& Cursor::operator=(Cursor&&) noexcept = default;
Cursor::~Cursor() = default;

Result<Cursor> Cursor::Build(std::unique_ptr<State> s, CursorOptions o) {
  if (s->size < kMetadataHeaderBytes) {
    return ValidateMetadata(MetadataHeader{}, s->size);
  }
  std::memcpy(&s->meta, s->base, sizeof(MetadataHeader));
  MPO_RETURN_IF_ERROR(s->file.CheckIntact());
  MPO_RETURN_IF_ERROR(ValidateMetadata(s->meta, s->size, o.verdicts));
  s->positions.assign(s->meta.max_domains, 0);
  s->options = o;
  if (s->options.batch_messages == 0) s->options.batch_messages = 1;
  s->buffer.assign(4 * kMaxMessageWords, 0);
  return Cursor(std::move(s));
}

Result<Cursor> Cursor::OpenFile(const std::string& path, CursorOptions o) {
  auto file = MappedFile::OpenReadOnly(path);
  if (!file.ok()) return file.status();
  auto s = std::make_unique<State>();
  s->file = std::move(*file);
  // The mapping is page aligned; the protocol only loads through this pointer.
  s->base = reinterpret_cast<std::uint64_t*>(s->file.data());
  s->size = s->file.size();
  return Build(std::move(s), o);
}

Result<Cursor> Cursor::Open(const std::string& dir, std::int64_t pid, CursorOptions o) {
  if (pid < 0) {
    return Status(ErrorCode::kInvalidArgument, "E_PATH_FAILURE: negative pid").WithField("pid");
  }
  const std::string name = std::to_string(pid) + ".events";
  return OpenFile(dir.empty() ? name : dir + "/" + name, o);
}

Result<Cursor> Cursor::OpenCurrent(const std::string& current_path, CursorOptions o) {
  if (current_path.empty()) {
    return Status(ErrorCode::kFailedPrecondition,
                  "E_NO_CURRENT_RING: runtime events were not started in this process");
  }
  return OpenFile(current_path, o);
}

Result<Cursor> Cursor::FromBytes(std::span<const std::byte> bytes, CursorOptions o) {
  auto s = std::make_unique<State>();
  s->copy.assign((bytes.size() + 7) / 8, 0);
  if (!bytes.empty()) std::memcpy(s->copy.data(), bytes.data(), bytes.size());
  s->base = s->copy.data();
  s->size = bytes.size();
  return Build(std::move(s), o);
}

const MetadataHeader& Cursor::metadata() const { return s_->meta; }

void Cursor::Close() {
  s_->open = false;
  s_->file.Close(false);
}

Result<std::uint64_t> Cursor::ReadPoll(EventCallbacks& callbacks, std::uint64_t max_events) {
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
  const bool ocaml = s.options.verdicts == Verdicts::kOcaml53;
  ReadRules rules;
  rules.message_within_tail = !ocaml;
  rules.tail_within_lap = !ocaml;
  const ReadBuffer buffer{s.buffer, s.options.batch_messages};
  std::uint64_t total = 0;
  Status status;
  const std::uint64_t start = s.next_domain;
  for (std::uint64_t i = 0; i < m.max_domains; ++i) {
    if (max_events != 0 && total >= max_events) break;
    const std::uint64_t d = (start + i) % m.max_domains;
    // Strict files were placed whole at open; OCaml places each domain when it reaches it.
    const auto place = PlaceDomain(m, s.size, d);
    if (!place.ok()) {
      status = place.status();
      break;
    }
    Decoder decoder(callbacks, static_cast<std::uint32_t>(d), bytes, m, s.size, s.file,
                    s.options.verdicts);
    const std::uint64_t budget = max_events == 0 ? 0 : max_events - total;
    ReadResult r;
    if (place->header % 8 == 0 && place->data % 8 == 0) {
      MappedRing ring(reinterpret_cast<std::uint64_t*>(bytes + place->header),
                      reinterpret_cast<std::uint64_t*>(bytes + place->data), m.ring_size_elements);
      r = ReadRing<sync::StdPlatform>(ring, &s.positions[d], decoder, budget, buffer, rules);
    } else {
      const UnalignedRing ring(bytes + place->header, bytes + place->data, m.ring_size_elements);
      r = ReadRing<sync::StdPlatform>(ring, &s.positions[d], decoder, budget, buffer, rules);
    }
    total += r.consumed;
    if (r.padding_words != 0)
      callbacks.PaddingSkipped(static_cast<std::uint32_t>(d), r.padding_words);
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
                   .AtOffset(place->data + 8 * word);
      break;
    }
    if (r.status != ReadStatus::kDrained) break;
  }
  // A read that hit a vanished page saw zeros: whatever it concluded, the file shrank.
  if (s.file.faulted()) status = s.file.CheckIntact();
  s.gate.Leave();
  if (!status.ok()) return status;
  return total;
}

}  // namespace mpo::ring
