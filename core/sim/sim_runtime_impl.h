// The simulated runtime's definitions, for every fault policy: sim_runtime.cc
// instantiates the production one (NoFaults); tests that run a mutant engine include
// this header to instantiate theirs.
#pragma once

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace detail {

// Address map, in words: major blocks from kMajorBase upwards; domain d's minor heap
// at kYoungBase + d * kYoungStride.
inline constexpr BlockAddr kMajorBase = BlockAddr{1} << 20;
inline constexpr BlockAddr kYoungBase = BlockAddr{1} << 40;
inline constexpr BlockAddr kYoungStride = BlockAddr{1} << 32;

inline Status UnknownDomain(std::uint32_t domain) {
  return Status(ErrorCode::kNotFound, "no live domain " + std::to_string(domain))
      .WithField("domain");
}

inline Status OutOfMemory(const char* what) {
  return Status(ErrorCode::kResourceExhausted, "Out_of_memory").WithField(what);
}

}  // namespace detail

template <class Faults>
class BasicSimRuntime<Faults>::SimDomain final : public memprof::RuntimeHooks {
 public:
  SimDomain(BasicSimRuntime& rt, std::uint32_t id, std::uint64_t words)
      : rt_(rt),
        id_(id),
        young_start_(detail::kYoungBase + id * detail::kYoungStride),
        young_end_(young_start_ + words),
        young_ptr_(young_end_),
        memprof_trigger_(young_start_) {}

  BlockAddr YoungPtr() const override { return young_ptr_; }
  BlockAddr YoungStart() const override { return young_start_; }
  BlockAddr MemprofTrigger() const override { return memprof_trigger_; }
  void SetMemprofTrigger(BlockAddr trigger) override { memprof_trigger_ = trigger; }
  bool IsYoung(BlockAddr block) const override { return rt_.IsYoungAddr(block); }
  bool IsYoungValue(memprof::UserData v) const override { return rt_.IsYoungValue(v); }
  void SetActionPending() override { action_pending_ = true; }
  void CaptureCallstack(std::uint32_t max_frames, int alloc_index,
                        std::vector<std::uint64_t>& frames) override {
    frames.clear();
    if (alloc_index >= 0 && max_frames > 0) frames.push_back(kAllocSiteBase + alloc_index);
    for (std::uint64_t f : stack_) {
      if (frames.size() >= max_frames) break;
      frames.push_back(f);
    }
  }
  void UndoYoungAllocation(std::uint64_t whsize) override { young_ptr_ += whsize; }
  BlockAddr RedoYoungAllocation(std::uint64_t whsize) override {
    while (young_ptr_ - young_start_ < whsize) rt_.MinorGcFor(id_);
    young_ptr_ -= whsize;
    return young_ptr_;
  }

  bool Fits(std::uint64_t whsize) const { return young_ptr_ - young_start_ >= whsize; }
  void ResetMinorHeap() {
    young_ptr_ = young_end_;
    young_blocks_.clear();
  }

  BasicSimRuntime& rt_;
  std::uint32_t id_;
  BlockAddr young_start_;
  BlockAddr young_end_;
  BlockAddr young_ptr_;
  BlockAddr memprof_trigger_;
  bool action_pending_ = false;
  std::vector<BlockId> young_blocks_;  // allocation order: decreasing addresses
  std::vector<BlockAddr> forward_;     // during a minor GC: new address or kNoBlock
  std::vector<std::uint64_t> stack_;
  std::uint64_t minor_words_ = 0;
  std::uint64_t minor_words_at_last_gc_ = 0;  // minor_words_ when the last minor GC ended
  std::uint64_t major_words_ = 0;
  std::unique_ptr<MemprofDomain> memprof_;  // last: destroyed first
};

