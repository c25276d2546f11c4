// The Gc.Memprof engine of OCaml 5 (runtime/memprof.c): profiles, per-thread and
// per-domain entries tables, orphans, sampling, callbacks and the GC interface.
//
//   Engine<StdPlatform> engine;                       // the process-wide part (orphans)
//   Domain<StdPlatform> d(engine, hooks, /*id=*/0);   // one per OCaml domain
//   auto profile = d.Start(1e-4, 16, tracker);        // Gc.Memprof.start
//   d.SampleYoung(...) / d.SampleBlock(...)           // from the runtime's allocator
//   d.RunCallbacks();                                 // at poll points
//   d.AfterMinorGc(fate) / d.AfterMajorGc(alive)      // from the collector
//
// Threading: a Domain and its threads are used by one OS thread at a time (OCaml's
// domain lock); domains run in parallel and share only the Engine's orphan list and
// profile statuses, both written over the sync platform P. Callbacks run on the calling
// thread, never nested (sampling is suspended meanwhile), and may re-enter the Domain
// (Start, Stop, Discard, allocations).
//
// Failure: typed errors for Start/Stop/Discard misuse (OCaml's exact messages); a
// callback's exception is returned to the caller (Raised). C-heap exhaustion (see
// c_heap.h; injected through Engine::set_c_heap_gate) takes OCaml's recovery paths:
// samples dropped, entries left in place or lost, Start failing with Out_of_memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/memprof/c_heap.h"
#include "core/memprof/entries.h"
#include "core/memprof/mutant.h"
#include "core/memprof/orphans.h"
#include "core/memprof/profile.h"
#include "core/memprof/runtime_hooks.h"
#include "core/sampler/sampler.h"

namespace mpo::memprof {

// An entries table and the profile its entries were sampled under (null: none, or
// discarded and forgotten).
template <class P>
struct ProfiledTable {
  ProfiledTable(std::size_t min_capacity, CHeapGate* gate) : entries(min_capacity, gate) {}
  EntriesTable entries;
  ProfileRef<P> config;
};

template <class P>
struct OrphanTable {
  explicit OrphanTable(CHeapGate* gate) : table(kMinOrphanCapacity, gate) {}
  ProfiledTable<P> table;
  std::unique_ptr<OrphanTable> next;
};

template <class P>
class Domain;

// A systhread's memprof state.
template <class P>
class ThreadState {
 public:
  ThreadState(std::uint32_t id, ProfileRef<P> config, CHeapGate* gate)
      : table_(kMinThreadCapacity, gate) {
    table_.config = std::move(config);
    running_.thread_id = id;
  }
  std::uint32_t id() const { return running_.thread_id; }
  bool suspended() const { return suspended_; }
  bool in_callback() const { return running_.table != nullptr; }
  const ProfiledTable<P>& table() const { return table_; }

 private:
  friend class Domain<P>;
  bool suspended_ = false;
  RunningSlot running_;
  ProfiledTable<P> table_;
};

// The process-wide part: the global orphans list, profile numbering and the C heap.
template <class P>
class Engine {
 public:
  // Every later engine allocation asks `gate` first (null: never refused). Set it before
  // creating domains; the gate must outlive the engine's tables.
  void set_c_heap_gate(CHeapGate* gate) { gate_ = gate; }
  CHeapGate* c_heap_gate() const { return gate_; }
  using Orphans = GlobalOrphans<P, OrphanTable<P>>;
  Orphans& orphans() { return orphans_; }
  std::uint64_t NextProfileId() {
    return next_profile_id_.FetchAdd(1, sync::MemoryOrder::kRelaxed);
  }

