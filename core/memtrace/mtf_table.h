// Move-to-front table of memtrace's location codec (mirrors Location_codec.Mtf_table).
//
// Data. 31 slots, most recently used first. Slots [0, size()) are full and the rest are
// empty: a push shifts every entry down one slot (the 31st falls off) and a hit moves
// one entry to slot 0, so empty slots only ever sit at the tail. Invariant:
// size() <= kLength, and keys of full slots are pairwise distinct when the table is
// driven by an encoder (a decoder follows whatever indices the trace holds).
//
// Index 31 (kNotFound) means "not in the table; the string follows inline".
//
// Values. Each filename slot carries the defname table of that file. When a decoder
// pushes a new filename into a full table, memtrace's reader hands the evicted slot's
// defname table to the new file (v001 writers relied on it); `PushReusingLast` keeps
// that behaviour. Encoders always start a new file with an empty table (`Push`).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace mpo::memtrace {

template <class V>
class MtfTable {
 public:
  static constexpr int kLength = 31;
  static constexpr int kNotFound = kLength;

  struct Entry {
    std::string key;
    V value{};
  };

  int size() const { return size_; }
  const Entry& at(int i) const { return slots_[i]; }

  // Index of `key` among the full slots, or kNotFound.
  int Find(std::string_view key) const {
    for (int i = 0; i < size_; ++i)
      if (slots_[i].key == key) return i;
    return kNotFound;
  }

  // Moves full slot `i` (precondition: 0 <= i < size()) to the front; returns it.
  Entry& MoveToFront(int i) {
    std::rotate(slots_.begin(), slots_.begin() + i, slots_.begin() + i + 1);
    return slots_[0];
  }

  // Pushes `key` at the front with a fresh value, evicting the last slot when full.
  Entry& Push(std::string_view key) {
    Entry& e = ShiftDown();
    e.key.assign(key);
    e.value = V{};
    return e;
  }

  // Pushes `key` at the front. When the table is full the new entry keeps the evicted
  // entry's value (memtrace's reader behaviour); otherwise it gets a fresh value.
  Entry& PushReusingLast(std::string_view key) {
    const bool full = size_ == kLength;
    Entry& e = ShiftDown();
    e.key.assign(key);
    if (!full) e.value = V{};
    return e;
  }

  // Encoder side: the index to write for `key` (kNotFound when absent), and the table
  // updated as memtrace's encoder updates it. `*entry` is the slot now holding `key`.
  int Encode(std::string_view key, Entry** entry) {
    int i = Find(key);
    if (i == kNotFound) {
      *entry = &Push(key);
      return kNotFound;
    }
    *entry = &MoveToFront(i);
    return i;
  }

  // Empties the table (slots beyond size() are never read).
  void Clear() { size_ = 0; }

  bool CheckInvariants() const { return size_ >= 0 && size_ <= kLength; }

 private:
  // Rotates the last slot (evicted when full) to the front and returns it.
  Entry& ShiftDown() {
    std::rotate(slots_.begin(), slots_.begin() + kLength - 1, slots_.end());
    if (size_ < kLength) ++size_;
    return slots_[0];
  }

  std::array<Entry, kLength> slots_{};
  int size_ = 0;
};

}  // namespace mpo::memtrace
