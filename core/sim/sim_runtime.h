// A deterministic simulated OCaml 5 runtime that drives the memprof engine: per-domain
// minor heaps with a decreasing allocation pointer, the GC and memprof triggers, a
// major heap, minor and major collections, compaction, domains and threads, and
// synthetic callstacks. It is what tests, fuzzers, benchmarks and the demo run on.
//
//   SimRuntime rt;                                   // domain 0 exists, with one thread
//   auto p = rt.memprof(0).Start(0.01, 8, tracker);  // Gc.Memprof.start
//   auto a = rt.AllocCaml(0, {{4, 2}});              // a combined allocation from OCaml
//   rt.Release(a.blocks[0]);                          // unreachable from now on
//   rt.MinorGc(); rt.MajorGc(); rt.Compact();
//
// Blocks are named by stable ids (BlockId); their addresses change when promoted or
// compacted, as in OCaml. Liveness is explicit: a block is reachable until Released,
// unless a collection is given another survivor policy. With
// SimConfig::user_data_are_values, memprof user data and tracker roots are OCaml-like
// values (IntValue, ValueOf): a block they name is kept alive by memprof's strong roots
// (promoted by a minor GC, moved by compaction, the value rewritten), while tracked
// blocks themselves stay weak.
//
// Collections and domain lifecycles are published to a GcObserver (gc_observer.h), if one
// is set: the tracer's ring reporter subscribes there.
//
// C-heap exhaustion: c_heap().Fail(site, skip, count) makes the engine's allocations
// at `site` fail deterministically (core/memprof/c_heap.h lists what each one does).
//
// The engine's fault policy (core/memprof/faults.h) is a parameter: SimRuntime runs the
// correct engine; tests run a mutant's with BasicSimRuntime<Mutant> (sim_runtime_impl.h).
//
// Threading: single-threaded and deterministic; "domains" are interleaved by the caller.
// Failure: bad requests (unknown domain, block too large for the minor heap) give typed
// errors; callback exceptions come back as `raised`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/memprof/c_heap.h"
#include "core/memprof/domain.h"
#include "core/memprof/faults.h"
#include "core/memprof/runtime_hooks.h"
#include "core/sim/gc_observer.h"
#include "core/sync/std_platform.h"

namespace mpo::sim {

using memprof::BlockAddr;
using MemprofEngine = memprof::Engine<sync::StdPlatform>;
using MemprofThread = memprof::ThreadState<sync::StdPlatform>;
using BlockId = std::uint64_t;

// OCaml's Max_young_wosize: larger blocks go straight to the major heap.
inline constexpr std::uint64_t kMaxYoungWosize = 256;

// A sample of sub-allocation i of a combined allocation gets the synthetic frame
// kAllocSiteBase + i prepended to its callstack (innermost first).
inline constexpr std::uint64_t kAllocSiteBase = 0xA110C000;

struct SimConfig {
  std::uint64_t minor_heap_words = std::uint64_t{256} * 1024;
  // Interpret user data and tracker roots as values (below) and scan them as roots.
  bool user_data_are_values = false;
};

// OCaml-like values: an immediate n is 2n + 1; a block is its word address times two
// (even, non-zero); 0 is "no value" (what the engine stores in dead entries).
using Value = memprof::UserData;
constexpr Value IntValue(std::int64_t n) { return (static_cast<Value>(n) << 1) | 1; }
constexpr bool IsBlockValue(Value v) { return v != 0 && (v & 1) == 0; }
constexpr BlockAddr AddrOfValue(Value v) { return v >> 1; }
constexpr Value ValueOfAddr(BlockAddr addr) { return addr << 1; }

// Deterministic C-heap failures for the engine: after `skip` more allocations at a
// site succeed, the next `count` are refused.
class CHeapFaults final : public memprof::CHeapGate {
 public:
  void Fail(memprof::CHeapSite site, std::uint64_t skip, std::uint64_t count = 1);
  void Clear();
  bool Allow(memprof::CHeapSite site) override;
  std::uint64_t attempts(memprof::CHeapSite site) const { return sites_[Index(site)].attempts; }
  std::uint64_t refusals(memprof::CHeapSite site) const { return sites_[Index(site)].refusals; }

