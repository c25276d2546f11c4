// Domain, part 2: running callbacks (entries_run_callbacks_res and its callers), and the
// combined young allocation whose allocation callbacks run before it completes.
//
// A callback runs with its thread suspended (no sampling, no nested callbacks) and with
// the entry's `runner` set, so that other threads skip the entry and table moves during
// the callback keep the thread's view of it. Included by domain.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "core/memprof/domain.h"

namespace mpo::memprof {

template <class P, class Faults>
Raised Domain<P, Faults>::SampleYoung(std::uint64_t wosize, bool from_caml,
                                      std::span<const std::uint64_t> lens) {
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
  std::int64_t trigger_ofs = static_cast<std::int64_t>(hooks_.MemprofTrigger() - hooks_.YoungPtr());
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

template <class P, class Faults>
Raised Domain<P, Faults>::RunCallbacks() {
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

// run_callback_res for entry i of `pt`. `invoke` calls the user's callback.
template <class P, class Faults>
template <class Invoke>
Raised Domain<P, Faults>::RunCallback(ThreadState<P>& thread, ProfiledTable<P>& pt, std::size_t i,
                                      CallbackKind kind, Invoke&& invoke) {
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
  if (Faults::kNoteYoungUserData && hooks_.IsYoungValue(after.user_data)) {
    es->LowerYoung(j);
  }
  if (j < es->active() &&
      (after.deallocated() || (after.promoted() && kind != CallbackKind::kPromote))) {
    es->set_active(j);
  }
  return std::nullopt;
}

// The ProfiledTable holding `es`: tables move only within this domain.
template <class P, class Faults>
ProfiledTable<P>* Domain<P, Faults>::OwnerOf(EntriesTable* es) {
  if (es == &table_.entries) return &table_;
  for (auto& thread : threads_) {
    if (es == &thread->table_.entries) return &thread->table_;
  }
  for (OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) {
    if (es == &ot->table.entries) return &ot->table;
  }
  return nullptr;
}

template <class P, class Faults>
Raised Domain<P, Faults>::RunAllocCallback(ThreadState<P>& thread, ProfiledTable<P>& pt,
                                           std::size_t i) {
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
template <class P, class Faults>
Raised Domain<P, Faults>::RunTableCallbacks(ThreadState<P>& thread, ProfiledTable<P>& pt) {
  Raised raised;
  EntriesTable& es = pt.entries;
  while (es.active() < es.size()) {
    const ProfileRef<P> config = Faults::CallbackProfile(pt);
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

}  // namespace mpo::memprof
