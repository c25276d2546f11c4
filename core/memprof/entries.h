// Entries: one compact record per tracked block, and the resizable tables that hold
// them (entry_s / entries_s of runtime/memprof.c, section 1.2 of its design comment).
//
// A table keeps three "lowest index" hints so that each pass is linear from where work
// may start: before `young` no entry refers to the minor heap, before `evict` no entry
// is deleted, before `active` no entry has a callback to run. Passes check each entry,
// so the hints only need to be lower bounds.
//
// Threading: a table belongs to one domain (or one of its threads) and is used by one
// thread at a time; the engine provides that serialisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/memprof/c_heap.h"

namespace mpo::memprof {

class EntriesTable;

// Where a thread's running callback lives: its table and index. Entries point back to
// it (`runner`), so that moving an entry (evict, transfer) keeps the thread's view right.
struct RunningSlot {
  EntriesTable* table = nullptr;
  std::size_t index = 0;
  std::uint32_t thread_id = 0;
};

// A callstack captured outside a callback ("stashed"), owned by its entry until the
// allocation callback runs.
struct Callstack {
  std::vector<std::uint64_t> frames;
};

// Entry flags, one 32-bit word:
//   bits 0-1  source (AllocationSource)
//   bit  2    offset       block is an offset in a combined allocation
//   bit  3    alloc_young  allocated in the minor heap
//   bit  4    promoted     (implies alloc_young)
//   bit  5    deallocated
//   bit  6    deleted      marked for eviction
//   bit  7    stashed      user_data holds an owned Callstack*
//   bits 8-9  callback     CallbackKind now running
//   bits 10-12 callbacks   mask of callbacks called: 1 << (kind - 1)
namespace entry_bits {
inline constexpr std::uint32_t kSourceMask = 0x3;
inline constexpr std::uint32_t kOffset = 1u << 2;
inline constexpr std::uint32_t kAllocYoung = 1u << 3;
inline constexpr std::uint32_t kPromoted = 1u << 4;
inline constexpr std::uint32_t kDeallocated = 1u << 5;
inline constexpr std::uint32_t kDeleted = 1u << 6;
inline constexpr std::uint32_t kStashed = 1u << 7;
inline constexpr int kCallbackShift = 8;
inline constexpr std::uint32_t kCallbackMask = 0x3u << kCallbackShift;
inline constexpr int kCalledShift = 10;
inline constexpr std::uint32_t kCalledMask = 0x7u << kCalledShift;
constexpr std::uint32_t CalledBit(CallbackKind kind) {
  return 1u << (kCalledShift + static_cast<int>(kind) - 1);
}
}  // namespace entry_bits

// Invariants (EntriesTable::CheckInvariants): promoted implies alloc_young; an offset
// entry is neither promoted nor deallocated; a stash never outlives the allocation
// callback; a running entry is not deleted.
struct Entry {
  BlockAddr block;          // the block, a comballoc offset (kOffset), or kNoBlock
  std::uint64_t user_data;  // the last callback's result, or a stashed Callstack*
  std::uint64_t samples;
  std::uint64_t wosize;  // words, header excluded
  RunningSlot* runner;   // the thread running a callback on this entry, if any
  std::uint32_t flags;   // entry_bits
  std::uint32_t spare;

