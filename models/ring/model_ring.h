// A ring for the models: the Ring interface of core/ring/ring_protocol.h over
// P::Atomic words, small enough (16-64 words) for Relacy to explore wrap-around,
// padding and overwrite.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/sync/memory_order.h"

namespace mpo::models {

template <class P, std::size_t kWords>
class ModelRing {
  static_assert(kWords >= 4 && (kWords & (kWords - 1)) == 0);

 public:
  std::uint64_t SizeWords() const { return kWords; }
  std::uint64_t LoadWord(std::uint64_t i, sync::MemoryOrder mo) const { return words_[i].Load(mo); }
  void StoreWord(std::uint64_t i, std::uint64_t v, sync::MemoryOrder mo) { words_[i].Store(v, mo); }
  std::uint64_t LoadHead(sync::MemoryOrder mo) const { return head_.Load(mo); }
  void StoreHead(std::uint64_t v, sync::MemoryOrder mo) { head_.Store(v, mo); }
  std::uint64_t LoadTail(sync::MemoryOrder mo) const { return tail_.Load(mo); }
  void StoreTail(std::uint64_t v, sync::MemoryOrder mo) { tail_.Store(v, mo); }

 private:
  typename P::template Atomic<std::uint64_t> words_[kWords];
  typename P::template Atomic<std::uint64_t> head_;
  typename P::template Atomic<std::uint64_t> tail_;
};

}  // namespace mpo::models