 private:
  Orphans orphans_;
  typename P::template Atomic<std::uint64_t> next_profile_id_{1};
  CHeapGate* gate_ = nullptr;
};

// Gc.Memprof.discard. Any thread of any domain may call it.
template <class P>
Status Discard(const ProfileRef<P>& profile) {
  if (!profile) return Status(ErrorCode::kInvalidArgument, "Gc.Memprof.discard: no profile");
  return DiscardProfile(*profile);
}

enum class TableKind : std::uint8_t { kDomain, kThread, kOrphan };

// What a minor collection did to a young block: its new (major) address, or death.
using MinorFate = std::function<std::optional<BlockAddr>(BlockAddr)>;

template <class P>
class Domain {
 public:
  // caml_memprof_new_domain: the domain inherits its parent's profile, seeds its PRNG
  // with `id`, and gets its first thread.
  Domain(Engine<P>& engine, RuntimeHooks& hooks, std::uint32_t id, const Domain* parent = nullptr)
      : engine_(engine),
        hooks_(hooks),
        id_(id),
        table_(kMinDomainCapacity, engine.c_heap_gate()),
        sampler_(id) {
    if (parent != nullptr) table_.config = parent->table_.config;
    current_ = NewThread();
    RandInit();
  }
  // caml_memprof_new_domain as a runtime calls it: null when the C heap refuses the
  // domain's state or its first thread's (the runtime then fails to create the domain).
  static std::unique_ptr<Domain> Create(Engine<P>& engine, RuntimeHooks& hooks, std::uint32_t id,
                                        const Domain* parent = nullptr) {
    if (!CHeapAllows(engine.c_heap_gate(), CHeapSite::kDomain)) return nullptr;
    auto domain = std::make_unique<Domain>(engine, hooks, id, parent);
    if (domain->current_ == nullptr) return nullptr;
    return domain;
  }
  // caml_memprof_delete_domain: orphans what is left and abandons it globally. When the
  // orphan table cannot be allocated, the domain's and its threads' entries are lost.
  // Precondition (as in OCaml): no thread of this domain is inside a callback.
  ~Domain() {
    (void)OrphansCreate();
    std::unique_ptr<OrphanTable<P>> orphans = std::move(orphans_);
    if constexpr (kMutant == Mutant::kOrphanLost) {
      orphans.reset();
    }
    engine_.orphans().Abandon(std::move(orphans));
    threads_.clear();
  }
  Domain(const Domain&) = delete;
  Domain& operator=(const Domain&) = delete;

  std::uint32_t id() const { return id_; }

  // ---- threads (systhreads interface) ----

  // caml_memprof_new_thread; null when the C heap refuses the thread's state.
  ThreadState<P>* NewThread() {
    if (!CHeapAllows(engine_.c_heap_gate(), CHeapSite::kThread)) return nullptr;
    threads_.push_back(
        std::make_unique<ThreadState<P>>(next_thread_id_++, table_.config, engine_.c_heap_gate()));
    return threads_.back().get();
  }
  // Hands the thread's entries to the domain and forgets the thread; if the domain's
  // table cannot grow, those entries are lost (no further callbacks). The thread must
  // not be inside a callback (OCaml's Thread.exit unwinds the callback first).
  Status DeleteThread(ThreadState<P>* thread) {
    if (thread == nullptr || thread->in_callback()) {
      return Status(ErrorCode::kFailedPrecondition, "memprof: thread is running a callback");
    }
    if (!Transfer(thread->table_, table_)) thread->table_.entries.Clear();
    if (current_ == thread) current_ = nullptr;
    for (auto it = threads_.begin(); it != threads_.end(); ++it) {
      if (it->get() == thread) {
        threads_.erase(it);
        return Status::Ok();
      }
    }
    return Status(ErrorCode::kNotFound, "memprof: thread not in this domain");
  }
  void EnterThread(ThreadState<P>* thread) {
    current_ = thread;
    UpdateSuspended(thread->suspended_);
  }
  ThreadState<P>* current() const { return current_; }
  std::size_t thread_count() const { return threads_.size(); }

  // ---- Gc.Memprof interface ----

  Result<ProfileRef<P>> Start(double lambda, std::int64_t callstack_size, Tracker tracker) {
    auto params = ProfileParams::Make(lambda, callstack_size);
    if (!params.ok()) return params.status();
    if (current_ == nullptr) return Status(ErrorCode::kFailedPrecondition, "memprof: no thread");
    const ProfileRef<P>& running = ThreadConfig(*current_);
    if (running && running->sampling()) {
      return Status(ErrorCode::kFailedPrecondition, kStartAlreadyStarted);
    }
    // Orphans entries of a previous profile; no table for them: Out_of_memory, no change.
    if (!OrphansCreate()) {
      return Status(ErrorCode::kResourceExhausted, "Out_of_memory")
          .WithField("Gc.Memprof.start: orphan table");
    }
    auto profile =
        std::make_shared<Profile<P>>(*params, std::move(tracker), engine_.NextProfileId());
    table_.config = profile;
    for (auto& thread : threads_) thread->table_.config = profile;
    RandInit();
    SetTrigger();
    OrphansUpdatePending();
    SetActionPendingAsNeeded();
    return profile;
  }

