#include "core/memprof/entries.h"

#include <algorithm>
#include <cstring>

#include "core/base/uninit_array.h"

namespace mpo::memprof {

void EntriesTable::Reallocate(std::size_t new_capacity) {
  auto fresh = MakeUninitArray<Entry>(new_capacity);
  if (size_ > 0) std::memcpy(fresh.get(), t_.get(), size_ * sizeof(Entry));
  t_ = std::move(fresh);
  capacity_ = new_capacity;
}

bool EntriesTable::Ensure(std::size_t grow) {
  if (capacity_ == 0 && grow == 0) return true;
  const std::size_t wanted = size_ + grow;
  const bool fits = wanted <= capacity_;
  const bool not_too_large = kShrinkFactor * wanted >= capacity_ || capacity_ == min_capacity_;
  if (fits && not_too_large) return true;
  // Only growth asks the C heap: a shrink that failed would just keep the larger array.
  if (!fits && !CHeapAllows(gate_, CHeapSite::kEntries)) return false;
  Reallocate(std::max(wanted * kGrowthFactor, min_capacity_));
  return true;
}

std::size_t EntriesTable::Add(BlockAddr block, std::unique_ptr<Callstack> stash,
                              std::uint64_t wosize, std::uint64_t samples, AllocationSource source,
                              bool young, bool offset) {
  if (!Ensure(1)) return kInvalidIndex;  // `stash` is freed on return
  const std::size_t i = size_++;
  Entry& e = t_[i];
  e.block = block;
  e.user_data = reinterpret_cast<std::uintptr_t>(stash.get());
  e.samples = samples;
  e.wosize = wosize;
  e.runner = nullptr;
  e.flags = static_cast<std::uint32_t>(source) & entry_bits::kSourceMask;
  e.spare = 0;
  e.Set(entry_bits::kOffset, offset);
  e.Set(entry_bits::kAllocYoung, young);
  e.Set(entry_bits::kStashed, stash != nullptr);
  (void)stash.release();  // now owned by the entry (freed by Unstash or Delete)
  return i;
}

std::unique_ptr<Callstack> EntriesTable::Unstash(std::size_t i) {
  Entry& e = t_[i];
  if (!e.stashed()) return nullptr;
  // The entry's user-data word holds the stashed callstack's address until the allocation
  // callback runs (OCaml stashes it the same way), keeping entries at 48 bytes.
  std::unique_ptr<Callstack> owned(
      reinterpret_cast<Callstack*>(e.user_data));  // NOLINT(performance-no-int-to-ptr)
  e.Set(entry_bits::kStashed, false);
  e.user_data = 0;
  return owned;
}

void EntriesTable::Delete(std::size_t i) {
  (void)Unstash(i);
  Entry& e = t_[i];
  e.Set(entry_bits::kDeleted, true);
  e.Set(entry_bits::kOffset, false);
  e.user_data = 0;
  e.block = kNoBlock;
  if (i < evict_) evict_ = i;
}

void EntriesTable::Evict() {
  std::size_t j = evict_;
  for (std::size_t i = evict_; i < size_;) {
    if (!t_[i].deleted()) {
      if (i != j) {
        t_[j] = t_[i];
        if (t_[j].runner != nullptr) t_[j].runner->index = j;
      }
      ++j;
    }
    ++i;
    if (young_ == i) young_ = j;
    if (active_ == i) active_ = j;
  }
  evict_ = size_ = j;
  (void)Ensure(0);
}

void EntriesTable::ClearOffsets() {
  for (std::size_t i = 0; i < size_; ++i) {
    Entry& e = t_[i];
    if (!e.offset()) continue;
    if (e.Called(CallbackKind::kAlloc)) {
      e.block = kNoBlock;
      e.Set(entry_bits::kOffset, false);
      e.Set(entry_bits::kDeallocated, true);
      LowerActive(i);
    } else {
      Delete(i);
    }
  }
  Evict();
}

void EntriesTable::ClearInactive() {
  for (std::size_t i = 0; i < size_; ++i) {
    if (t_[i].runner == nullptr) Delete(i);
  }
  Evict();
}

bool EntriesTable::CopyTo(EntriesTable& to) {
  if (size_ == 0) return true;
  // Grow `to` only when it must: unlike OCaml's entries_transfer, never shrink it here.
  // orphans_create pre-sizes the orphan table for the domain's and every thread's
  // entries; shrinking it on the first transfer made the next one grow it again, which
  // can fail and leave an old profile's entries in a thread table that the new profile
  // then owns (found by the fuzzer with C-heap refusals). Evict shrinks later.
  if (to.size_ + size_ > to.capacity_ && !to.Ensure(size_)) return false;
  const std::size_t delta = to.size_;
  for (std::size_t i = 0; i < size_; ++i) {
    if (t_[i].called_mask() == 0 && t_[i].runner == nullptr) Delete(i);
    to.t_[delta + i] = t_[i];
    if (RunningSlot* runner = t_[i].runner) {
      runner->table = &to;
      runner->index = delta + i;
    }
  }
  to.size_ += size_;
  if (to.young_ == delta) to.young_ = young_ + delta;
  if (to.evict_ == delta) to.evict_ = evict_ + delta;
  if (to.active_ == delta) to.active_ = active_ + delta;
  return true;
}

bool EntriesTable::TransferTo(EntriesTable& to) {
  if (size_ == 0) return true;
  if (!CopyTo(to)) return false;
  ForgetMoved();
  return true;
}

void EntriesTable::ForgetMoved() {
  // The stashes moved with the entries: forget them here without freeing.
  size_ = young_ = evict_ = active_ = 0;
  (void)Ensure(0);
}

void EntriesTable::Clear() {
  for (std::size_t i = 0; i < size_; ++i) (void)Unstash(i);
  t_.reset();
  capacity_ = size_ = young_ = evict_ = active_ = 0;
}

Status EntriesTable::CheckInvariants() const {
  auto bad = [](const char* what) { return Status(ErrorCode::kInternal, what); };
  if (size_ > capacity_) return bad("size exceeds capacity");
  if (young_ > size_) return bad("young index beyond size");
  if (evict_ > size_) return bad("evict index beyond size");
  if (active_ > size_) return bad("active index beyond size");
  if (capacity_ != 0 && capacity_ < min_capacity_) return bad("capacity below minimum");
  for (std::size_t i = 0; i < size_; ++i) {
    const Entry& e = t_[i];
    if (i < evict_ && e.deleted()) return bad("deleted entry before evict index");
    if (e.promoted() && !e.alloc_young()) return bad("promoted entry not allocated young");
    if (e.runner != nullptr && (e.runner->table != this || e.runner->index != i)) {
      return bad("runner does not point back at its entry");
    }
    if (e.runner != nullptr && e.deleted()) return bad("running entry deleted");
    if (e.offset() && (e.promoted() || e.deallocated()))
      return bad("offset entry promoted or dead");
    if (e.stashed() && e.Called(CallbackKind::kAlloc)) {
      return bad("stash kept after allocation callback");
    }
  }
  return Status::Ok();
}

}  // namespace mpo::memprof
