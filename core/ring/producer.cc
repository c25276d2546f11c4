#include "core/ring/producer.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ring/mapped_file.h"
#include "core/ring/mapped_ring.h"
#include "core/ring/ring_protocol.h"
#include "core/ring/ring_switch.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {

std::uint64_t MonotonicNanoseconds() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::optional<unsigned> RingLog2WordsOfRunParam(std::string_view param) {
  std::optional<unsigned> found;
  while (!param.empty()) {
    const std::size_t comma = param.find(',');
    const std::string_view opt = param.substr(0, comma);
    param = comma == std::string_view::npos ? std::string_view() : param.substr(comma + 1);
    if (opt.size() < 3 || opt.substr(0, 2) != "e=" || opt.size() > 4) continue;
    unsigned v = 0;
    bool digits = true;
    for (const char c : opt.substr(2)) {
      if (c < '0' || c > '9') digits = false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    // A later option overrides an earlier one, as in OCaml's parser.
    if (digits) found = v;
  }
  return found;
}

ProducerOptions ProducerOptions::FromEnvironment(bool* start_now) {
  ProducerOptions o;
  // OCaml reads OCAMLRUNPARAM, else CAMLRUNPARAM; `e=N` is the log2 ring size in words.
  const char* param = std::getenv("OCAMLRUNPARAM");
  if (param == nullptr) param = std::getenv("CAMLRUNPARAM");
  if (param != nullptr) {
    if (auto e = RingLog2WordsOfRunParam(param)) o.ring_log2_words = *e;
  }
  if (const char* dir = std::getenv("OCAML_RUNTIME_EVENTS_DIR")) o.dir = dir;
  o.preserve = std::getenv("OCAML_RUNTIME_EVENTS_PRESERVE") != nullptr;
  if (start_now != nullptr) *start_now = std::getenv("OCAML_RUNTIME_EVENTS_START") != nullptr;
  return o;
}

struct RuntimeEvents::State {
  ProducerOptions options;
  FileGeometry geometry;
  MappedFile file;
  std::uint64_t* words = nullptr;  // the mapping, as words
  RingSwitch<sync::StdPlatform> sw;
  // Guards names and slot writes. A std::mutex, not the sync layer's: it only orders
  // registration against Start/Stop, with no lock-free side; the lock-free part (the
  // switch, the rings) is on the sync layer, which models/ring checks. TSan runs
  // stress_test, whose producers register and write concurrently.
  std::mutex names_mutex;
  std::vector<std::string> names;

  MappedRing Ring(std::uint32_t d) const {
    return MappedRing(words + (geometry.HeadersOffset() + d * kRingHeaderBytes) / 8,
                      words + (geometry.DataOffset() + d * geometry.ring_words * 8) / 8,
                      geometry.ring_words);
  }
  void WriteName(std::size_t index) {
    auto* slot = reinterpret_cast<char*>(file.data()) + geometry.CustomEventsOffset() +
                 index * kUserEventNameBytes;
    std::memset(slot, 0, kUserEventNameBytes);
    // Names are at most 127 bytes, so the zeroed slot keeps a terminating NUL.
    std::copy_n(names[index].data(), names[index].size(), slot);
  }
};

RuntimeEvents::RuntimeEvents(ProducerOptions options) : s_(std::make_unique<State>()) {
  s_->options = std::move(options);
}

RuntimeEvents::~RuntimeEvents() { (void)Stop(0); }

Status RuntimeEvents::Start(std::uint32_t domain) {
  State& s = *s_;
  if (s.sw.Enabled()) return Status::Ok();
  const ProducerOptions& o = s.options;
  if (o.ring_log2_words < 4 || o.ring_log2_words > 26) {
    return Status(ErrorCode::kInvalidArgument, "ring size must be 2^4 .. 2^26 words")
        .WithField("ring_log2_words");
  }
  if (o.max_domains == 0 || o.max_domains > kMaxDomainsLimit) {
    return Status(ErrorCode::kInvalidArgument, "max_domains must be in [1, 4096]")
        .WithField("max_domains");
  }
  if (domain >= o.max_domains) {
    return Status(ErrorCode::kInvalidArgument, "domain beyond max_domains").WithField("domain");
  }
  s.geometry = FileGeometry{o.max_domains, std::uint64_t{1} << o.ring_log2_words};
  const std::int64_t pid = o.pid != 0 ? o.pid : ::getpid();
  const std::string name = std::to_string(pid) + ".events";
  auto file = MappedFile::Create(o.dir.empty() ? name : o.dir + "/" + name, s.geometry.FileSize());
  if (!file.ok()) return file.status();
  s.file = std::move(*file);
  s.words = reinterpret_cast<std::uint64_t*>(s.file.data());
  const MetadataHeader header = s.geometry.Header();
  std::memcpy(s.file.data(), &header, sizeof header);  // ring headers are zero already
  {
    std::lock_guard<std::mutex> lock(s.names_mutex);
    for (std::size_t i = 0; i < s.names.size(); ++i) s.WriteName(i);
    s.sw.SetEnabled(true);
  }
  s.sw.ClearPause();
  return LifecycleEvent(domain, Lifecycle::kRingStart, pid);
}

Status RuntimeEvents::Stop(std::uint32_t domain) {
  State& s = *s_;
  if (!s.sw.Enabled()) return Status::Ok();
  Status st = LifecycleEvent(domain, Lifecycle::kRingStop, 0);
  {
    std::lock_guard<std::mutex> lock(s.names_mutex);
    s.sw.SetEnabled(false);
  }
  s.file.Close(!s.options.preserve);
  s.words = nullptr;
  return st;
}

Status RuntimeEvents::AfterForkInParent(std::int64_t child_pid, std::uint32_t domain) {
  return LifecycleEvent(domain, Lifecycle::kForkParent, child_pid);
}

Status RuntimeEvents::AfterForkInChild(std::uint32_t domain) {
  State& s = *s_;
  if (!s.sw.Enabled()) return Status::Ok();
  {
    std::lock_guard<std::mutex> lock(s.names_mutex);
    s.sw.SetEnabled(false);
  }
  s.file.Close(/*remove_file=*/false);
  s.words = nullptr;
  s.options.pid = 0;  // the child's own pid
  MPO_RETURN_IF_ERROR(Start(domain));
  return LifecycleEvent(domain, Lifecycle::kForkChild, 0);
}

void RuntimeEvents::Pause(std::uint32_t domain) {
  if (s_->sw.Pause()) {
    const std::array<std::uint64_t, 1> data{0};
    (void)Append(domain, false, static_cast<unsigned>(RuntimeType::kLifecycle),
                 static_cast<unsigned>(Lifecycle::kRingPause), data, /*even_if_paused=*/true);
  }
}

void RuntimeEvents::Resume(std::uint32_t domain) {
  if (s_->sw.Resume()) (void)LifecycleEvent(domain, Lifecycle::kRingResume, 0);
}

bool RuntimeEvents::IsActive() const { return s_->sw.Active(); }

std::string RuntimeEvents::path() const {
  return s_->sw.Enabled() ? s_->file.path() : std::string();
}

Status RuntimeEvents::Write(std::uint32_t domain, bool user, unsigned type, unsigned id,
                            std::span<const std::uint64_t> payload) {
  return Append(domain, user, type, id, payload, /*even_if_paused=*/false);
}

Status RuntimeEvents::Append(std::uint32_t domain, bool user, unsigned type, unsigned id,
                             std::span<const std::uint64_t> payload, bool even_if_paused) {
  State& s = *s_;
  if (even_if_paused ? !s.sw.Enabled() : !s.sw.Active()) return Status::Ok();
  if (domain >= s.geometry.max_domains) {
    return Status(ErrorCode::kInvalidArgument, "domain " + std::to_string(domain) +
                                                   " beyond max_domains " +
                                                   std::to_string(s.geometry.max_domains))
        .WithField("domain");
  }
  MappedRing ring = s.Ring(domain);
  const std::uint64_t ts = s.options.clock ? s.options.clock() : MonotonicNanoseconds();
  switch (WriteEvent<sync::StdPlatform>(ring, user, type, id, ts, payload)) {
    case WriteOutcome::kWritten: return Status::Ok();
    case WriteOutcome::kTooLarge:
      return Status(ErrorCode::kInvalidArgument, "event of " + std::to_string(payload.size() + 2) +
                                                     " words exceeds half the ring (" +
                                                     std::to_string(ring.SizeWords()) +
                                                     " words) or 1023 words")
          .WithField("event length");
    case WriteOutcome::kCorruptRing:
      return Status(ErrorCode::kCorrupt, "ring headers overwritten by someone else")
          .WithField("ring " + std::to_string(domain));
  }
  return Status(ErrorCode::kInternal, "unreachable");
}

Status RuntimeEvents::Begin(std::uint32_t domain, unsigned phase) {
  return Write(domain, false, static_cast<unsigned>(RuntimeType::kBegin), phase, {});
}

Status RuntimeEvents::End(std::uint32_t domain, unsigned phase) {
  return Write(domain, false, static_cast<unsigned>(RuntimeType::kExit), phase, {});
}

Status RuntimeEvents::Counter(std::uint32_t domain, unsigned counter, std::uint64_t value) {
  const std::array<std::uint64_t, 1> p{value};
  return Write(domain, false, static_cast<unsigned>(RuntimeType::kCounter), counter, p);
}

Status RuntimeEvents::LifecycleEvent(std::uint32_t domain, Lifecycle kind, std::int64_t data) {
  // ring_stop carries no payload in OCaml; every other lifecycle event one word.
  const std::array<std::uint64_t, 1> p{static_cast<std::uint64_t>(data)};
  const std::span<const std::uint64_t> payload =
      kind == Lifecycle::kRingStop ? std::span<const std::uint64_t>() : std::span(p);
  return Write(domain, false, static_cast<unsigned>(RuntimeType::kLifecycle),
               static_cast<unsigned>(kind), payload);
}

Status RuntimeEvents::Alloc(std::uint32_t domain,
                            std::span<const std::uint64_t, kAllocBuckets> buckets) {
  return Write(domain, false, static_cast<unsigned>(RuntimeType::kAlloc), 0, buckets);
}

Result<unsigned> RuntimeEvents::RegisterUserEvent(std::string_view name) {
  if (name.size() > kUserEventNameBytes - 1) {
    return Status(ErrorCode::kInvalidArgument,
                  "name of " + std::to_string(name.size()) + " bytes, at most 127")
        .WithField("user event name");
  }
  if (name.find('\0') != std::string_view::npos) {
    return Status(ErrorCode::kInvalidArgument, "name contains a NUL byte")
        .WithField("user event name");
  }
  State& s = *s_;
  std::lock_guard<std::mutex> lock(s.names_mutex);
  if (s.names.size() >= kMaxUserEvents) {
    return Status(ErrorCode::kOutOfRange, "8192 user events already registered")
        .WithField("user event index");
  }
  s.names.emplace_back(name);
  const std::size_t index = s.names.size() - 1;
  if (s.sw.Enabled()) s.WriteName(index);
  return static_cast<unsigned>(index);
}

namespace {
Status CheckId(unsigned id) {
  if (id >= kMaxUserEvents) {
    return Status(ErrorCode::kInvalidArgument, "user event id beyond 8191").WithField("id");
  }
  return Status::Ok();
}
}  // namespace

Status RuntimeEvents::UserUnit(std::uint32_t domain, unsigned id) {
  MPO_RETURN_IF_ERROR(CheckId(id));
  return Write(domain, true, static_cast<unsigned>(UserType::kUnit), id, {});
}

Status RuntimeEvents::UserInt(std::uint32_t domain, unsigned id, std::int64_t value) {
  MPO_RETURN_IF_ERROR(CheckId(id));
  const std::array<std::uint64_t, 1> p{static_cast<std::uint64_t>(value)};
  return Write(domain, true, static_cast<unsigned>(UserType::kInt), id, p);
}

Status RuntimeEvents::UserSpan(std::uint32_t domain, unsigned id, bool begin) {
  MPO_RETURN_IF_ERROR(CheckId(id));
  return Write(domain, true,
               static_cast<unsigned>(begin ? UserType::kSpanBegin : UserType::kSpanEnd), id, {});
}

Status RuntimeEvents::UserCustom(std::uint32_t domain, unsigned id,
                                 std::span<const std::byte> bytes) {
  MPO_RETURN_IF_ERROR(CheckId(id));
  if (bytes.size() > kMaxCustomPayloadBytes) {
    return Status(ErrorCode::kInvalidArgument,
                  "custom payload of " + std::to_string(bytes.size()) + " bytes, at most 1024")
        .WithField("custom payload");
  }
  // OCaml's encoding: whole words, the last byte of the last word counting the unused
  // bytes before it.
  std::array<std::uint64_t, kMaxCustomPayloadBytes / 8 + 1> words{};
  const std::size_t n_words = (bytes.size() + 8) / 8;
  auto* raw = reinterpret_cast<unsigned char*>(words.data());
  if (!bytes.empty()) std::memcpy(raw, bytes.data(), bytes.size());
  const std::size_t last = n_words * 8 - 1;
  raw[last] = static_cast<unsigned char>(last - bytes.size());
  return Write(domain, true, static_cast<unsigned>(UserType::kCustom), id,
               std::span<const std::uint64_t>(words.data(), n_words));
}

}  // namespace mpo::ring