template <class Faults>
BasicSimRuntime<Faults>::BasicSimRuntime(SimConfig config)
    : config_(config), next_major_(detail::kMajorBase) {
  if (config_.minor_heap_words < 2 * (kMaxYoungWosize + 1)) {
    config_.minor_heap_words = 2 * (kMaxYoungWosize + 1);
  }
  if (config_.minor_heap_words >= detail::kYoungStride)
    config_.minor_heap_words = detail::kYoungStride - 1;
  engine_.set_c_heap_gate(&c_heap_);
  (void)NewDomain();
}

template <class Faults>
BasicSimRuntime<Faults>::~BasicSimRuntime() {
  // Domains first (their orphans go to the engine), while blocks still exist.
  domains_.clear();
}

template <class Faults>
typename BasicSimRuntime<Faults>::SimDomain* BasicSimRuntime<Faults>::Find(std::uint32_t domain) {
  return domain < domains_.size() ? domains_[domain].get() : nullptr;
}
template <class Faults>
const typename BasicSimRuntime<Faults>::SimDomain* BasicSimRuntime<Faults>::Find(
    std::uint32_t domain) const {
  return domain < domains_.size() ? domains_[domain].get() : nullptr;
}

template <class Faults>
bool BasicSimRuntime<Faults>::IsYoungAddr(BlockAddr addr) const {
  return addr >= detail::kYoungBase;
}

template <class Faults>
bool BasicSimRuntime<Faults>::IsYoungValue(Value v) const {
  return config_.user_data_are_values && IsBlockValue(v) && IsYoungAddr(AddrOfValue(v));
}

template <class Faults>
Result<std::uint32_t> BasicSimRuntime<Faults>::NewDomain(std::optional<std::uint32_t> parent) {
  const SimDomain* parent_domain = nullptr;
  if (parent) {
    parent_domain = Find(*parent);
    if (parent_domain == nullptr) return detail::UnknownDomain(*parent);
  }
  const auto id = static_cast<std::uint32_t>(domains_.size());
  auto dom = std::make_unique<SimDomain>(*this, id, config_.minor_heap_words);
  dom->memprof_ = MemprofDomain::Create(engine_, *dom, id,
                                        parent_domain ? parent_domain->memprof_.get() : nullptr);
  if (!dom->memprof_) return detail::OutOfMemory("memprof domain state");
  dom->memprof_->SetTrigger();
  domains_.push_back(std::move(dom));
  if (gc_observer_ != nullptr) gc_observer_->DomainSpawn(id);
  return id;
}

template <class Faults>
Status BasicSimRuntime<Faults>::EndDomain(std::uint32_t domain) {
  if (Find(domain) == nullptr) return detail::UnknownDomain(domain);
  if (domains_[domain]->memprof_->current() != nullptr &&
      domains_[domain]->memprof_->current()->in_callback()) {
    return Status(ErrorCode::kFailedPrecondition, "domain is running a memprof callback");
  }
  MinorGc();
  domains_[domain].reset();
  if (gc_observer_ != nullptr) gc_observer_->DomainTerminate(domain);
  return Status::Ok();
}

template <class Faults>
bool BasicSimRuntime<Faults>::DomainAlive(std::uint32_t domain) const {
  return Find(domain) != nullptr;
}

template <class Faults>
typename BasicSimRuntime<Faults>::MemprofDomain& BasicSimRuntime<Faults>::memprof(
    std::uint32_t domain) {
  return *domains_[domain]->memprof_;
}

template <class Faults>
Result<MemprofThread*> BasicSimRuntime<Faults>::NewThread(std::uint32_t domain) {
  SimDomain* d = Find(domain);
  if (d == nullptr) return detail::UnknownDomain(domain);
  MemprofThread* thread = d->memprof_->NewThread();
  if (thread == nullptr) return detail::OutOfMemory("memprof thread state");
  return thread;
}

template <class Faults>
Status BasicSimRuntime<Faults>::EndThread(std::uint32_t domain, MemprofThread* thread) {
  SimDomain* d = Find(domain);
  if (d == nullptr) return detail::UnknownDomain(domain);
  return d->memprof_->DeleteThread(thread);
}

