#include "bench/common/ratio_reporter.h"

#include <cstdio>
#include <utility>
#include <vector>

namespace mpo::bench {
namespace {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred) continue;
      // Per item when the benchmark counts items, per iteration otherwise.
      double ns = r.GetAdjustedRealTime();
      const auto items = r.counters.find("items_per_second");
      if (items != r.counters.end() && items->second.value > 0) ns = 1e9 / items->second.value;
      results_.emplace_back(r.benchmark_name(), ns);
    }
  }
  const std::vector<std::pair<std::string, double>>& results() const { return results_; }

 private:
  std::vector<std::pair<std::string, double>> results_;
};

}  // namespace

int RunWithRatios(const std::string& anchor_prefix) {
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  double anchor = 0;
  for (const auto& [name, ns] : reporter.results())
    if (name.rfind(anchor_prefix, 0) == 0) anchor = ns;
  std::printf("\nper item, as a ratio to the anchor %s measured in this run:\n",
              anchor_prefix.c_str());
  if (anchor <= 0) {
    std::printf("  anchor did not run (filtered out?)\n");
    return reporter.results().empty() ? 0 : 1;
  }
  for (const auto& [name, ns] : reporter.results())
    std::printf("  %-44s %9.3f ns/item  %7.3fx anchor time  (%.2fx faster)\n", name.c_str(), ns,
                ns / anchor, anchor / ns);
  return 0;
}

}  // namespace mpo::bench