  Outcome Stop() {
    Outcome out;
    if (current_ == nullptr) {
      out.status = Status(ErrorCode::kFailedPrecondition, kStopNoProfile);
      return out;
    }
    ThreadState<P>& thread = *current_;
    if (!thread.suspended_) {
      // Last chance for pending allocation callbacks of this thread.
      UpdateSuspended(true);
      out.raised = RunTableCallbacks(thread, thread.table_);
      UpdateSuspended(false);
      if (out.raised) return out;
    }
    const ProfileRef<P> config = ThreadConfig(thread);
    if (!config ||
        !config->Transition(ProfileStatusValue::kSampling, ProfileStatusValue::kStopped)) {
      out.status = Status(ErrorCode::kFailedPrecondition, kStopNoProfile);
      return out;
    }
    SetTrigger();
    return out;
  }

  // The profile this domain samples under (null when none); it may be stopped.
  ProfileRef<P> profile() const { return table_.config; }

  // ---- sampling ----

  // Is the current thread sampling?
  bool Sampling() {
    if (current_ == nullptr || current_->suspended_) return false;
    const ProfileRef<P>& config = ThreadConfig(*current_);
    return config && config->sampling() && !config->rate().never_samples();
  }

  // caml_memprof_sample_block: a block allocated by the runtime. Its callback is deferred
  // to the next poll.
  void SampleBlock(BlockAddr block, std::uint64_t allocated_words, std::uint64_t sampled_words,
                   AllocationSource source) {
    if (Sampling()) {
      MaybeTrackBlock(block, sampler_.Binomial(sampled_words), allocated_words, source);
    }
  }

  // caml_memprof_sample_young: the young pointer crossed the memprof trigger. With
  // `from_caml` the allocation is combined: `lens` holds each sub-allocation's wosize
  // (empty: one block of `wosize`), the allocation is rolled back while allocation
  // callbacks run, and is cancelled if one raises.
  Raised SampleYoung(std::uint64_t wosize, bool from_caml, std::span<const std::uint64_t> lens) {
    if (current_ == nullptr) return std::nullopt;
    ThreadState<P>& thread = *current_;
    const std::uint64_t whsize = wosize + 1;
    if (!from_caml) {
      const BlockAddr young_ptr = hooks_.YoungPtr();
      const std::uint64_t samples = 1 + sampler_.Binomial(hooks_.MemprofTrigger() - 1 - young_ptr);
      MaybeTrackBlock(young_ptr, samples, wosize, AllocationSource::kNormal);
      SetTrigger();
      return std::nullopt;
    }
    const ProfileRef<P> config = thread.table_.config;
    std::int64_t trigger_ofs =
        static_cast<std::int64_t>(hooks_.MemprofTrigger() - hooks_.YoungPtr());
    std::int64_t alloc_ofs = static_cast<std::int64_t>(whsize);
    hooks_.UndoYoungAllocation(whsize);
    UpdateSuspended(true);
    const std::size_t allocs = lens.empty() ? 1 : lens.size();
    std::size_t sub = allocs;
    do {
      --sub;
      const std::uint64_t sub_wosize = lens.empty() ? wosize : lens[sub];
      alloc_ofs -= static_cast<std::int64_t>(sub_wosize + 1);
      std::uint64_t samples = 0;
      while (alloc_ofs < trigger_ofs) {
        ++samples;
        trigger_ofs -= static_cast<std::int64_t>(sampler_.Geometric());
      }
      if (samples > 0) {
        auto stash = Capture(static_cast<int>(sub));
        thread.table_.entries.Add(static_cast<BlockAddr>(alloc_ofs), std::move(stash), sub_wosize,
                                  samples, AllocationSource::kNormal, true, true);
      }
    } while (sub > 0);

    Raised raised = RunTableCallbacks(thread, thread.table_);
    EntriesTable& entries = thread.table_.entries;
    if (!raised) {
      const BlockAddr base = hooks_.RedoYoungAllocation(whsize);
      for (std::size_t i = 0; i < entries.size(); ++i) {
        Entry& e = entries.at(i);
        if (!e.offset()) continue;
        e.block = base + e.block;
        e.Set(entry_bits::kOffset, false);
        entries.LowerYoung(i);
      }
      // If the domain's table cannot grow, the entries stay with the thread.
      (void)Transfer(thread.table_, table_);
    } else {
      entries.ClearOffsets();
    }
    (void)config;  // kept alive across callbacks that may restart the profile
    UpdateSuspended(false);
    return raised;
  }