template <class Faults>
Status BasicSimRuntime<Faults>::EnterThread(std::uint32_t domain, MemprofThread* thread) {
  SimDomain* d = Find(domain);
  if (d == nullptr) return detail::UnknownDomain(domain);
  if (thread == nullptr) return Status(ErrorCode::kInvalidArgument, "null thread");
  d->memprof_->EnterThread(thread);
  return Status::Ok();
}

template <class Faults>
BlockId BasicSimRuntime<Faults>::NewBlock(BlockAddr addr, std::uint64_t wosize, bool reachable) {
  BlockId id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = blocks_.size();
    blocks_.emplace_back();
  }
  blocks_[id] = Block{addr, wosize, reachable, true};
  ++live_blocks_;
  return id;
}

template <class Faults>
void BasicSimRuntime<Faults>::FreeBlock(BlockId id) {
  if (death_observer_) death_observer_(id);
  blocks_[id].allocated = false;
  blocks_[id].addr = memprof::kNoBlock;
  free_ids_.push_back(id);
  --live_blocks_;
}

template <class Faults>
AllocOutcome BasicSimRuntime<Faults>::AllocCaml(std::uint32_t domain,
                                                std::span<const std::uint64_t> wosizes,
                                                bool reachable) {
  AllocOutcome out;
  SimDomain* d = Find(domain);
  if (d == nullptr) {
    out.status = detail::UnknownDomain(domain);
    return out;
  }
  if (d->memprof_->current() == nullptr) {
    out.status = Status(ErrorCode::kFailedPrecondition, "domain has no current thread");
    return out;
  }
  if (wosizes.empty()) {
    out.status = Status(ErrorCode::kInvalidArgument, "empty combined allocation");
    return out;
  }
  std::uint64_t whsize = 0;
  for (std::uint64_t w : wosizes) {
    if (w == 0 || w > kMaxYoungWosize) {
      out.status = Status(ErrorCode::kInvalidArgument, "block size outside [1, Max_young_wosize]")
                       .WithField("wosize");
      return out;
    }
    whsize += w + 1;
  }
  if (whsize > config_.minor_heap_words / 2) {
    out.status =
        Status(ErrorCode::kInvalidArgument, "combined allocation larger than half the minor heap");
    return out;
  }
  const bool below_limit = !d->Fits(whsize) || d->young_ptr_ - whsize < d->memprof_trigger_;
  if (below_limit || d->action_pending_) {
    // caml_alloc_small_dispatch from OCaml: pending actions, then room, then memprof.
    if (d->action_pending_) {
      d->action_pending_ = false;
      out.raised = d->memprof_->RunCallbacks();
      if (out.raised) return out;
    }
    if (!d->Fits(whsize)) MinorGcFor(domain);
    d->young_ptr_ -= whsize;
    if (d->young_ptr_ < d->memprof_trigger_) {
      out.raised = d->memprof_->SampleYoung(whsize - 1, true, wosizes);
      if (out.raised) return out;  // the engine rolled the allocation back
    }
  } else {
    d->young_ptr_ -= whsize;
  }
  const BlockAddr base = d->young_ptr_;
  out.blocks.resize(wosizes.size());
  BlockAddr addr = base;
  for (std::size_t i = 0; i < wosizes.size(); ++i) {
    out.blocks[i] = NewBlock(addr, wosizes[i], reachable);
    addr += wosizes[i] + 1;
  }
  for (std::size_t i = wosizes.size(); i-- > 0;) d->young_blocks_.push_back(out.blocks[i]);
  d->minor_words_ += whsize;
  return out;
}

