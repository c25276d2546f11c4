// Operation-sequence fuzzer over the memprof engine and the simulated runtime. Every
// three input bytes are one operation (proptests/memprof/harness.h); the harness checks
// the abstract model and the table invariants after each step. Any violation aborts with
// the decoded sequence and the violations printed.
//
// Work per input is bounded so that libFuzzer runs many short inputs: at most kMaxOps
// operations, kMaxLiveBlocks reachable blocks (small tables), small major blocks.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <sstream>

#include "proptests/memprof/harness.h"

namespace {

constexpr std::size_t kMaxOps = 128;
constexpr mpo::memprof::harness::RunOptions kOptions{/*max_live_blocks=*/32,
                                                     /*major_wosize_mod=*/96};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memprof::harness;
  const std::vector<Op> ops = DecodeOps(std::span<const std::uint8_t>(data, size), kMaxOps);
  const RunReport report = Run(ops, kOptions);
  if (!report.violations.empty()) {
    std::ostringstream os;
    for (const Op& op : ops) os << "  " << op << "\n";
    std::fprintf(stderr,
                 "memprof model violated (AllocMajor words: 1 + seed %% %u; at most %zu live "
                 "blocks) by:\n%s",
                 kOptions.major_wosize_mod, kOptions.max_live_blocks, os.str().c_str());
    for (const auto& v : report.violations) std::fprintf(stderr, "%s\n", v.c_str());
    std::abort();
  }
  return 0;
}