  // caml_memprof_set_trigger: the next sampled word of the minor heap (or YoungStart).
  void SetTrigger() {
    BlockAddr trigger = hooks_.YoungStart();
    if (Sampling()) {
      const std::uint64_t geom = sampler_.Geometric();
      const BlockAddr young_ptr = hooks_.YoungPtr();
      if (young_ptr - hooks_.YoungStart() > geom) trigger = young_ptr - (geom - 1);
    }
    hooks_.SetMemprofTrigger(trigger);
  }

  // caml_memprof_update_suspended, for the current thread.
  void UpdateSuspended(bool suspended) {
    if (current_ == nullptr) return;
    current_->suspended_ = suspended;
    if (!suspended) SetActionPendingAsNeeded();
    SetTrigger();
  }

  // ---- callbacks ----

  // caml_memprof_run_callbacks_res: domain table, then the current thread's, then
  // orphans; stops at the first exception.
  Raised RunCallbacks() {
    if (current_ == nullptr) return std::nullopt;
    ThreadState<P>& thread = *current_;
    if (thread.suspended_ || !pending_) return std::nullopt;
    AdoptOrphans();
    UpdateSuspended(true);
    Raised raised = RunTableCallbacks(thread, table_);
    if (!raised) raised = RunTableCallbacks(thread, thread.table_);
    if (!raised) {
      // If the domain's table cannot grow, the entries stay with the thread.
      (void)Transfer(thread.table_, table_);
      for (OrphanTable<P>* ot = orphans_.get(); ot != nullptr && !raised; ot = ot->next.get()) {
        ProfiledTable<P>& pt = ot->table;
        if (Validated(pt) && pt.entries.active() < pt.entries.size()) {
          raised = RunTableCallbacks(thread, pt);
        }
      }
    }
    OrphansUpdatePending();
    UpdateSuspended(false);
    return raised;
  }

  bool pending() const { return pending_; }

  // ---- GC interface ----

  // caml_memprof_scan_roots, after adopting global orphans. Strong roots, through
  // `visit_value(UserData&)`: the user data of every entry of every table (domain,
  // threads, orphans) whose profile is not discarded, and once per profile its
  // tracker's `roots`. With `weak` (compaction) also each tracked block, through
  // `visit_block(BlockAddr&)`. `young_only` (minor GC) visits only entries from each
  // table's `young` index. Visitors may rewrite what they get (the GC moved it); what
  // user data means is the runtime's business (RuntimeHooks::IsYoungValue).
  // Threading: stop-the-world only (it writes profiles shared between domains).
  template <class ValueVisitor, class BlockVisitor>
  void ScanRoots(bool young_only, bool weak, ValueVisitor&& visit_value,
                 BlockVisitor&& visit_block) {
    AdoptOrphans();
    std::vector<const Profile<P>*> scanned;
    ApplyToAll(
        young_only,
        [&](Entry& e) {
          // A stashed callstack is C memory, not a value; deleted and running entries
          // hold no data (0).
          if (kMutant != Mutant::kSkipUserDataRoots && !e.stashed()) visit_value(e.user_data);
          if (weak && !e.offset() && e.block != kNoBlock) visit_block(e.block);
          return false;
        },
        [&](ProfiledTable<P>& pt) {
          if constexpr (kMutant == Mutant::kSkipConfigRoots) return;
          Profile<P>* config = pt.config.get();
          if (std::find(scanned.begin(), scanned.end(), config) != scanned.end()) return;
          scanned.push_back(config);
          for (UserData& root : config->roots()) visit_value(root);
        });
  }

  // caml_memprof_after_minor_gc: every young tracked block was promoted or died.
  void AfterMinorGc(const MinorFate& fate) {
    AdoptOrphans();
    ApplyToAll(
        true,
        [&](Entry& e) {
          if (e.offset() || e.block == kNoBlock || !hooks_.IsYoung(e.block)) return false;
          if (std::optional<BlockAddr> moved = fate(e.block)) {
            e.block = *moved;
            e.Set(entry_bits::kPromoted, true);
          } else {
            e.block = kNoBlock;
            e.Set(entry_bits::kDeallocated, true);
          }
          return true;
        },
        [](ProfiledTable<P>& pt) { pt.entries.MarkAllOld(); });
    OrphansUpdatePending();
    SetActionPendingAsNeeded();
  }

