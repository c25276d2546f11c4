// Arrays whose elements are written before they are read, allocated without zero-filling.
#pragma once

#include <cstddef>
#include <memory>

namespace mpo {

// std::make_unique_for_overwrite<T[]>(n) where the standard library has it (libstdc++ 11,
// libc++ 16 and later). Older libraries get std::make_unique<T[]>(n): the same results,
// only a zero-fill slower, so that the library builds there too (Debian 12's libc++ 14,
// older Apple toolchains; ci/libcxx.sh builds against the former).
template <class T>
std::unique_ptr<T[]> MakeUninitArray(std::size_t n) {
#if defined(__cpp_lib_smart_ptr_for_overwrite)
  return std::make_unique_for_overwrite<T[]>(n);
#else
  return std::make_unique<T[]>(n);
#endif
}

}  // namespace mpo