template <class Faults>
AllocOutcome BasicSimRuntime<Faults>::AllocSmallFromC(std::uint32_t domain, std::uint64_t wosize,
                                                      bool reachable) {
  AllocOutcome out;
  SimDomain* d = Find(domain);
  if (d == nullptr) {
    out.status = detail::UnknownDomain(domain);
    return out;
  }
  if (wosize == 0 || wosize > kMaxYoungWosize) {
    out.status = Status(ErrorCode::kInvalidArgument, "block size outside [1, Max_young_wosize]")
                     .WithField("wosize");
    return out;
  }
  const std::uint64_t whsize = wosize + 1;
  if (!d->Fits(whsize)) MinorGcFor(domain);
  d->young_ptr_ -= whsize;
  if (d->young_ptr_ < d->memprof_trigger_ && d->memprof_->current() != nullptr) {
    (void)d->memprof_->SampleYoung(wosize, false, {});
  }
  const BlockId id = NewBlock(d->young_ptr_, wosize, reachable);
  d->young_blocks_.push_back(id);
  d->minor_words_ += whsize;
  out.blocks.push_back(id);
  return out;
}

template <class Faults>
AllocOutcome BasicSimRuntime<Faults>::AllocMajor(std::uint32_t domain, std::uint64_t wosize,
                                                 memprof::AllocationSource source, bool reachable) {
  AllocOutcome out;
  SimDomain* d = Find(domain);
  if (d == nullptr) {
    out.status = detail::UnknownDomain(domain);
    return out;
  }
  if (wosize == 0 || wosize >= (std::uint64_t{1} << 32)) {
    out.status =
        Status(ErrorCode::kInvalidArgument, "block size outside [1, 2^32)").WithField("wosize");
    return out;
  }
  const BlockAddr addr = next_major_;
  next_major_ += wosize + 1;
  const BlockId id = NewBlock(addr, wosize, reachable);
  major_.emplace(addr, id);
  d->major_words_ += wosize + 1;
  d->memprof_->SampleBlock(addr, wosize, wosize + 1, source);
  out.blocks.push_back(id);
  return out;
}

template <class Faults>
memprof::Raised BasicSimRuntime<Faults>::Poll(std::uint32_t domain) {
  SimDomain* d = Find(domain);
  if (d == nullptr || !d->action_pending_) return std::nullopt;
  d->action_pending_ = false;
  return d->memprof_->RunCallbacks();
}

template <class Faults>
void BasicSimRuntime<Faults>::Release(BlockId block) {
  SetReachable(block, false);
}

template <class Faults>
void BasicSimRuntime<Faults>::SetReachable(BlockId block, bool reachable) {
  if (block < blocks_.size() && blocks_[block].allocated) blocks_[block].reachable = reachable;
}

template <class Faults>
bool BasicSimRuntime<Faults>::IsAllocated(BlockId block) const {
  return block < blocks_.size() && blocks_[block].allocated;
}

template <class Faults>
std::optional<BlockAddr> BasicSimRuntime<Faults>::AddressOf(BlockId block) const {
  if (!IsAllocated(block)) return std::nullopt;
  return blocks_[block].addr;
}

template <class Faults>
Value BasicSimRuntime<Faults>::ValueOf(BlockId block) const {
  return IsAllocated(block) ? ValueOfAddr(blocks_[block].addr) : 0;
}

template <class Faults>
std::optional<std::pair<typename BasicSimRuntime<Faults>::SimDomain*, std::size_t>>
BasicSimRuntime<Faults>::FindYoung(BlockAddr addr) const {
  if (!IsYoungAddr(addr)) return std::nullopt;
  const std::uint64_t slot = (addr - detail::kYoungBase) / detail::kYoungStride;
  SimDomain* d = slot < domains_.size() ? domains_[slot].get() : nullptr;
  if (d == nullptr) return std::nullopt;
  // young_blocks_ is sorted by decreasing address.
  auto it = std::lower_bound(d->young_blocks_.begin(), d->young_blocks_.end(), addr,
                             [this](BlockId id, BlockAddr a) { return blocks_[id].addr > a; });
  if (it == d->young_blocks_.end() || blocks_[*it].addr != addr) return std::nullopt;
  return std::make_pair(d, static_cast<std::size_t>(it - d->young_blocks_.begin()));
}