  // caml_memprof_after_major_gc: tracked major blocks not `alive` died.
  void AfterMajorGc(const std::function<bool(BlockAddr)>& alive) {
    AdoptOrphans();
    ApplyToAll(false, [&](Entry& e) {
      if (e.offset() || e.block == kNoBlock || hooks_.IsYoung(e.block)) return false;
      if (kMutant != Mutant::kDeallocWhileAlive && alive(e.block)) return false;
      e.block = kNoBlock;
      e.Set(entry_bits::kDeallocated, true);
      return true;
    });
    OrphansUpdatePending();
    SetActionPendingAsNeeded();
  }

  // ---- introspection (tests, fuzzers, benchmarks, tools) ----

  template <class Fn>
  void ForEachTable(Fn&& fn) const {
    fn(table_, TableKind::kDomain);
    for (const auto& thread : threads_) fn(thread->table_, TableKind::kThread);
    for (const OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) {
      fn(ot->table, TableKind::kOrphan);
    }
  }
  std::size_t orphan_table_count() const {
    std::size_t n = 0;
    for (const OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) ++n;
    return n;
  }
  const sampler::Sampler& sampler() const { return sampler_; }

  // Every table's index invariants, runners and profile consistency; nullptr when fine.
  const char* CheckInvariants() const {
    const char* bad = nullptr;
    ForEachTable([&](const ProfiledTable<P>& pt, TableKind) {
      if (bad == nullptr) bad = pt.entries.CheckInvariants();
    });
    if (bad != nullptr) return bad;
    for (const auto& thread : threads_) {
      if (thread->table_.config != table_.config && thread->table_.entries.size() > 0 &&
          table_.config && table_.config->status() != ProfileStatusValue::kDiscarded) {
        return "thread table sampled under another profile than its domain";
      }
      if (thread->running_.table != nullptr &&
          thread->running_.index >= thread->running_.table->size()) {
        return "running index beyond its table";
      }
    }
    return nullptr;
  }

 private:
  // validated_config: forgets a discarded profile, dropping entries not in a callback.
  static const ProfileRef<P>& Validated(ProfiledTable<P>& pt) {
    if (pt.config && pt.config->status() == ProfileStatusValue::kDiscarded) {
      pt.config.reset();
      pt.entries.ClearInactive();
    }
    return pt.config;
  }
  static const ProfileRef<P>& ThreadConfig(ThreadState<P>& thread) {
    return Validated(thread.table_);
  }

  // entries_transfer; entries of a discarded profile are dropped on the way. False
  // (nothing moved) when `to` cannot grow.
  static bool Transfer(ProfiledTable<P>& from, ProfiledTable<P>& to) {
    if (from.entries.size() == 0) return true;
    (void)Validated(from);
    (void)Validated(to);
    return from.entries.TransferTo(to.entries);
  }

  void RandInit() {
    if (table_.config) {
      sampler_.Start(table_.config->rate());
    } else {
      sampler_.Start(*sampler::SamplingRate::FromLambda(0.0));
    }
  }

  // The callstack to stash in a new entry; none (no allocation) when the profile asks
  // for zero frames. Capturing needs C memory (OCaml's callstack buffer, and outside
  // OCaml code the stash): if refused, the sample keeps an empty callstack, as in OCaml.
  std::unique_ptr<Callstack> Capture(int alloc_index) {
    const std::uint32_t frames = table_.config ? table_.config->callstack_size() : 0;
    if (frames == 0) return nullptr;
    if (!CHeapAllows(engine_.c_heap_gate(), CHeapSite::kCallstack)) return nullptr;
    auto stash = std::make_unique<Callstack>();
    hooks_.CaptureCallstack(frames, alloc_index, stash->frames);
    return stash;
  }

  void MaybeTrackBlock(BlockAddr block, std::uint64_t samples, std::uint64_t wosize,
                       AllocationSource source) {
    if (samples == 0) return;
    auto stash = Capture(-1);
    // A table that cannot grow drops the sample: no entry, no callback.
    (void)current_->table_.entries.Add(block, std::move(stash), wosize, samples, source,
                                       hooks_.IsYoung(block), false);
    SetActionPendingAsNeeded();
  }