 private:
  struct Site {
    std::uint64_t skip = 0;
    std::uint64_t fail = 0;
    std::uint64_t attempts = 0;
    std::uint64_t refusals = 0;
  };
  static std::size_t Index(memprof::CHeapSite site) { return static_cast<std::size_t>(site); }
  Site sites_[memprof::kCHeapSiteCount];
};

struct AllocOutcome {
  Status status;                // bad request
  memprof::Raised raised;       // a callback's exception: nothing was allocated
  std::vector<BlockId> blocks;  // one per sub-allocation, in order
  bool ok() const { return status.ok() && !raised; }
};

// Which blocks survive a collection; default: those not Released.
using SurvivorPolicy = std::function<bool(BlockId)>;

template <class Faults = memprof::NoFaults>
class BasicSimRuntime {
 public:
  using MemprofDomain = memprof::Domain<sync::StdPlatform, Faults>;

  explicit BasicSimRuntime(SimConfig config = {});
  ~BasicSimRuntime();
  BasicSimRuntime(const BasicSimRuntime&) = delete;
  BasicSimRuntime& operator=(const BasicSimRuntime&) = delete;

  // ---- domains and threads ----
  // A new domain inheriting `parent`'s profile (caml_memprof_new_domain).
  Result<std::uint32_t> NewDomain(std::optional<std::uint32_t> parent = std::nullopt);
  // Empties the minor heaps (as domain termination does), then ends the domain: its
  // tracked entries become global orphans.
  Status EndDomain(std::uint32_t domain);
  bool DomainAlive(std::uint32_t domain) const;
  std::size_t domain_slots() const { return domains_.size(); }
  // The engine state of a live domain (precondition: DomainAlive).
  MemprofDomain& memprof(std::uint32_t domain);
  MemprofEngine& engine() { return engine_; }
  CHeapFaults& c_heap() { return c_heap_; }
  const CHeapFaults& c_heap() const { return c_heap_; }

  Result<MemprofThread*> NewThread(std::uint32_t domain);
  Status EndThread(std::uint32_t domain, MemprofThread* thread);
  Status EnterThread(std::uint32_t domain, MemprofThread* thread);

  // ---- allocation ----
  // A combined allocation from OCaml code (one GC poll point). Pending callbacks run
  // first; allocation callbacks of sampled sub-blocks run before it completes.
  AllocOutcome AllocCaml(std::uint32_t domain, std::span<const std::uint64_t> wosizes,
                         bool reachable = true);
  // caml_alloc_small from C (wosize <= kMaxYoungWosize): callback deferred to a poll.
  AllocOutcome AllocSmallFromC(std::uint32_t domain, std::uint64_t wosize, bool reachable = true);
  // A block allocated directly in the major heap by the runtime (caml_alloc_shr, or
  // unmarshalling / custom blocks with another source): callback deferred.
  AllocOutcome AllocMajor(std::uint32_t domain, std::uint64_t wosize,
                          memprof::AllocationSource source = memprof::AllocationSource::kNormal,
                          bool reachable = true);
  // A poll point: runs pending memprof callbacks.
  memprof::Raised Poll(std::uint32_t domain);

  // ---- liveness and collections ----
  void Release(BlockId block);
  void SetReachable(BlockId block, bool reachable);
  bool IsAllocated(BlockId block) const;
  std::optional<BlockAddr> AddressOf(BlockId block) const;
  // The value naming `block` now (0 when it is not allocated); it goes stale when the
  // block moves unless a root holding it is scanned.
  Value ValueOf(BlockId block) const;
  // The allocated block a value names, if any.
  std::optional<BlockId> BlockOf(Value v) const;
  // Promotes survivors of every domain's minor heap; the others die.
  void MinorGc(const SurvivorPolicy& survives = {});
  // A minor GC then a full major GC: unreachable (or non-surviving) major blocks die.
  void MajorGc(const SurvivorPolicy& survives = {});
  // Moves every major block; memprof's weak roots are updated.
  void Compact();

