#include "core/export/fuchsia_trace.h"

#include <algorithm>
#include <utility>

#include "core/base/ocaml_quoted.h"

namespace mpo::exporter {

using Kind = ring::view::EventKind;

namespace {

// Record types (header bits 0..3).
constexpr std::uint64_t kMetadataRecord = 0;
constexpr std::uint64_t kInitializationRecord = 1;
constexpr std::uint64_t kStringRecord = 2;
constexpr std::uint64_t kThreadRecord = 3;
constexpr std::uint64_t kEventRecord = 4;
constexpr std::uint64_t kKernelObjectRecord = 7;
// Metadata types (bits 16..19).
constexpr std::uint64_t kProviderInfo = 1;
constexpr std::uint64_t kProviderSection = 2;
// Event types (bits 16..19 of an event record).
constexpr std::uint8_t kInstant = 0;
constexpr std::uint8_t kCounter = 1;
constexpr std::uint8_t kDurationBegin = 2;
constexpr std::uint8_t kDurationEnd = 3;
// Argument types (bits 0..3 of an argument header).
constexpr std::uint8_t kArgInt64 = 3;
constexpr std::uint8_t kArgString = 6;
constexpr std::uint8_t kArgKoid = 8;
// Kernel object types.
constexpr std::uint64_t kObjProcess = 1;
constexpr std::uint64_t kObjThread = 2;

// The magic number record: a trace-info metadata record of one word.
constexpr std::uint64_t kMagic = 0x0016547846040010;
constexpr std::uint64_t kProviderId = 1;
constexpr std::string_view kProviderName = "memprof-oracle";
constexpr std::uint64_t kTicksPerSecond = 1'000'000'000;
constexpr std::uint16_t kInlineFlag = 0x8000;
constexpr std::size_t kMaxStringIndex = 0x7fff;
constexpr std::size_t kMaxThreadIndex = 255;
constexpr std::size_t kFlushBytes = 1 << 18;

constexpr std::uint64_t PaddedWords(std::size_t bytes) { return (bytes + 7) / 8; }

constexpr std::uint64_t Header(std::uint64_t type, std::uint64_t words) {
  return type | (words << 4);
}

std::uint16_t ThreadRef(std::uint32_t ring) {
  return ring < kMaxThreadIndex ? static_cast<std::uint16_t>(ring + 1) : 0;
}

std::string_view Category(Kind k) {
  switch (k) {
    case Kind::kBegin:
    case Kind::kEnd:
    case Kind::kCounter: return "runtime";
    case Kind::kUserSpanBegin:
    case Kind::kUserSpanEnd: return "user";
    default: return ring::view::KindName(k);
  }
}

}  // namespace

FuchsiaTraceWriter::FuchsiaTraceWriter(std::int64_t pid,
                                       std::function<void(std::string_view)> write)
    : pid_(pid),
      write_(std::move(write)),
      timeline_([this](const TimelineItem& item) { EmitItem(item); }) {
  Word(kMagic);
  Word(Header(kMetadataRecord, 1 + PaddedWords(kProviderName.size())) | (kProviderInfo << 16) |
       (kProviderId << 20) | (std::uint64_t{kProviderName.size()} << 52));
  Bytes(kProviderName);
  Word(Header(kMetadataRecord, 1) | (kProviderSection << 16) | (kProviderId << 20));
  Word(Header(kInitializationRecord, 2));
  Word(kTicksPerSecond);
  const std::string name = "OCaml process " + std::to_string(pid_);
  const StrRef ref = Intern(name);
  Word(Header(kKernelObjectRecord, 2 + PaddedWords(ref.inline_bytes.size())) | (kObjProcess << 16) |
       (std::uint64_t{ref.ref} << 24));
  Word(static_cast<std::uint64_t>(pid_));
  Bytes(ref.inline_bytes);
  MaybeFlush();
}

void FuchsiaTraceWriter::Word(std::uint64_t w) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(w >> (8 * i));  // little-endian
  buffer_.append(b, 8);
}

void FuchsiaTraceWriter::Bytes(std::string_view s) {
  buffer_.append(s);
  buffer_.append(PaddedWords(s.size()) * 8 - s.size(), '\0');
}

void FuchsiaTraceWriter::MaybeFlush() {
  if (buffer_.size() < kFlushBytes) return;
  write_(buffer_);
  buffer_.clear();
}

FuchsiaTraceWriter::StrRef FuchsiaTraceWriter::Intern(std::string_view s) {
  s = s.substr(0, kMaxString);
  if (s.empty()) return {0, {}};
  if (const auto it = strings_.find(std::string(s)); it != strings_.end()) return {it->second, {}};
  if (strings_.size() == kMaxStringIndex) return Inline(s);
  const auto index = static_cast<std::uint16_t>(strings_.size() + 1);
  strings_.emplace(std::string(s), index);
  Word(Header(kStringRecord, 1 + PaddedWords(s.size())) | (std::uint64_t{index} << 16) |
       (std::uint64_t{s.size()} << 32));
  Bytes(s);
  return {index, {}};
}

FuchsiaTraceWriter::StrRef FuchsiaTraceWriter::Inline(std::string_view s) {
  s = s.substr(0, kMaxString);
  return {static_cast<std::uint16_t>(s.empty() ? 0 : kInlineFlag | s.size()), s};
}

