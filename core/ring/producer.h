// The producer side of runtime events: OCaml's runtime/runtime_events.c for a process
// of up to `max_domains` domains.
//
// Start creates `<dir>/<pid>.events` (mode 0600, OCaml 5.3's layout, see layout.h),
// writes the names of the user events registered so far and a ring_start lifecycle
// event carrying the pid. Stop writes ring_stop, unmaps, and removes the file unless
// `preserve`. After fork(), the child calls AfterForkInChild: it drops the parent's
// mapping without touching the file and starts its own `<child pid>.events`.
//
// Threading: each domain's ring has a single writer; the caller guarantees that only
// one thread writes as domain d at a time (OCaml: the domain itself). Pause, Resume,
// RegisterUserEvent and IsActive may be called from any thread at any time. Start,
// Stop and PostForkChild must not run concurrently with writers (OCaml runs them in a
// stop-the-world section).
//
// Writes while not started or paused do nothing and succeed, as in OCaml. An event that
// cannot fit (more than half a ring) is kInvalidArgument and writes nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/ring/layout.h"

namespace mpo::ring {

struct ProducerOptions {
  std::string dir;                                   // "" = current directory
  unsigned ring_log2_words = kDefaultRingLog2Words;  // ring size 2^n words, n in [4, 26]
  std::uint64_t max_domains = kDefaultMaxDomains;    // [1, 4096]
  bool preserve = false;                             // keep the file after Stop
  std::int64_t pid = 0;  // the pid in the file name and ring_start; 0 = getpid()
  // Nanosecond timestamps; defaults to CLOCK_MONOTONIC (OCaml's caml_time_counter).
  std::function<std::uint64_t()> clock;

  // dir from OCAML_RUNTIME_EVENTS_DIR, preserve from OCAML_RUNTIME_EVENTS_PRESERVE,
  // ring_log2_words from OCAMLRUNPARAM's (else CAMLRUNPARAM's) `e=N`;
  // *start_now is set when OCAML_RUNTIME_EVENTS_START is present.
  static ProducerOptions FromEnvironment(bool* start_now);
};

// The last `e=N` (decimal, at most 2 digits) of an OCAMLRUNPARAM value such as
// "s=1M,e=12,v=0x400": OCaml's log2 ring size in words; nullopt without one.
std::optional<unsigned> RingLog2WordsOfRunParam(std::string_view param);

// CLOCK_MONOTONIC in nanoseconds.
std::uint64_t MonotonicNanoseconds();

class RuntimeEvents {
 public:
  explicit RuntimeEvents(ProducerOptions options);
  ~RuntimeEvents();  // Stop(0) if still started
  RuntimeEvents(const RuntimeEvents&) = delete;
  RuntimeEvents& operator=(const RuntimeEvents&) = delete;

  // Idempotent. `domain` writes the ring_start event.
  Status Start(std::uint32_t domain = 0);
  Status Stop(std::uint32_t domain = 0);
  // OCaml's fork hooks: the parent writes fork_parent(child pid); the child drops the
  // parent's mapping (the file is left alone), starts its own ring and writes
  // fork_child. `domain` is the forking domain.
  Status AfterForkInParent(std::int64_t child_pid, std::uint32_t domain = 0);
  Status AfterForkInChild(std::uint32_t domain = 0);
  // CAS-guarded: only a call that changes the state writes ring_pause / ring_resume.
  // (OCaml 5.3 checks the flag it has just set and so never writes its pause event;
  // here the pause event is written, as the last event before the pause.)
  void Pause(std::uint32_t domain = 0);
  void Resume(std::uint32_t domain = 0);
  bool IsActive() const;
  // The file of the running ring, "" when not started.
  std::string path() const;

  Status Begin(std::uint32_t domain, unsigned phase);
  Status End(std::uint32_t domain, unsigned phase);
  Status Counter(std::uint32_t domain, unsigned counter, std::uint64_t value);
  Status LifecycleEvent(std::uint32_t domain, Lifecycle kind, std::int64_t data);
  // The 20 bucket counts (see AllocBucket).
  Status Alloc(std::uint32_t domain, std::span<const std::uint64_t, kAllocBuckets> buckets);

  // Registers a user event name and returns its index (0..8191). kInvalidArgument for a
  // name over 127 bytes or with a NUL; kOutOfRange once 8192 names exist (OCaml's check
  // lets index 8192 through and writes past the name slots).
  Result<unsigned> RegisterUserEvent(std::string_view name);
  Status UserUnit(std::uint32_t domain, unsigned id);
  Status UserInt(std::uint32_t domain, unsigned id, std::int64_t value);
  Status UserSpan(std::uint32_t domain, unsigned id, bool begin);
  // Up to 1024 bytes, stored with OCaml's trailing pad-count byte.
  Status UserCustom(std::uint32_t domain, unsigned id, std::span<const std::byte> bytes);

  // Low-level append (used by the others and by benchmarks): header fields, timestamp
  // from the clock, payload words.
  Status Write(std::uint32_t domain, bool user, unsigned type, unsigned id,
               std::span<const std::uint64_t> payload);

 private:
  Status Append(std::uint32_t domain, bool user, unsigned type, unsigned id,
                std::span<const std::uint64_t> payload, bool even_if_paused);
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace mpo::ring
