#include "core/memtrace/internal/undefined_code.h"

#include <algorithm>
#include <array>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::testing {

std::vector<std::uint8_t> WithUndefinedCode(std::vector<std::uint8_t> trace, OcamlInt code) {
  std::array<std::uint8_t, 8> le;
  for (std::size_t i = 0; i < le.size(); ++i)
    le[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(code) >> (8 * i));
  // The writer puts a code's location event in a packet before the first event using it.
  const auto at = std::search(trace.begin(), trace.end(), le.begin(), le.end());
  if (at == trace.end()) return {};
  // Another code: bit 45 flipped.
  *(at + 5) ^= 0x20;
  return trace;
}

std::uint64_t FirstUseOffset(const std::vector<std::uint8_t>& trace, OcamlInt code) {
  auto r = TraceReader::Open(MemorySource(trace));
  if (!r.ok()) return 0;
  while (const Event* e = (*r)->NextEvent())
    if (std::find(e->backtrace.begin(), e->backtrace.end(), code) != e->backtrace.end())
      return (*r)->event_offset();
  return 0;
}

}  // namespace mpo::memtrace::testing
