// Move-to-front table of memtrace's location codec (mirrors Location_codec.Mtf_table).
//
// Data. 31 positions, most recently used first. Slots [0, size()) are full and the rest are
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
#include <cstring>
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
    std::uint32_t id = 0;  // free for the user (the decoder keeps an interned-string id)
  };

  MtfTable() {
    for (int i = 0; i < kLength; ++i) order_[i] = static_cast<std::uint8_t>(i);
  }

  int size() const { return size_; }
  const Entry& at(int i) const { return slots_[order_[i]]; }

  // Index of `key` among the full slots, or kNotFound.
  int Find(std::string_view key) const {
    for (int i = 0; i < size_; ++i)
      if (slots_[order_[i]].key == key) return i;
    return kNotFound;
  }

  // Moves full slot `i` (precondition: 0 <= i < size()) to the front; returns it.
  Entry& MoveToFront(int i) {
    const std::uint8_t s = order_[i];
    std::memmove(&order_[1], &order_[0], static_cast<std::size_t>(i));
    order_[0] = s;
    return slots_[s];
  }

  // Pushes `key` at the front with a fresh value, evicting the last slot when full.
  Entry& Push(std::string_view key) {
    Entry& e = PushSlot(/*reuse_last_value=*/false);
    e.key.assign(key);
    return e;
  }

  // Pushes `key` at the front. When the table is full the new entry keeps the evicted
  // entry's value (memtrace's reader behaviour); otherwise it gets a fresh value.
  Entry& PushReusingLast(std::string_view key) {
    Entry& e = PushSlot(/*reuse_last_value=*/true);
    e.key.assign(key);
    return e;
  }

  // Decoder side: pushes an entry with no key (decoders name strings by the `id` they
  // store, and never call Find, so copying names into keys would be wasted). With
  // `reuse_last_value` it keeps the evicted value like PushReusingLast, else like Push.
  Entry& PushKeyless(bool reuse_last_value) {
    Entry& e = PushSlot(reuse_last_value);
    e.key.clear();
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

  bool CheckInvariants() const {
    std::array<bool, kLength> seen{};
    for (std::uint8_t s : order_) {
      if (s >= kLength || seen[s]) return false;
      seen[s] = true;
    }
    return size_ >= 0 && size_ <= kLength;
  }

 private:
  // Moves the last position (evicted when full, an unused slot otherwise) to the front
  // and returns its slot.
  Entry& ShiftDown() {
    const std::uint8_t s = order_[kLength - 1];
    std::memmove(&order_[1], &order_[0], kLength - 1);
    order_[0] = s;
    if (size_ < kLength) ++size_;
    return slots_[s];
  }

  // ShiftDown with the new front's value: the evicted entry's when the table was full
  // and `reuse_last_value`, else fresh. The caller sets the key.
  Entry& PushSlot(bool reuse_last_value) {
    const bool full = size_ == kLength;
    Entry& e = ShiftDown();
    if (!(full && reuse_last_value)) e.value = V{};
    return e;
  }

  // Entries stay in place; `order_` is the MTF order (a permutation of slot numbers), so
  // a move to front shifts bytes, not strings.
  std::array<Entry, kLength> slots_{};
  std::array<std::uint8_t, kLength> order_;
  int size_ = 0;
};

}  // namespace mpo::memtrace