template <class Faults>
std::optional<BlockId> BasicSimRuntime<Faults>::BlockOf(Value v) const {
  if (!IsBlockValue(v)) return std::nullopt;
  const BlockAddr addr = AddrOfValue(v);
  if (auto young = FindYoung(addr)) return young->first->young_blocks_[young->second];
  auto it = major_.find(addr);
  if (it == major_.end()) return std::nullopt;
  return it->second;
}

template <class Faults>
void BasicSimRuntime<Faults>::ForwardRoot(Value& v) {
  if (!IsBlockValue(v)) return;
  auto young = FindYoung(AddrOfValue(v));
  if (!young) return;  // old, or not a block of this runtime
  auto& [d, k] = *young;
  if (d->forward_[k] == memprof::kNoBlock) {
    d->forward_[k] = next_major_;
    next_major_ += blocks_[d->young_blocks_[k]].wosize + 1;
  }
  v = ValueOfAddr(d->forward_[k]);
}

template <class Faults>
bool BasicSimRuntime<Faults>::Survives(const SurvivorPolicy& survives, BlockId id) const {
  return survives ? survives(id) : blocks_[id].reachable;
}

template <class Faults>
void BasicSimRuntime<Faults>::MinorGcFor(std::uint32_t) {
  MinorGc();
}

template <class Faults>
void BasicSimRuntime<Faults>::MinorGc(const SurvivorPolicy& survives) {
  ++minor_collections_;
  NotifyBegin(GcPhase::kMinor);
  NotifyBegin(GcPhase::kMinorLocalRoots);
  // Decide every young block's fate before telling memprof (addresses still old):
  // first what memprof's strong roots name (a young-only scan), then the survivors.
  for (auto& d : domains_) {
    if (d) d->forward_.assign(d->young_blocks_.size(), memprof::kNoBlock);
  }
  NotifyBegin(GcPhase::kMinorMemprofRoots, MemprofScan::kYoung);
  if (config_.user_data_are_values) {
    for (auto& d : domains_) {
      if (!d) continue;
      d->memprof_->ScanRoots(
          true, false, [this](Value& v) { ForwardRoot(v); }, [](BlockAddr&) {});
    }
  }
  NotifyEnd(GcPhase::kMinorMemprofRoots);
  for (auto& d : domains_) {
    if (!d) continue;
    for (std::size_t k = 0; k < d->young_blocks_.size(); ++k) {
      const BlockId id = d->young_blocks_[k];
      if (d->forward_[k] != memprof::kNoBlock || !Survives(survives, id)) continue;
      d->forward_[k] = next_major_;
      next_major_ += blocks_[id].wosize + 1;
    }
  }
  NotifyEnd(GcPhase::kMinorLocalRoots);
  const memprof::MinorFate fate = [this](BlockAddr addr) -> std::optional<BlockAddr> {
    auto young = FindYoung(addr);
    if (!young) return std::nullopt;
    const BlockAddr to = young->first->forward_[young->second];
    if (to == memprof::kNoBlock) return std::nullopt;
    return to;
  };
  NotifyBegin(GcPhase::kMinorMemprofClean, MemprofScan::kYoung);
  for (auto& d : domains_) {
    if (d) d->memprof_->AfterMinorGc(fate);
  }
  NotifyEnd(GcPhase::kMinorMemprofClean);
  for (auto& d : domains_) {
    if (!d) continue;
    for (std::size_t k = 0; k < d->young_blocks_.size(); ++k) {
      const BlockId id = d->young_blocks_[k];
      if (d->forward_[k] == memprof::kNoBlock) {
        FreeBlock(id);
      } else {
        blocks_[id].addr = d->forward_[k];
        major_.emplace(d->forward_[k], id);
      }
    }
    d->ResetMinorHeap();
    d->forward_.clear();
  }
  for (auto& d : domains_) {
    if (d) d->memprof_->SetTrigger();
  }
  NotifyMinorAllocated();
  NotifyEnd(GcPhase::kMinor);
}

