// Statistics of sampling on the simulated runtime against the configurations OCaml's
// own runs recorded (testdata/memprof/*.csv): for each row we allocate the same kind of
// block (an inline tuple from OCaml code, or Array.make from C: minor up to
// Max_young_wosize words, major beyond) at the same rate, and check that the sampled
// counts lie within 5.7 standard deviations of the binomial law — the law the recorded
// OCaml numbers follow too (checked on the way).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

struct Row {
  std::string version, kind;
  std::uint64_t size = 0;
  double lambda = 0;
  std::uint64_t n_blocks = 0, sampled_blocks = 0, minor_callbacks = 0, major_callbacks = 0,
                total_nsamples = 0;
};

std::vector<Row> ReadRows(const std::string& path) {
  std::ifstream in(path);
  std::vector<Row> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::vector<std::string> f;
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    if (f.size() < 9) continue;
    Row r;
    r.version = f[0];
    r.kind = f[1];
    r.size = std::stoull(f[2]);
    r.lambda = std::stod(f[3]);
    r.n_blocks = std::stoull(f[4]);
    r.sampled_blocks = std::stoull(f[5]);
    r.minor_callbacks = std::stoull(f[6]);
    r.major_callbacks = std::stoull(f[7]);
    r.total_nsamples = std::stoull(f[8]);
    rows.push_back(r);
  }
  return rows;
}

// |observed - n p| within k standard deviations of Binomial(n, p).
void ExpectBinomial(double observed, double n, double p, const std::string& what) {
  const double mean = n * p;
  const double sd = std::sqrt(n * p * (1 - p));
  if (sd == 0) {
    EXPECT_EQ(observed, mean) << what;
  } else {
    EXPECT_LE(std::abs(observed - mean), 5.7 * sd) << what << " mean " << mean << " sd " << sd;
  }
}

struct Observed {
  std::uint64_t sampled_blocks = 0, minor_callbacks = 0, major_callbacks = 0, total = 0;
};

Observed Simulate(const Row& row, std::uint64_t n_blocks) {
  SimRuntime rt(SimConfig{1 << 16});
  Observed o;
  memprof::Tracker t;
  auto count = [&o](std::uint64_t* callbacks) {
    return [&o, callbacks](const memprof::AllocationInfo& info) {
      ++o.sampled_blocks;
      ++*callbacks;
      o.total += info.n_samples;
      return memprof::CallbackResult::Drop();
    };
  };
  t.alloc_minor = count(&o.minor_callbacks);
  t.alloc_major = count(&o.major_callbacks);
  EXPECT_TRUE(rt.memprof(0).Start(row.lambda, 0, t).ok());
  const std::uint64_t size[] = {row.size};
  for (std::uint64_t i = 0; i < n_blocks; ++i) {
    if (row.kind == "inline") {
      (void)rt.AllocCaml(0, size, false);
    } else if (row.size <= kMaxYoungWosize) {
      (void)rt.AllocSmallFromC(0, row.size, false);
    } else {
      (void)rt.AllocMajor(0, row.size, memprof::AllocationSource::kNormal, false);
      if (i % 64 == 0) rt.MajorGc();
    }
    (void)rt.Poll(0);
  }
  EXPECT_TRUE(rt.memprof(0).Stop().ok());
  return o;
}

class StatisticsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(StatisticsTest, SampledCountsFollowTheBinomialLaw) {
  const std::vector<Row> rows = ReadRows(std::string("testdata/memprof/") + GetParam());
  ASSERT_EQ(rows.size(), 72u);
  for (const Row& row : rows) {
    const std::string what =
        row.kind + " size " + std::to_string(row.size) + " lambda " + std::to_string(row.lambda);
    const double words = static_cast<double>(row.size + 1);
    const double p_block = 1 - std::pow(1 - row.lambda, words);
    // The recorded OCaml run follows the law.
    ExpectBinomial(static_cast<double>(row.total_nsamples), row.n_blocks * words, row.lambda,
                   "recorded total " + what);
    ExpectBinomial(static_cast<double>(row.sampled_blocks), row.n_blocks, p_block,
                   "recorded sampled " + what);
    // So does ours, at a budget of about 2^19 words per row.
    const std::uint64_t n =
        std::clamp<std::uint64_t>((std::uint64_t{1} << 19) / (row.size + 1), 8, row.n_blocks);
    const Observed o = Simulate(row, n);
    ExpectBinomial(static_cast<double>(o.total), n * words, row.lambda, "total " + what);
    ExpectBinomial(static_cast<double>(o.sampled_blocks), n, p_block, "sampled " + what);
    // Same heap as OCaml's run: only minor or only major callbacks.
    EXPECT_EQ(o.minor_callbacks == 0, row.minor_callbacks == 0) << what;
    EXPECT_EQ(o.major_callbacks == 0, row.major_callbacks == 0 || o.sampled_blocks == 0) << what;
    if (row.lambda == 1.0) {
      EXPECT_EQ(o.total, n * (row.size + 1)) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, StatisticsTest,
                         ::testing::Values("ocaml5.3_stats.csv", "ocaml4.13_stats.csv"));

}  // namespace
}  // namespace mpo::sim
