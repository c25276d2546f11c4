// The demo's workload: a deterministic multi-domain OCaml-like program on the simulated
// runtime. Each step, a domain draws from its own SplitMix64 stream one of seven
// allocation patterns (lists cell by cell, map nodes, records, arrays too large for the
// minor heap, caml_alloc_small from C, unmarshalled data, bigstrings outside the heap),
// keeps some structures reachable and forgets others. Domains run in turns of
// kWorkloadSlice steps; a major collection every steps / 6, a compaction at steps / 3, and
// with two domains or more the last one ends at steps / 2 with its structures still
// reachable (domain 0 inherits them; memprof's entries become orphans).
//
//   rt.memprof(0).Start(lambda, 64, tracker);  // before Create: new domains inherit it
//   auto w = Workload::Create(rt, host, {.seed = 1, .domains = 4, .steps = 40000});
//   MPO_RETURN_IF_ERROR((*w)->Run());
//   MPO_RETURN_IF_ERROR((*w)->Teardown());  // everything becomes garbage and is collected
//
// What lies outside the simulated heap (time, external memory, which domain runs) goes
// through a WorkloadHost. Everything is a pure function of the seed and the host's
// answers. Bounded: Run performs at most steps x domains steps.
//
// Threading: one thread. Failure: a runtime error, or a memprof callback that raised,
// stops the run with a typed error (kInternal for a raise).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/base/status.h"
#include "core/sim/sim_runtime.h"

namespace mpo::sim {

// Steps a domain runs before the next one takes its turn.
inline constexpr std::uint64_t kWorkloadSlice = 64;
inline constexpr std::uint32_t kWorkloadMaxDomains = 64;

// The workload's code addresses, for naming them in a trace. A sampled callstack is
// (innermost first) the site's frame, the domain body's frame, the main frame.
struct WorkloadSite {
  const char* defname;
  const char* file;
  int line;
  std::uint64_t frame;
};
std::span<const WorkloadSite> WorkloadSites();
inline constexpr std::uint64_t kWorkloadMainFrame = 0x400100;
constexpr std::uint64_t WorkloadDomainFrame(std::uint32_t domain) { return 0x400200 + domain; }
// Is `frame` one of WorkloadSites()' frames?
bool IsWorkloadSiteFrame(std::uint64_t frame);

// Everything outside the simulated heap.
class WorkloadHost {
 public:
  virtual ~WorkloadHost() = default;
  // Virtual time passes: what the work just done took.
  virtual void Elapse(std::uint64_t ns) = 0;
  // `domain` runs from now on (the one whose memprof callbacks run next).
  virtual void Running(std::uint32_t domain) = 0;
  // Memory allocated outside the OCaml heap by `domain` (a bigstring). The answer is a
  // handle when the profiler tracks it (to free later), nothing otherwise.
  virtual std::optional<std::int64_t> ExternalAlloc(std::uint32_t domain, std::uint64_t bytes,
                                                    std::span<const std::uint64_t> callstack) = 0;
  virtual void ExternalFree(std::uint32_t domain, std::int64_t handle) = 0;
};

struct WorkloadOptions {
  std::uint64_t seed = 1;
  std::uint32_t domains = 4;    // [1, kWorkloadMaxDomains]
  std::uint64_t steps = 40000;  // steps per domain
};

struct WorkloadStats {
  std::uint64_t steps = 0;            // steps run, every domain counted
  std::uint64_t allocations = 0;      // OCaml-heap allocation requests that succeeded
  std::uint64_t words_allocated = 0;  // their words, headers included
  std::uint64_t external_allocations = 0, external_bytes = 0, external_frees = 0;
  std::uint64_t major_collections = 0, compactions = 0, domains_ended = 0;
};

class Workload {
 public:
  // Creates domains 1 .. domains - 1 in `rt`, each inheriting domain 0's profile.
  // kInvalidArgument (field "domains") when the count is out of range.
  static Result<std::unique_ptr<Workload>> Create(SimRuntime& rt, WorkloadHost& host,
                                                  const WorkloadOptions& options);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // Every step of every domain, with the scheduled collections and the domain's end.
  Status Run();
  // Releases every structure, frees external memory, runs a major collection and polls
  // each live domain twice, so that every pending memprof callback has run.
  Status Teardown();

  const WorkloadStats& stats() const { return stats_; }

 private:
  struct DomainWork;
  Workload(SimRuntime& rt, WorkloadHost& host, const WorkloadOptions& options);
  Status Step(DomainWork& w);
  Status AllocateStructure(DomainWork& w, std::uint64_t kind);
  Status EndDomain(DomainWork& w);
  void Enter(std::uint32_t domain, unsigned site);
  void Allocated(std::span<const std::uint64_t> wosizes);

  SimRuntime& rt_;
  WorkloadHost& host_;
  WorkloadOptions options_;
  std::vector<DomainWork> work_;      // by domain id
  std::vector<std::uint64_t> stack_;  // the running domain's callstack, innermost first
  WorkloadStats stats_;
};

}  // namespace mpo::sim
