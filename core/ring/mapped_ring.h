// The production Ring of ring_protocol.h: one domain's head/tail header and data words
// inside a mapped runtime events file, accessed through std::atomic_ref so that the
// producer and out-of-process consumers can share them without data races in C++ terms.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/sync/memory_order.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {

static_assert(std::atomic_ref<std::uint64_t>::required_alignment == alignof(std::uint64_t));
static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free);

class MappedRing {
 public:
  // `header` points at the ring's 80-byte header, `data` at its `size_words` words; both
  // 8-byte aligned and valid for the lifetime of this object. A read-only mapping may
  // be used if only the Load* functions are called (x86-64 and arm64 loads do not write).
  MappedRing(std::uint64_t* header, std::uint64_t* data, std::uint64_t size_words)
      : header_(header), data_(data), size_words_(size_words) {}

  std::uint64_t SizeWords() const { return size_words_; }
  std::uint64_t LoadWord(std::uint64_t i, sync::MemoryOrder mo) const {
    return std::atomic_ref<std::uint64_t>(data_[i]).load(sync::StdPlatform::ToStd(mo));
  }
  void StoreWord(std::uint64_t i, std::uint64_t v, sync::MemoryOrder mo) {
    std::atomic_ref<std::uint64_t>(data_[i]).store(v, sync::StdPlatform::ToStd(mo));
  }
  std::uint64_t LoadHead(sync::MemoryOrder mo) const { return Load(0, mo); }
  void StoreHead(std::uint64_t v, sync::MemoryOrder mo) { Store(0, v, mo); }
  std::uint64_t LoadTail(sync::MemoryOrder mo) const { return Load(1, mo); }
  void StoreTail(std::uint64_t v, sync::MemoryOrder mo) { Store(1, v, mo); }

 private:
  std::uint64_t Load(int w, sync::MemoryOrder mo) const {
    return std::atomic_ref<std::uint64_t>(header_[w]).load(sync::StdPlatform::ToStd(mo));
  }
  void Store(int w, std::uint64_t v, sync::MemoryOrder mo) {
    std::atomic_ref<std::uint64_t>(header_[w]).store(v, sync::StdPlatform::ToStd(mo));
  }

  std::uint64_t* header_;
  std::uint64_t* data_;
  std::uint64_t size_words_;
};

}  // namespace mpo::ring
