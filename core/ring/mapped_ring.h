// The production Ring of ring_protocol.h: one domain's head/tail header and data words
// inside a mapped runtime events file, accessed through std::atomic_ref (or, with a
// standard library that lacks it, the compiler's __atomic builtins, which it is made of)
// so that the producer and out-of-process consumers can share them without data races in
// C++ terms.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/sync/memory_order.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {

namespace internal {

#if defined(__cpp_lib_atomic_ref)
static_assert(std::atomic_ref<std::uint64_t>::required_alignment == alignof(std::uint64_t));
static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free);

// A T&, as atomic_ref<T> takes (a load does not write through it).
inline std::uint64_t AtomicLoad(std::uint64_t& word, sync::MemoryOrder mo) {
  return std::atomic_ref<std::uint64_t>(word).load(sync::StdPlatform::ToStd(mo));
}
inline void AtomicStore(std::uint64_t& word, std::uint64_t v, sync::MemoryOrder mo) {
  std::atomic_ref<std::uint64_t>(word).store(v, sync::StdPlatform::ToStd(mo));
}
#else
static_assert(__atomic_always_lock_free(sizeof(std::uint64_t), nullptr));

constexpr int BuiltinOrder(sync::MemoryOrder mo) {
  switch (mo) {
    case sync::MemoryOrder::kRelaxed: return __ATOMIC_RELAXED;
    case sync::MemoryOrder::kAcquire: return __ATOMIC_ACQUIRE;
    case sync::MemoryOrder::kRelease: return __ATOMIC_RELEASE;
    case sync::MemoryOrder::kAcqRel: return __ATOMIC_ACQ_REL;
    case sync::MemoryOrder::kSeqCst: return __ATOMIC_SEQ_CST;
  }
  return __ATOMIC_SEQ_CST;
}
inline std::uint64_t AtomicLoad(std::uint64_t& word, sync::MemoryOrder mo) {
  return __atomic_load_n(&word, BuiltinOrder(mo));
}
inline void AtomicStore(std::uint64_t& word, std::uint64_t v, sync::MemoryOrder mo) {
  __atomic_store_n(&word, v, BuiltinOrder(mo));
}
#endif

}  // namespace internal

class MappedRing {
 public:
  // `header` points at the ring's 80-byte header, `data` at its `size_words` words; both
  // 8-byte aligned and valid for the lifetime of this object. A read-only mapping may
  // be used if only the Load* functions are called (x86-64 and arm64 loads do not write).
  MappedRing(std::uint64_t* header, std::uint64_t* data, std::uint64_t size_words)
      : header_(header), data_(data), size_words_(size_words) {}

  std::uint64_t SizeWords() const { return size_words_; }
  std::uint64_t LoadWord(std::uint64_t i, sync::MemoryOrder mo) const {
    return internal::AtomicLoad(data_[i], mo);
  }
  void StoreWord(std::uint64_t i, std::uint64_t v, sync::MemoryOrder mo) {
    internal::AtomicStore(data_[i], v, mo);
  }
  std::uint64_t LoadHead(sync::MemoryOrder mo) const { return Load(0, mo); }
  void StoreHead(std::uint64_t v, sync::MemoryOrder mo) { Store(0, v, mo); }
  std::uint64_t LoadTail(sync::MemoryOrder mo) const { return Load(1, mo); }
  void StoreTail(std::uint64_t v, sync::MemoryOrder mo) { Store(1, v, mo); }

 private:
  std::uint64_t Load(int w, sync::MemoryOrder mo) const {
    return internal::AtomicLoad(header_[w], mo);
  }
  void Store(int w, std::uint64_t v, sync::MemoryOrder mo) {
    internal::AtomicStore(header_[w], v, mo);
  }

  std::uint64_t* header_;
  std::uint64_t* data_;
  std::uint64_t size_words_;
};

// A read-only view of a ring whose header or data are not 8-byte aligned: only a hostile
// file (or a reference's lenient geometry, RingRules::lenient_metadata) places them so, never a
// producer, so plain byte copies stand in for the atomic loads (which need alignment).
// The Ring interface of ring_protocol.h, loads only.
class UnalignedRing {
 public:
  // `header` holds at least 16 bytes (head, tail) and `data` `size_words` * 8 bytes.
  UnalignedRing(const std::byte* header, const std::byte* data, std::uint64_t size_words)
      : header_(header), data_(data), size_words_(size_words) {}

  std::uint64_t SizeWords() const { return size_words_; }
  std::uint64_t LoadWord(std::uint64_t i, sync::MemoryOrder) const { return Read(data_ + 8 * i); }
  std::uint64_t LoadHead(sync::MemoryOrder) const { return Read(header_); }
  std::uint64_t LoadTail(sync::MemoryOrder) const { return Read(header_ + 8); }

 private:
  static std::uint64_t Read(const std::byte* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  const std::byte* header_;
  const std::byte* data_;
  std::uint64_t size_words_;
};

}  // namespace mpo::ring