void FuchsiaTraceWriter::WriteThread(std::uint32_t ring) {
  const std::string name = "domain " + std::to_string(ring);
  const StrRef name_ref = Intern(name);
  const StrRef process_ref = Intern("process");
  if (const std::uint16_t t = ThreadRef(ring); t != 0) {
    Word(Header(kThreadRecord, 3) | (std::uint64_t{t} << 16));
    Word(static_cast<std::uint64_t>(pid_));
    Word(ring);
  }
  // A thread object: its name, and the process it belongs to as a koid argument.
  const std::uint64_t arg_words = 2 + PaddedWords(process_ref.inline_bytes.size());
  Word(Header(kKernelObjectRecord, 2 + PaddedWords(name_ref.inline_bytes.size()) + arg_words) |
       (kObjThread << 16) | (std::uint64_t{name_ref.ref} << 24) | (std::uint64_t{1} << 40));
  Word(ring);
  Bytes(name_ref.inline_bytes);
  Word(Header(kArgKoid, arg_words) | (std::uint64_t{process_ref.ref} << 16));
  Bytes(process_ref.inline_bytes);
  Word(static_cast<std::uint64_t>(pid_));
}

void FuchsiaTraceWriter::WriteEvent(std::uint8_t type, const RingEvent& e, std::uint64_t ts,
                                    std::string_view cat, std::string_view name, const Arg* args,
                                    std::size_t nargs, bool counter_id) {
  const StrRef cat_ref = Intern(cat);
  const StrRef name_ref = Intern(name);
  const std::uint16_t thread = ThreadRef(e.ring);
  std::uint64_t words = 2 + (thread == 0 ? 2 : 0) + PaddedWords(cat_ref.inline_bytes.size()) +
                        PaddedWords(name_ref.inline_bytes.size()) + (counter_id ? 1 : 0);
  auto arg_words = [](const Arg& a) {
    return 1 + PaddedWords(a.name.inline_bytes.size()) +
           (a.type == kArgString ? PaddedWords(a.value.inline_bytes.size()) : 1);
  };
  for (std::size_t i = 0; i < nargs; ++i) words += arg_words(args[i]);
  Word(Header(kEventRecord, words) | (std::uint64_t{type} << 16) | (std::uint64_t{nargs} << 20) |
       (std::uint64_t{thread} << 24) | (std::uint64_t{cat_ref.ref} << 32) |
       (std::uint64_t{name_ref.ref} << 48));
  Word(ts);
  if (thread == 0) {
    Word(static_cast<std::uint64_t>(pid_));
    Word(e.ring);
  }
  Bytes(cat_ref.inline_bytes);
  Bytes(name_ref.inline_bytes);
  for (std::size_t i = 0; i < nargs; ++i) {
    const Arg& a = args[i];
    std::uint64_t h = Header(a.type, arg_words(a)) | (std::uint64_t{a.name.ref} << 16);
    if (a.type == kArgString) h |= std::uint64_t{a.value.ref} << 32;
    Word(h);
    Bytes(a.name.inline_bytes);
    if (a.type == kArgString) {
      Bytes(a.value.inline_bytes);
    } else {
      Word(a.word);
    }
  }
  if (counter_id) Word(e.ring);
  MaybeFlush();
}

void FuchsiaTraceWriter::EmitItem(const TimelineItem& item) {
  const RingEvent& e = item.event;
  if (item.kind == TimelineKind::kThread) return WriteThread(e.ring);
  // At most two arguments: the event's value and a note. Strings are interned (which
  // writes string records) before the event record starts.
  Arg args[2];
  std::size_t n = 0;
  auto int_arg = [&](std::string_view name, std::int64_t v) {
    args[n++] = {kArgInt64, Intern(name), static_cast<std::uint64_t>(v), {}};
  };
  auto string_arg = [&](std::string_view name, StrRef v) {
    args[n++] = {kArgString, Intern(name), 0, v};
  };
  std::uint8_t type = kInstant;
  std::string_view name = e.name;
  switch (item.kind) {
    case TimelineKind::kBegin: type = kDurationBegin; break;
    case TimelineKind::kEnd: type = kDurationEnd; break;
    case TimelineKind::kCounter:
      type = kCounter;
      scratch_.assign(e.name);
      scratch_ += " (domain " + std::to_string(e.ring) + ")";
      name = scratch_;
      int_arg("value", ring::OcamlIntOfPayload(e.value));
      break;
    default:
      switch (e.kind) {
        case Kind::kLifecycle:
          if (e.data != 0) int_arg("data", e.data);
          break;
        case Kind::kLostEvents:
          int_arg("words", static_cast<std::int64_t>(std::min<std::uint64_t>(e.value, INT64_MAX)));
          break;
        case Kind::kUserCustom: {
          // OCaml's %S escaping without the quotes: ASCII whatever the bytes.
          const std::string quoted = OcamlQuoted(e.payload);
          scratch2_.assign(quoted, 1, quoted.size() - 2);
          string_arg("payload", Inline(scratch2_));
          break;
        }
        case Kind::kAlloc: {
          scratch2_ = "[";
          for (std::size_t i = 0; i < e.buckets.size(); ++i) {
            if (i > 0) scratch2_ += ',';
            scratch2_ += std::to_string(ring::OcamlIntOfPayload(e.buckets[i]));
          }
          scratch2_ += ']';
          string_arg("buckets", Inline(scratch2_));
          break;
        }
        default: break;
      }
      break;
  }
  if (item.note != TimelineNote::kNone) string_arg("note", Intern(TimelineNoteText(item.note)));
  WriteEvent(type, e, item.ts, Category(e.kind), name, args, n, type == kCounter);
}

void FuchsiaTraceWriter::Finish() {
  timeline_.Finish();
  if (!buffer_.empty()) write_(buffer_);
  buffer_.clear();
}

}  // namespace mpo::exporter
