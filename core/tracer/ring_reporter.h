// What OCaml 5.3's runtime writes into its runtime events ring around memprof, for a
// runtime (here the simulated one) that tells the reporter what it is doing: the GC
// phases that hold memprof work (minor: minor_local_roots > minor_memprof_roots, then
// minor_memprof_clean after promotion; major: major_mark_roots > major_memprof_roots,
// then major_memprof_clean when the cycle ends), minor_allocated counters, and the
// lifecycle events (ring_start/stop by the producer, domain_spawn and domain_terminate
// carrying the pid, as caml_domain_spawn and domain_terminate write them).
// Phase and counter ids are looked up by name in the 5.3 numbering (event_names.h).
//
// Threading: one thread at a time. Failure: a typed error per call (a ring write that
// cannot fit); a stopped reporter writes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/ring/producer.h"

namespace mpo::tracer {

// The 5.3 id of a phase / counter name; kNotFound when 5.3 has no such name.
Result<unsigned> Phase53(std::string_view name);
Result<unsigned> Counter53(std::string_view name);

// Phase ids used by the reporter, resolved once.
struct MemprofPhases {
  unsigned minor, minor_local_roots, minor_memprof_roots, minor_memprof_clean;
  unsigned major, major_mark_roots, major_memprof_roots, major_mark, major_sweep,
      major_memprof_clean;
  unsigned minor_allocated;  // counter
  static Result<MemprofPhases> Resolve();
};

// Words one event takes in a ring: header and timestamp, then the payload (ring_stop
// carries none).
inline constexpr std::uint64_t kPhaseEventWords = 2;
inline constexpr std::uint64_t kCounterEventWords = 3;
inline constexpr std::uint64_t kLifecycleEventWords = 3;
inline constexpr std::uint64_t kRingStopEventWords = 2;

class RingReporter {
 public:
  // Starts the producer (ring_start on domain 0).
  static Result<std::unique_ptr<RingReporter>> Start(ring::ProducerOptions options);
  ~RingReporter();

  const MemprofPhases& ids() const { return ids_; }
  std::string path() const { return producer_->path(); }

  Status Begin(std::uint32_t domain, unsigned phase);
  Status End(std::uint32_t domain, unsigned phase);
  Status Counter(std::uint32_t domain, unsigned counter, std::uint64_t value);
  Status DomainSpawn(std::uint32_t domain);
  Status DomainTerminate(std::uint32_t domain);
  // ring_stop; the file is kept if the options said preserve.
  Status Stop();

  // Events written so far, by kind, and the padding words the ring protocol put before
  // events that would have straddled a ring's end (for checking a read-back word by word).
  struct Written {
    std::uint64_t begins = 0, ends = 0, counters = 0, lifecycle = 0;
    std::uint64_t padding_words = 0;
    std::uint64_t words = 0;  // every word written: events and padding
  };
  const Written& written() const { return written_; }

 private:
  RingReporter(std::unique_ptr<ring::RuntimeEvents> p, MemprofPhases ids, std::int64_t pid,
               std::uint64_t ring_words, std::uint64_t domains)
      : producer_(std::move(p)), ids_(ids), pid_(pid), ring_words_(ring_words), tails_(domains) {}
  // Advances the model of `domain`'s tail by an event of `words`, counting padding.
  void Account(std::uint32_t domain, std::uint64_t words);
  std::unique_ptr<ring::RuntimeEvents> producer_;
  MemprofPhases ids_;
  std::int64_t pid_;
  std::uint64_t ring_words_;
  // Each ring's tail as the producer advances it: words written since the start.
  std::vector<std::uint64_t> tails_;
  Written written_;
  bool stopped_ = false;
};

}  // namespace mpo::tracer