template <class Faults>
void BasicSimRuntime<Faults>::MajorGc(const SurvivorPolicy& survives) {
  NotifyBegin(GcPhase::kMajor);
  MinorGc(survives);
  ++major_collections_;
  // Marking: memprof's strong roots, then the mutator's.
  NotifyBegin(GcPhase::kMajorMarkRoots);
  NotifyBegin(GcPhase::kMajorMemprofRoots, MemprofScan::kAll);
  std::unordered_set<BlockId> rooted;
  if (config_.user_data_are_values) {
    for (auto& d : domains_) {
      if (!d) continue;
      d->memprof_->ScanRoots(
          false, false,
          [&](Value& v) {
            if (auto block = BlockOf(v)) rooted.insert(*block);
          },
          [](BlockAddr&) {});
    }
  }
  NotifyEnd(GcPhase::kMajorMemprofRoots);
  NotifyEnd(GcPhase::kMajorMarkRoots);
  NotifyBegin(GcPhase::kMajorMark);
  std::vector<BlockId> dead;
  for (const auto& [addr, id] : major_) {
    if (rooted.count(id) == 0 && !Survives(survives, id)) dead.push_back(id);
  }
  NotifyEnd(GcPhase::kMajorMark);
  NotifyBegin(GcPhase::kMajorSweep);
  for (BlockId id : dead) major_.erase(blocks_[id].addr);
  NotifyEnd(GcPhase::kMajorSweep);
  NotifyBegin(GcPhase::kMajorMemprofClean, MemprofScan::kAll);
  const auto alive = [this](BlockAddr addr) { return major_.count(addr) != 0; };
  for (auto& d : domains_) {
    if (d) d->memprof_->AfterMajorGc(alive);
  }
  NotifyEnd(GcPhase::kMajorMemprofClean);
  // Ids are freed (and may be reused) only once memprof has seen the deaths.
  for (BlockId id : dead) FreeBlock(id);
  NotifyEnd(GcPhase::kMajor);
}

template <class Faults>
void BasicSimRuntime<Faults>::CollectLiveIds() {
  live_ids_.clear();
  for (const auto& d : domains_) {
    if (d) live_ids_.push_back(d->id_);
  }
}

template <class Faults>
std::uint64_t BasicSimRuntime<Faults>::MemprofEntries(MemprofScan scan) const {
  std::uint64_t busiest = 0;
  for (const auto& d : domains_) {
    if (!d) continue;
    std::uint64_t n = 0;
    d->memprof_->ForEachTable(
        [&](const memprof::ProfiledTable<sync::StdPlatform>& pt, memprof::TableKind) {
          const std::size_t from = scan == MemprofScan::kYoung ? pt.entries.young() : 0;
          n += pt.entries.size() - std::min(from, pt.entries.size());
        });
    busiest = std::max(busiest, n);
  }
  return busiest;
}

template <class Faults>
void BasicSimRuntime<Faults>::NotifyBegin(GcPhase phase, MemprofScan scan) {
  if (gc_observer_ == nullptr) return;
  CollectLiveIds();
  if (live_ids_.empty()) return;
  const std::uint64_t entries = scan == MemprofScan::kNone ? 0 : MemprofEntries(scan);
  gc_observer_->PhaseBegin(phase, live_ids_, entries);
}

template <class Faults>
void BasicSimRuntime<Faults>::NotifyEnd(GcPhase phase) {
  if (gc_observer_ == nullptr) return;
  CollectLiveIds();
  if (!live_ids_.empty()) gc_observer_->PhaseEnd(phase, live_ids_);
}

// The counter is kept up to date without an observer too, so that one set later reports
// only what was allocated since the previous collection.
template <class Faults>
void BasicSimRuntime<Faults>::NotifyMinorAllocated() {
  for (auto& d : domains_) {
    if (!d) continue;
    const std::uint64_t words = d->minor_words_ - d->minor_words_at_last_gc_;
    d->minor_words_at_last_gc_ = d->minor_words_;
    if (gc_observer_ != nullptr) gc_observer_->MinorAllocated(d->id_, words);
  }
}