  void SetActionPendingAsNeeded() {
    if (current_ == nullptr || current_->suspended_) return;
    pending_ = table_.entries.active() < table_.entries.size() ||
               current_->table_.entries.size() > 0 || orphans_pending_;
    if (pending_) hooks_.SetActionPending();
  }

  // orphans_create: offsets cleared, then the domain's and threads' entries move to a
  // fresh orphan table at the head of this domain's list. False (entries left where
  // they were) when the C heap refuses the table.
  bool OrphansCreate() {
    std::size_t total = 0;
    for (auto& thread : threads_) {
      thread->table_.entries.ClearOffsets();
      total += thread->table_.entries.size();
    }
    table_.entries.Evict();
    total += table_.entries.size();
    if (total == 0) return true;
    if (!CHeapAllows(engine_.c_heap_gate(), CHeapSite::kOrphanTable)) return false;
    auto ot = std::make_unique<OrphanTable<P>>(engine_.c_heap_gate());
    ot->table.config = table_.config;
    if (!ot->table.entries.Ensure(total)) return false;
    // Pre-sized: these transfers cannot fail.
    (void)Transfer(table_, ot->table);
    for (auto& thread : threads_) (void)Transfer(thread->table_, ot->table);
    ot->next = std::move(orphans_);
    orphans_ = std::move(ot);
    return true;
  }

  void AdoptOrphans() {
    std::unique_ptr<OrphanTable<P>> adopted = engine_.orphans().Adopt();
    if (!adopted) return;
    std::unique_ptr<OrphanTable<P>>* tail = &orphans_;
    while (*tail) tail = &(*tail)->next;
    *tail = std::move(adopted);
  }

  // orphans_update_pending: drops emptied tables, recomputes orphans_pending_.
  void OrphansUpdatePending() {
    bool pending = false;
    std::unique_ptr<OrphanTable<P>>* p = &orphans_;
    while (*p) {
      ProfiledTable<P>& pt = (*p)->table;
      if (!Validated(pt)) pt.entries.ClearInactive();
      if (pt.entries.size() == 0) {
        std::unique_ptr<OrphanTable<P>> dead = std::move(*p);
        *p = std::move(dead->next);
      } else {
        pending |= pt.entries.active() < pt.entries.size();
        p = &(*p)->next;
      }
    }
    orphans_pending_ = pending;
  }

  // Applies `action` to each entry of every live table (from `young` when young_only),
  // then `finish` to the table; an action returning true may have made a callback due.
  template <class Action, class Finish = void (*)(ProfiledTable<P>&)>
  void ApplyToAll(
      bool young_only, Action&& action, Finish&& finish = [](ProfiledTable<P>&) {}) {
    auto apply = [&](ProfiledTable<P>& pt) {
      if (!Validated(pt)) return;
      EntriesTable& es = pt.entries;
      for (std::size_t i = young_only ? es.young() : 0; i < es.size(); ++i) {
        if (action(es.at(i))) es.LowerActive(i);
      }
      finish(pt);
    };
    apply(table_);
    for (auto& thread : threads_) apply(thread->table_);
    for (OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) apply(ot->table);
  }

  // run_callback_res for entry i of `pt`. `invoke` calls the user's callback.
  template <class Invoke>
  Raised RunCallback(ThreadState<P>& thread, ProfiledTable<P>& pt, std::size_t i, CallbackKind kind,
                     Invoke&& invoke) {
    Entry& e = pt.entries.at(i);
    if (e.runner != nullptr) return std::nullopt;  // another thread got here first
    thread.running_.table = &pt.entries;
    thread.running_.index = i;
    e.runner = &thread.running_;
    e.set_running_callback(kind);
    e.Set(entry_bits::CalledBit(kind), true);
    e.user_data = 0;
    const ProfileRef<P> keep_alive = pt.config;

    const CallbackResult result = invoke();

    // The entry may have moved (evicted, transferred to another table) meanwhile.
    EntriesTable* es = thread.running_.table;
    const std::size_t j = thread.running_.index;
    thread.running_.table = nullptr;
    Entry& after = es->at(j);
    after.runner = nullptr;
    after.set_running_callback(CallbackKind::kNone);
    ProfiledTable<P>* owner = OwnerOf(es);
    if (owner == nullptr || !Validated(*owner)) {
      // Discarded during the callback: the entry went with the others.
      return result.raised() ? Raised(result.exception()) : std::nullopt;
    }
    if (result.raised() || !result.kept() || kind == CallbackKind::kDealloc) {
      es->Delete(j);
      return result.raised() ? Raised(result.exception()) : std::nullopt;
    }
    after.user_data = result.data();
    // Young user data makes the entry a minor GC root again.
    if (kMutant != Mutant::kYoungUserDataNotNoted && hooks_.IsYoungValue(after.user_data)) {
      es->LowerYoung(j);
    }
    if (j < es->active() &&
        (after.deallocated() || (after.promoted() && kind != CallbackKind::kPromote))) {
      es->set_active(j);
    }
    return std::nullopt;
  }

