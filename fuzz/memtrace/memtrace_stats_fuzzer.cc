// `memtrace stats` (core/memtrace/analysis/trace_stats) over arbitrary bytes: a typed error or a
// report, never a crash, UB or unbounded work.
#include <cstddef>
#include <cstdint>

#include "core/memtrace/analysis/trace_stats.h"
#include "core/memtrace/byte_io.h"
#include "fuzz/memtrace/tool_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memtrace;
  auto src = MemorySource(std::span<const std::uint8_t>(data, size));
  auto st = ComputeTraceStats(*src, 5, mpo::fuzz::FuzzLimits());
  if (!st.ok()) {
    if (st.status().ok()) __builtin_trap();
    return 0;
  }
  if (st->top.size() > 5) __builtin_trap();
  for (std::size_t i : st->top)
    if (i >= st->analysis.sites.size()) __builtin_trap();
  if (st->by_source[0] + st->by_source[1] + st->by_source[2] != st->blocks) __builtin_trap();
  (void)FormatTraceStats(*st, "fuzz.ctf");
  return 0;
}
