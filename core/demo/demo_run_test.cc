#include "core/demo/demo_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace mpo::demo {
namespace {

std::vector<char> Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

DemoOptions Small(const std::string& name, std::uint64_t seed) {
  DemoOptions o;
  o.out = ::testing::TempDir() + "/" + name;
  o.seed = seed;
  o.steps = 3000;
  o.lambda = 0.01;
  o.domains = 3;
  return o;
}

TEST(Demo, ChecksPassAndTheSameSeedGivesTheSameBytes) {
  auto a = RunDemo(Small("a", 5));
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE(a->failures.empty()) << a->failures.front();
  EXPECT_GT(a->trace_allocs, 100u);
  EXPECT_GT(a->trace_promotes, 0u);
  EXPECT_GT(a->external_allocs, 0u);
  EXPECT_EQ(a->trace_allocs, a->engine_allocs);
  EXPECT_EQ(a->trace_collects, a->trace_allocs);  // everything is collected at the end
  EXPECT_EQ(a->ring_lost_words, 0u);
  EXPECT_FALSE(a->phases.empty());
  auto b = RunDemo(Small("b", 5));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Bytes(a->trace_path), Bytes(b->trace_path));
  EXPECT_EQ(Bytes(a->ring_path), Bytes(b->ring_path));
  auto c = RunDemo(Small("c", 6));
  ASSERT_TRUE(c.ok());
  EXPECT_NE(Bytes(a->trace_path), Bytes(c->trace_path));
}

TEST(Demo, FormatV2AndOneDomain) {
  DemoOptions o = Small("v2", 9);
  o.format_version = 2;
  o.domains = 1;
  auto r = RunDemo(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->failures.empty()) << r->failures.front();
  EXPECT_GT(r->trace_allocs, 0u);
}

TEST(Demo, LambdaOneSamplesEveryWord) {
  DemoOptions o = Small("all", 2);
  o.lambda = 1.0;
  o.steps = 300;
  auto r = RunDemo(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->failures.empty()) << r->failures.front();
  EXPECT_EQ(r->samples, r->words_allocated);
}

TEST(Demo, AMissingCollectIsCaught) {
  DemoOptions o = Small("fault", 3);
  o.fault_skip_dealloc = 25;
  auto r = RunDemo(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->failures.empty());
  EXPECT_NE(r->failures.front().find("trace event"), std::string::npos) << r->failures.front();
  EXPECT_EQ(r->trace_collects + 1, r->engine_collects);
}

TEST(Demo, ASmallRingLosesEventsAndTheCheckAccountsForThem) {
  DemoOptions o = Small("wrap", 4);
  o.ring_log2_words = 8;
  auto r = RunDemo(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->failures.empty()) << r->failures.front();
  EXPECT_GT(r->ring_lost_words, 0u);
}

TEST(Demo, BadOptionsAreTypedErrors) {
  DemoOptions o = Small("bad", 1);
  o.domains = 0;
  EXPECT_EQ(RunDemo(o).status().code(), ErrorCode::kInvalidArgument);
  o = Small("bad", 1);
  o.lambda = 2;
  EXPECT_EQ(RunDemo(o).status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mpo::demo