  // The ProfiledTable holding `es`: tables move only within this domain.
  ProfiledTable<P>* OwnerOf(EntriesTable* es) {
    if (es == &table_.entries) return &table_;
    for (auto& thread : threads_) {
      if (es == &thread->table_.entries) return &thread->table_;
    }
    for (OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) {
      if (es == &ot->table.entries) return &ot->table;
    }
    return nullptr;
  }

  Raised RunAllocCallback(ThreadState<P>& thread, ProfiledTable<P>& pt, std::size_t i) {
    Entry& e = pt.entries.at(i);
    std::unique_ptr<Callstack> callstack = pt.entries.Unstash(i);
    AllocationInfo info;
    info.n_samples = e.samples;
    info.size = e.wosize;
    info.source = e.source();
    if (callstack) info.callstack = callstack->frames;
    info.domain_id = id_;
    info.thread_id = thread.id();
    const Tracker& tracker = pt.config->tracker();
    const auto& cb = e.alloc_young() ? tracker.alloc_minor : tracker.alloc_major;
    return RunCallback(thread, pt, i, CallbackKind::kAlloc,
                       [&] { return cb ? cb(info) : CallbackResult::Drop(); });
  }

  // entries_run_callbacks_res: runs every due callback of one table, in entry order and
  // alloc -> promote -> dealloc within an entry.
  Raised RunTableCallbacks(ThreadState<P>& thread, ProfiledTable<P>& pt) {
    Raised raised;
    EntriesTable& es = pt.entries;
    while (es.active() < es.size()) {
      const ProfileRef<P> config =
          kMutant == Mutant::kCallbackAfterDiscard ? pt.config : Validated(pt);
      if (!config) break;
      const std::size_t i = es.active();
      Entry& e = es.at(i);
      // Deleted entries, and entries whose callback another thread is running, have
      // nothing to run here; neither have entries whose pending callbacks are done.
      const bool runnable = !e.deleted() && e.runner == nullptr;
      if (runnable && !e.Called(CallbackKind::kAlloc)) {
        if (config->sampling()) {
          raised = RunAllocCallback(thread, pt, i);
          if (raised) break;
        } else {
          es.Delete(i);  // sampling stopped before its allocation callback could run
        }
      } else if (runnable && e.promoted() && !e.Called(CallbackKind::kPromote)) {
        const UserData data = e.user_data;
        const auto& cb = config->tracker().promote;
        raised = RunCallback(thread, pt, i, CallbackKind::kPromote,
                             [&] { return cb ? cb(data) : CallbackResult::Drop(); });
        if (raised) break;
      } else if (runnable && e.deallocated() && !e.Called(CallbackKind::kDealloc)) {
        const UserData data = e.user_data;
        const bool major = e.promoted() || !e.alloc_young();
        const auto& cb = major ? config->tracker().dealloc_major : config->tracker().dealloc_minor;
        raised = RunCallback(thread, pt, i, CallbackKind::kDealloc,
                             [&] { return cb ? cb(data) : CallbackResult::Drop(); });
        if (raised) break;
      } else {
        es.set_active(i + 1);
      }
    }
    es.Evict();
    return raised;
  }

  Engine<P>& engine_;
  RuntimeHooks& hooks_;
  std::uint32_t id_;
  ProfiledTable<P> table_;
  std::unique_ptr<OrphanTable<P>> orphans_;
  bool orphans_pending_ = false;
  bool pending_ = false;
  std::vector<std::unique_ptr<ThreadState<P>>> threads_;
  ThreadState<P>* current_ = nullptr;
  std::uint32_t next_thread_id_ = 0;
  sampler::Sampler sampler_;
};

}  // namespace mpo::memprof
