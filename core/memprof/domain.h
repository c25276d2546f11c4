// One OCaml domain's memprof state (memprof_domain_s): its threads, its entries table
// and orphan tables, its sampler, and the entry points the runtime and Gc.Memprof call.
//
// The entry points are defined by concept: threads, Start/Stop and sampling here;
// callbacks in domain_callbacks.h; the GC interface in domain_gc.h; orphans in
// domain_orphans.h (all included below, so this header is the one to include).
//
// Threading: a Domain and its threads are used by one OS thread at a time (OCaml's
// domain lock); callbacks run on that thread, never nested, and may re-enter the Domain.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/memprof/c_heap.h"
#include "core/memprof/entries.h"
#include "core/memprof/faults.h"
#include "core/memprof/global_state.h"
#include "core/memprof/profile.h"
#include "core/memprof/profiled_table.h"
#include "core/memprof/runtime_hooks.h"
#include "core/memprof/thread_state.h"
#include "core/sampler/sampler.h"

namespace mpo::memprof {

// What a minor collection did to a young block: its new (major) address, or death.
using MinorFate = std::function<std::optional<BlockAddr>(BlockAddr)>;

// `Faults` is the test seam (faults.h); production uses NoFaults.
template <class P, class Faults = NoFaults>
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
  ~Domain();
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
    const ProfileRef<P>& running = Validated(current_->table_);
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
    const ProfileRef<P> config = Validated(thread.table_);
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
    const ProfileRef<P>& config = Validated(current_->table_);
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
  Raised SampleYoung(std::uint64_t wosize, bool from_caml, std::span<const std::uint64_t> lens);

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

  // ---- callbacks (domain_callbacks.h) ----

  // caml_memprof_run_callbacks_res: domain table, then the current thread's, then
  // orphans; stops at the first exception.
  Raised RunCallbacks();
  bool pending() const { return pending_; }

  // ---- GC interface (domain_gc.h) ----

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
                 BlockVisitor&& visit_block);
  // caml_memprof_after_minor_gc: every young tracked block was promoted or died.
  void AfterMinorGc(const MinorFate& fate);
  // caml_memprof_after_major_gc: tracked major blocks not `alive` died.
  void AfterMajorGc(const std::function<bool(BlockAddr)>& alive);

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

  // The invariants documented on the fields below and on every table's entries
  // (EntriesTable::CheckInvariants); kInternal naming the first violation.
  Status CheckInvariants() const {
    Status bad;
    ForEachTable([&](const ProfiledTable<P>& pt, TableKind) {
      if (bad.ok()) bad = pt.entries.CheckInvariants();
    });
    if (!bad.ok()) return bad;
    for (const auto& thread : threads_) {
      if (thread->table_.config != table_.config && thread->table_.entries.size() > 0 &&
          table_.config && table_.config->status() != ProfileStatusValue::kDiscarded) {
        return Status(ErrorCode::kInternal,
                      "thread table sampled under another profile than its domain");
      }
      if (thread->running_.table != nullptr &&
          thread->running_.index >= thread->running_.table->size()) {
        return Status(ErrorCode::kInternal, "running index beyond its table");
      }
    }
    return Status::Ok();
  }

 private:
  // entries_transfer; entries of a discarded profile are dropped on the way. False
  // (nothing moved) when `to` cannot grow.
  static bool Transfer(ProfiledTable<P>& from, ProfiledTable<P>& to) {
    if (from.entries.size() == 0) return true;
    (void)Validated(from);
    (void)Validated(to);
    return Faults::TransferEntries(from.entries, to.entries);
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

  // Orphans (domain_orphans.h).
  bool OrphansCreate();
  void AdoptOrphans();
  void OrphansUpdatePending();

  // GC passes (domain_gc.h): applies `action` to each entry of every live table (from
  // `young` when young_only), then `finish` to the table; an action returning true may
  // have made a callback due.
  template <class Action, class Finish>
  void ApplyToAll(bool young_only, Action&& action, Finish&& finish);
  template <class Action>
  void ApplyToAll(bool young_only, Action&& action) {
    ApplyToAll(young_only, std::forward<Action>(action), [](ProfiledTable<P>&) {});
  }

  // Callbacks (domain_callbacks.h).
  template <class Invoke>
  Raised RunCallback(ThreadState<P>& thread, ProfiledTable<P>& pt, std::size_t i, CallbackKind kind,
                     Invoke&& invoke);
  ProfiledTable<P>* OwnerOf(EntriesTable* es);
  Raised RunAllocCallback(ThreadState<P>& thread, ProfiledTable<P>& pt, std::size_t i);
  Raised RunTableCallbacks(ThreadState<P>& thread, ProfiledTable<P>& pt);

  Engine<P>& engine_;
  RuntimeHooks& hooks_;
  std::uint32_t id_;
  // Entries handed over by this domain's threads (and by sampling outside OCaml code's
  // combined allocations). Invariant: every thread table samples under this table's
  // profile unless that profile was discarded (CheckInvariants).
  ProfiledTable<P> table_;
  // Tables of earlier profiles and of adopted ended domains, newest first; each holds
  // at least one entry after OrphansUpdatePending.
  std::unique_ptr<OrphanTable<P>> orphans_;
  // Some orphan table has a callback due (recomputed by OrphansUpdatePending).
  bool orphans_pending_ = false;
  // A callback may be due on the current thread: set with the runtime's action-pending
  // flag, never while the thread is suspended.
  bool pending_ = false;
  std::vector<std::unique_ptr<ThreadState<P>>> threads_;
  // The thread the runtime last entered; null once it ended (until another is entered).
  ThreadState<P>* current_ = nullptr;
  std::uint32_t next_thread_id_ = 0;
  // Seeded with the domain id; restarted with each profile's rate (RandInit).
  sampler::Sampler sampler_;
};

}  // namespace mpo::memprof

#include "core/memprof/domain_callbacks.h"
#include "core/memprof/domain_gc.h"
#include "core/memprof/domain_orphans.h"