  // Called with each block that dies in a collection, before its id can be reused.
  void SetDeathObserver(std::function<void(BlockId)> observer) {
    death_observer_ = std::move(observer);
  }

  // Told of every collection phase, minor_allocated figure and domain spawn/termination
  // from now on (see gc_observer.h); nullptr (the default) stops it. Not owned: it must
  // outlive the runtime or be unset first.
  void SetGcObserver(GcObserver* observer) { gc_observer_ = observer; }

  // ---- callstacks ----
  // The synthetic callstack (innermost first) captured by the next samples in `domain`.
  void SetCallstack(std::uint32_t domain, std::vector<std::uint64_t> frames);

  // ---- statistics ----
  std::uint64_t minor_collections() const { return minor_collections_; }
  std::uint64_t major_collections() const { return major_collections_; }
  std::uint64_t compactions() const { return compactions_; }
  std::size_t live_blocks() const { return live_blocks_; }
  // Words allocated by `domain` in the minor / major heap (headers included).
  std::uint64_t minor_words(std::uint32_t domain) const;
  std::uint64_t major_words(std::uint32_t domain) const;

  // The engine's invariants over every live domain (Domain::CheckInvariants), and what
  // only the runtime can check: tracked blocks are allocated, nothing before a table's
  // `young` index refers to a minor heap, user data values name allocated blocks.
  // kInternal naming the first violation.
  Status CheckInvariants() const;

 private:
  class SimDomain;
  struct Block {
    BlockAddr addr = memprof::kNoBlock;
    std::uint64_t wosize = 0;
    bool reachable = false;
    bool allocated = false;
  };

  SimDomain* Find(std::uint32_t domain);
  const SimDomain* Find(std::uint32_t domain) const;
  BlockId NewBlock(BlockAddr addr, std::uint64_t wosize, bool reachable);
  void FreeBlock(BlockId id);
  bool Survives(const SurvivorPolicy& survives, BlockId id) const;
  bool IsYoungAddr(BlockAddr addr) const;
  // Does user data (or a tracker root) name a young block? Never when user data is plain
  // data (SimConfig::user_data_are_values off).
  bool IsYoungValue(Value v) const;
  // Runs a minor collection because `domain`'s minor heap is full (caml_poll_gc_work).
  void MinorGcFor(std::uint32_t domain);
  // The young block at `addr` (in its domain's young_blocks_ order), if any.
  std::optional<std::pair<SimDomain*, std::size_t>> FindYoung(BlockAddr addr) const;
  // Promotes the young block a root value names and rewrites the value.
  void ForwardRoot(Value& v);

  // ---- observer notifications: nothing is computed without an observer ----
  enum class MemprofScan { kNone, kYoung, kAll };
  void NotifyBegin(GcPhase phase, MemprofScan scan = MemprofScan::kNone);
  void NotifyEnd(GcPhase phase);
  void NotifyMinorAllocated();
  // The live domains' ids, in live_ids_.
  void CollectLiveIds();
  // Entries the busiest domain's memprof visits in a scan (young: from the young index on).
  std::uint64_t MemprofEntries(MemprofScan scan) const;

  SimConfig config_;
  CHeapFaults c_heap_;  // before engine_: outlives every table
  MemprofEngine engine_;
  std::vector<std::unique_ptr<SimDomain>> domains_;
  std::vector<Block> blocks_;
  std::vector<BlockId> free_ids_;
  std::unordered_map<BlockAddr, BlockId> major_;  // address -> block
  BlockAddr next_major_;
  std::uint64_t minor_collections_ = 0;
  std::uint64_t major_collections_ = 0;
  std::uint64_t compactions_ = 0;
  std::size_t live_blocks_ = 0;
  std::function<void(BlockId)> death_observer_;
  GcObserver* gc_observer_ = nullptr;
  std::vector<std::uint32_t> live_ids_;  // scratch for the observer's domain lists
};

// Compiled once, in sim_runtime.cc.
extern template class BasicSimRuntime<memprof::NoFaults>;
using SimRuntime = BasicSimRuntime<>;

}  // namespace mpo::sim
