// Operation-sequence fuzzer over the memprof engine and the simulated runtime. Every
// three input bytes are one operation (proptests/memprof/harness.h); the harness checks
// the abstract model and the table invariants after each step. Any violation aborts with
// the decoded sequence and the violations printed.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <sstream>

#include "proptests/memprof/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memprof::harness;
  const std::vector<Op> ops = DecodeOps(std::span<const std::uint8_t>(data, size));
  const RunReport report = Run(ops);
  if (!report.violations.empty()) {
    std::ostringstream os;
    for (const Op& op : ops) os << "  " << op << "\n";
    std::fprintf(stderr, "memprof model violated by:\n%s", os.str().c_str());
    for (const auto& v : report.violations) std::fprintf(stderr, "%s\n", v.c_str());
    std::abort();
  }
  return 0;
}
