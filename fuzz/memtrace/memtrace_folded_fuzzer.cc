// `memtrace folded` (core/export/folded) over arbitrary bytes: a typed error or sorted
// lines "stack COUNT", never a crash or unbounded work.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/export/folded.h"
#include "core/memtrace/byte_io.h"
#include "fuzz/memtrace/tool_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo;
  for (auto weight : {exporter::FoldedWeight::kSamples, exporter::FoldedWeight::kWords}) {
    auto text =
        exporter::FoldedStacks(memtrace::MemorySource(std::span<const std::uint8_t>(data, size)),
                               weight, fuzz::FuzzLimits());
    if (!text.ok()) {
      if (text.status().ok()) __builtin_trap();
      continue;
    }
    // Lines strictly increasing by stack (the part before the last space).
    std::string_view rest = *text, prev;
    bool first = true;
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      if (nl == std::string_view::npos) __builtin_trap();
      const std::string_view line = rest.substr(0, nl);
      const std::size_t sp = line.rfind(' ');
      if (sp == std::string_view::npos) __builtin_trap();
      const std::string_view stack = line.substr(0, sp);
      if (!first && !(prev < stack)) __builtin_trap();
      prev = stack;
      first = false;
      rest.remove_prefix(nl + 1);
    }
  }
  return 0;
}
