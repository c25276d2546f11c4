#include "core/tracer/ring_reporter.h"

#include <unistd.h>

#include <string>

#include "core/ring/event_names.h"

namespace mpo::tracer {
namespace {

template <class NameOf>
Result<unsigned> Find(std::string_view kind, std::string_view name, NameOf name_of) {
  // Both lists are well under 256 entries in every release.
  for (unsigned id = 0; id < 256; ++id) {
    auto n = name_of(ring::OcamlVersion::k5_3, id);
    if (!n) break;
    if (*n == name) return id;
  }
  return Status(ErrorCode::kNotFound,
                "no " + std::string(kind) + " named " + std::string(name) + " in OCaml 5.3");
}

}  // namespace

Result<unsigned> Phase53(std::string_view name) { return Find("phase", name, ring::PhaseName); }
Result<unsigned> Counter53(std::string_view name) {
  return Find("counter", name, ring::CounterName);
}

Result<MemprofPhases> MemprofPhases::Resolve() {
  MemprofPhases p{};
  struct Slot {
    unsigned* id;
    const char* name;
  };
  const Slot phases[] = {{&p.minor, "minor"},
                         {&p.minor_local_roots, "minor_local_roots"},
                         {&p.minor_memprof_roots, "minor_memprof_roots"},
                         {&p.minor_memprof_clean, "minor_memprof_clean"},
                         {&p.major, "major"},
                         {&p.major_mark_roots, "major_mark_roots"},
                         {&p.major_memprof_roots, "major_memprof_roots"},
                         {&p.major_mark, "major_mark"},
                         {&p.major_sweep, "major_sweep"},
                         {&p.major_memprof_clean, "major_memprof_clean"}};
  for (const Slot& s : phases) {
    auto id = Phase53(s.name);
    if (!id.ok()) return id.status();
    *s.id = *id;
  }
  auto c = Counter53("minor_allocated");
  if (!c.ok()) return c.status();
  p.minor_allocated = *c;
  return p;
}

Result<std::unique_ptr<RingReporter>> RingReporter::Start(ring::ProducerOptions options) {
  auto ids = MemprofPhases::Resolve();
  if (!ids.ok()) return ids.status();
  const std::int64_t pid = options.pid != 0 ? options.pid : static_cast<std::int64_t>(getpid());
  options.pid = pid;
  const std::uint64_t ring_words = std::uint64_t{1} << options.ring_log2_words;
  const std::uint64_t domains = options.max_domains;
  auto producer = std::make_unique<ring::RuntimeEvents>(std::move(options));
  MPO_RETURN_IF_ERROR(producer->Start(0));
  std::unique_ptr<RingReporter> r(
      new RingReporter(std::move(producer), *ids, pid, ring_words, domains));
  r->written_.lifecycle = 1;  // ring_start
  r->Account(0, kLifecycleEventWords);
  return r;
}

// The producer's rule (ring_protocol.h WriteEvent): an event never straddles the ring's
// end; the words up to the end become one padding message.
void RingReporter::Account(std::uint32_t domain, std::uint64_t words) {
  if (domain >= tails_.size()) return;
  std::uint64_t& tail = tails_[domain];
  const std::uint64_t to_end = ring_words_ - (tail & (ring_words_ - 1));
  if (to_end < words) {
    written_.padding_words += to_end;
    written_.words += to_end;
    tail += to_end;
  }
  tail += words;
  written_.words += words;
}

RingReporter::~RingReporter() { (void)Stop(); }

Status RingReporter::Begin(std::uint32_t domain, unsigned phase) {
  if (stopped_) return Status::Ok();
  MPO_RETURN_IF_ERROR(producer_->Begin(domain, phase));
  ++written_.begins;
  Account(domain, kPhaseEventWords);
  return Status::Ok();
}

Status RingReporter::End(std::uint32_t domain, unsigned phase) {
  if (stopped_) return Status::Ok();
  MPO_RETURN_IF_ERROR(producer_->End(domain, phase));
  ++written_.ends;
  Account(domain, kPhaseEventWords);
  return Status::Ok();
}

Status RingReporter::Counter(std::uint32_t domain, unsigned counter, std::uint64_t value) {
  if (stopped_) return Status::Ok();
  MPO_RETURN_IF_ERROR(producer_->Counter(domain, counter, value));
  ++written_.counters;
  Account(domain, kCounterEventWords);
  return Status::Ok();
}

Status RingReporter::DomainSpawn(std::uint32_t domain) {
  if (stopped_) return Status::Ok();
  MPO_RETURN_IF_ERROR(producer_->LifecycleEvent(domain, ring::Lifecycle::kDomainSpawn, pid_));
  ++written_.lifecycle;
  Account(domain, kLifecycleEventWords);
  return Status::Ok();
}

Status RingReporter::DomainTerminate(std::uint32_t domain) {
  if (stopped_) return Status::Ok();
  MPO_RETURN_IF_ERROR(producer_->LifecycleEvent(domain, ring::Lifecycle::kDomainTerminate, pid_));
  ++written_.lifecycle;
  Account(domain, kLifecycleEventWords);
  return Status::Ok();
}

Status RingReporter::Stop() {
  if (stopped_) return Status::Ok();
  stopped_ = true;
  Status s = producer_->Stop(0);
  if (s.ok()) {
    ++written_.lifecycle;  // ring_stop
    Account(0, kRingStopEventWords);
  }
  return s;
}

}  // namespace mpo::tracer