template <class Faults>
void BasicSimRuntime<Faults>::Compact() {
  ++compactions_;
  std::vector<std::pair<BlockAddr, BlockId>> order(major_.begin(), major_.end());
  std::sort(order.begin(), order.end());
  std::unordered_map<BlockAddr, BlockAddr> moved;
  moved.reserve(order.size());
  std::unordered_map<BlockAddr, BlockId> fresh;
  fresh.reserve(order.size());
  for (const auto& [addr, id] : order) {
    const BlockAddr to = next_major_;
    next_major_ += blocks_[id].wosize + 1;
    moved.emplace(addr, to);
    fresh.emplace(to, id);
    blocks_[id].addr = to;
  }
  major_ = std::move(fresh);
  for (auto& d : domains_) {
    if (!d) continue;
    auto relocate = [&](BlockAddr& block) {
      auto it = moved.find(block);
      if (it != moved.end()) block = it->second;
    };
    d->memprof_->ScanRoots(
        false, true,
        [&](Value& v) {
          if (!config_.user_data_are_values || !IsBlockValue(v)) return;
          BlockAddr block = AddrOfValue(v);
          relocate(block);
          v = ValueOfAddr(block);
        },
        relocate);
  }
}

// `frames` is moved into the domain (clang-tidy cannot see it through the dependent type).
template <class Faults>
void BasicSimRuntime<Faults>::SetCallstack(
    std::uint32_t domain,
    std::vector<std::uint64_t> frames) {  // NOLINT(performance-unnecessary-value-param)
  if (SimDomain* d = Find(domain)) d->stack_ = std::move(frames);
}

template <class Faults>
std::uint64_t BasicSimRuntime<Faults>::minor_words(std::uint32_t domain) const {
  const SimDomain* d = Find(domain);
  return d ? d->minor_words_ : 0;
}
template <class Faults>
std::uint64_t BasicSimRuntime<Faults>::major_words(std::uint32_t domain) const {
  const SimDomain* d = Find(domain);
  return d ? d->major_words_ : 0;
}

template <class Faults>
Status BasicSimRuntime<Faults>::CheckInvariants() const {
  for (const auto& d : domains_) {
    if (!d) continue;
    if (Status engine = d->memprof_->CheckInvariants(); !engine.ok()) return engine;
    const char* bad = nullptr;
    d->memprof_->ForEachTable([&](const memprof::ProfiledTable<sync::StdPlatform>& pt,
                                  memprof::TableKind) {
      if (bad != nullptr || !pt.config) return;
      if (pt.config->status() == memprof::ProfileStatusValue::kDiscarded) return;
      for (const memprof::Entry& e : pt.entries.entries()) {
        if (e.deleted() || e.offset() || e.block == memprof::kNoBlock) continue;
        if (e.deallocated()) {
          bad = "deallocated entry still names a block";
        } else if (!IsYoungAddr(e.block) && major_.count(e.block) == 0) {
          bad = "tracked major block is not allocated";
        } else if (e.promoted() && IsYoungAddr(e.block)) {
          bad = "promoted entry names a young block";
        }
      }
      // Before the `young` index nothing refers to a minor heap: a minor GC's young-only
      // root scan and update start there.
      const std::span<const memprof::Entry> entries = pt.entries.entries();
      for (std::size_t i = 0; i < pt.entries.young() && bad == nullptr; ++i) {
        const memprof::Entry& e = entries[i];
        const bool young_block = !e.offset() && IsYoungAddr(e.block);
        const bool young_data = !e.stashed() && IsYoungValue(e.user_data);
        if (young_block || young_data) bad = "young reference before the young index";
      }
      if (!config_.user_data_are_values) return;
      for (const memprof::Entry& e : entries) {
        if (bad == nullptr && !e.stashed() && IsBlockValue(e.user_data) && !BlockOf(e.user_data)) {
          bad = "user data names no allocated block";
        }
      }
    });
    if (bad != nullptr) return Status(ErrorCode::kInternal, bad);
  }
  return Status::Ok();
}

}  // namespace mpo::sim
