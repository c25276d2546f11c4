// `memtrace diff` (core/memtrace/analysis/trace_diff) over arbitrary bytes: the input against
// itself (must agree, or fail on the first side) and its two halves against each other.
#include <cstddef>
#include <cstdint>

#include "core/memtrace/analysis/trace_diff.h"
#include "core/memtrace/byte_io.h"
#include "fuzz/memtrace/tool_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memtrace;
  const std::span<const std::uint8_t> all(data, size);
  {
    auto a = MemorySource(all);
    auto b = MemorySource(all);
    DiffFailure f;
    auto d = DiffTraces(*a, *b, &f, mpo::fuzz::FuzzLimits());
    if (d.has_value()) __builtin_trap();  // a trace always agrees with itself
    if (!f.status.ok() && f.side != 0) __builtin_trap();
  }
  const std::size_t half = size / 2;
  auto a = MemorySource(all.subspan(0, half));
  auto b = MemorySource(all.subspan(half));
  DiffFailure f;
  auto d = DiffTraces(*a, *b, &f, mpo::fuzz::FuzzLimits());
  if (d.has_value() && !f.status.ok()) __builtin_trap();
  return 0;
}
