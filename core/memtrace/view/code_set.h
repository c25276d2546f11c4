// A set of location codes, open addressing (the view asks it once per new backtrace
// entry, so it must cost a multiply and a probe, not a node allocation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace::view {

class CodeSet {
 public:
  bool Contains(OcamlInt code) const {
    if (slots_.empty()) return false;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = Slot(code, mask);; i = (i + 1) & mask) {
      if (slots_[i] == code) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  // Adds `code`; true when it was not in the set yet.
  bool Insert(OcamlInt code) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = Slot(code, mask);; i = (i + 1) & mask) {
      if (slots_[i] == code) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = code;
        ++size_;
        return true;
      }
    }
  }
  std::size_t size() const { return size_; }

 private:
  // Never a code: OcamlInts are normalised (bit 63 == bit 62), and this one is not.
  static constexpr OcamlInt kEmpty = std::numeric_limits<OcamlInt>::min();
  static std::size_t Slot(OcamlInt code, std::size_t mask) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(code) * kGoldenGamma) >> 32) & mask;
  }
  void Grow() {
    std::vector<OcamlInt> old(slots_.empty() ? 512 : slots_.size() * 2, kEmpty);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (OcamlInt code : old) {
      if (code == kEmpty) continue;
      std::size_t i = Slot(code, mask);
      while (slots_[i] != kEmpty) i = (i + 1) & mask;
      slots_[i] = code;
    }
  }
  std::vector<OcamlInt> slots_;
  std::size_t size_ = 0;
};

}  // namespace mpo::memtrace::view