  bool Has(std::uint32_t bit) const { return (flags & bit) != 0; }
  void Set(std::uint32_t bit, bool on) { flags = on ? (flags | bit) : (flags & ~bit); }
  bool offset() const { return Has(entry_bits::kOffset); }
  bool alloc_young() const { return Has(entry_bits::kAllocYoung); }
  bool promoted() const { return Has(entry_bits::kPromoted); }
  bool deallocated() const { return Has(entry_bits::kDeallocated); }
  bool deleted() const { return Has(entry_bits::kDeleted); }
  bool stashed() const { return Has(entry_bits::kStashed); }
  AllocationSource source() const {
    return static_cast<AllocationSource>(flags & entry_bits::kSourceMask);
  }
  CallbackKind running_callback() const {
    return static_cast<CallbackKind>((flags & entry_bits::kCallbackMask) >>
                                     entry_bits::kCallbackShift);
  }
  void set_running_callback(CallbackKind kind) {
    flags = (flags & ~entry_bits::kCallbackMask) |
            (static_cast<std::uint32_t>(kind) << entry_bits::kCallbackShift);
  }
  bool Called(CallbackKind kind) const { return Has(entry_bits::CalledBit(kind)); }
  std::uint32_t called_mask() const {
    return (flags & entry_bits::kCalledMask) >> entry_bits::kCalledShift;
  }
};
static_assert(sizeof(Entry) <= 48, "an entry must stay within six words");
static_assert(std::is_trivially_copyable_v<Entry>);

// Minimum capacities of the three kinds of table.
inline constexpr std::size_t kMinThreadCapacity = 16;
inline constexpr std::size_t kMinDomainCapacity = 128;
inline constexpr std::size_t kMinOrphanCapacity = 16;
inline constexpr std::size_t kGrowthFactor = 2;
inline constexpr std::size_t kShrinkFactor = 4;
// What Add returns when the table could not grow (OCaml's Invalid_index).
inline constexpr std::size_t kInvalidIndex = ~std::size_t{0};

class EntriesTable {
 public:
  explicit EntriesTable(std::size_t min_capacity, CHeapGate* gate = nullptr)
      : min_capacity_(min_capacity), gate_(gate) {}
  ~EntriesTable() { Clear(); }
  EntriesTable(const EntriesTable&) = delete;
  EntriesTable& operator=(const EntriesTable&) = delete;

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t min_capacity() const { return min_capacity_; }
  std::size_t young() const { return young_; }
  std::size_t evict() const { return evict_; }
  std::size_t active() const { return active_; }
  Entry& at(std::size_t i) { return t_[i]; }
  const Entry& at(std::size_t i) const { return t_[i]; }
  std::span<const Entry> entries() const { return {t_.get(), size_}; }

  // Lowers a hint to `i` (hints are lower bounds).
  void LowerYoung(std::size_t i) { young_ = i < young_ ? i : young_; }
  void LowerActive(std::size_t i) { active_ = i < active_ ? i : active_; }
  void set_active(std::size_t i) { active_ = i; }
  void MarkAllOld() { young_ = size_; }

  // Reallocates when `grow` more entries would not fit, or when the table would be more
  // than kShrinkFactor times too large. Never gives an unused table its minimum. False
  // when the table had to grow and the C heap refused (the table is unchanged).
  bool Ensure(std::size_t grow);

  // Appends an entry; takes ownership of `stash` (may be null, freed on failure).
  // Returns its index, or kInvalidIndex when the table could not grow.
  std::size_t Add(BlockAddr block, std::unique_ptr<Callstack> stash, std::uint64_t wosize,
                  std::uint64_t samples, AllocationSource source, bool young, bool offset);

  // Takes the stashed callstack out of entry i (null when none).
  std::unique_ptr<Callstack> Unstash(std::size_t i);

  // Marks entry i deleted (it must have no running callback) and frees its stash.
  void Delete(std::size_t i);

  // Compacts out deleted entries, fixing hints and runners' indices, then lets the
  // table shrink.
  void Evict();

  // Offset entries can never be tied to a block: those whose allocation callback ran
  // are marked deallocated (a faked dealloc keeps counts balanced), the others deleted.
  void ClearOffsets();

  // Deletes every entry without a running callback (the table's profile was discarded).
  void ClearInactive();

  // Moves every entry to `to`, deleting those that never ran a callback, and fixes
  // runners. `from` is left empty. `to` grows if needed but never shrinks here (so a
  // table pre-sized for several transfers keeps its room). False (nothing moved) when
  // `to` could not grow.
  bool TransferTo(EntriesTable& to);
  // TransferTo's first step, for fault policies (core/memprof/mutants.h) that replace
  // the second: appends this table's entries to `to` (the deletions and runner fixes
  // above included) and leaves them here too. They belong to `to`: this table must not
  // run, free or delete them.
  bool CopyTo(EntriesTable& to);

  // Frees everything.
  void Clear();

  // Checks the invariants documented on the fields below and on Entry; kInternal
  // naming the first violation. For tests, fuzzers and property tests.
  Status CheckInvariants() const;

 private:
  void Reallocate(std::size_t new_capacity);
  // TransferTo's second step: empties this table without freeing the stashes that moved.
  void ForgetMoved();

  // Entries [0, size_) are in use; each entry's `runner`, when set, points back at it
  // (table and index) and its entry is not deleted.
  std::unique_ptr<Entry[]> t_;
  std::size_t min_capacity_;
  CHeapGate* gate_;
  // size_ <= capacity_; an allocated array holds at least min_capacity_ entries.
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  // Hints, each <= size_: no entry before young_ refers to a minor heap (checked by the
  // simulator, which knows the heaps), none before evict_ is deleted, none before
  // active_ has a callback to run.
  std::size_t young_ = 0;
  std::size_t evict_ = 0;
  std::size_t active_ = 0;
};

}  // namespace mpo::memprof
