#include "core/export/ring_stats_view.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "core/ring/view/ring_event_test_util.h"

namespace mpo::exporter {
namespace {

using Kind = ring::view::EventKind;
using ring::view::MakeRingEvent;

// Two domains, each 800 ns of a 1000 ns run in stw_handler under stw_leader or
// interrupt_remote; domain 1's major is still open at the end.
RingStats TwoDomains() {
  RingStatsAccumulator a;
  for (const RingEvent& e : std::vector<RingEvent>{
           MakeRingEvent(Kind::kLifecycle, 0, 1000, 0, "ring_start"),
           MakeRingEvent(Kind::kBegin, 0, 1100, 40, "stw_leader"),
           MakeRingEvent(Kind::kBegin, 1, 1100, 19, "interrupt_remote"),
           MakeRingEvent(Kind::kBegin, 0, 1100, 38, "stw_handler"),
           MakeRingEvent(Kind::kBegin, 1, 1100, 38, "stw_handler"),
           MakeRingEvent(Kind::kEnd, 0, 1900, 38, "stw_handler"),
           MakeRingEvent(Kind::kEnd, 1, 1900, 38, "stw_handler"),
           MakeRingEvent(Kind::kEnd, 0, 1900, 40, "stw_leader"),
           MakeRingEvent(Kind::kEnd, 1, 1900, 19, "interrupt_remote"),
           MakeRingEvent(Kind::kCounter, 0, 1950, 5, "minor_allocated", 8000),
           MakeRingEvent(Kind::kCounter, 0, 1950, 4, "minor_promoted", 800),
           MakeRingEvent(Kind::kCounter, 0, 1950, 18, "major_allocated_words", 5),
           MakeRingEvent(Kind::kBegin, 1, 1950, 0, "major"),
           MakeRingEvent(Kind::kLifecycle, 1, 1990, 7, "domain_terminate"),
           MakeRingEvent(Kind::kLifecycle, 0, 2000, 1, "ring_stop"),
       }) {
    a.Add(e);
  }
  return a.Finish();
}

TEST(RingStatsView, TextNeverAddsDomainTimesAsWallTime) {
  const std::string text = FormatRingStats(TwoDomains());
  EXPECT_NE(text.find("wall time: 0.000001 s (ring_start..ring_stop)\n"), std::string::npos)
      << text;
  // Per domain: 800 ns of GC in 1000 ns (domain 0) and 890 ns (domain 1: from its first event, its
  // start was not seen).
  EXPECT_NE(text.find("0          0.000001     0.000001    80.00%  lifecycle\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1          0.000001     0.000001    89.89%  events\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("sum over domains (not wall time)"), std::string::npos);
  // One stw_handler distribution of two 800 ns pauses, not a 1600 ns total.
  EXPECT_NE(text.find("stw_handler                             2          800          800"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("domain 0            1000          100            5          905      10.00"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("domain 1             n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("domain 1: 6 events, 0 lost words, 0 unmatched ends, 1 open at the end\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  open at the end: phase major, begun at ts 1950, open 40 ns\n"),
            std::string::npos)
      << text;
}

TEST(RingStatsView, Json) {
  const std::string text = FormatRingStatsJson(TwoDomains());
  ASSERT_EQ(text.back(), '\n');
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["wall_ns"], 1000);
  EXPECT_EQ(j["wall_basis"], "ring_start..ring_stop");
  EXPECT_EQ(j["sum_over_domains"]["gc_ns"], 1600);
  EXPECT_EQ(j["sum_over_domains"]["time_ns"], 1890);
  EXPECT_EQ(j["gc_pauses"]["count"], 2);
  EXPECT_EQ(j["gc_pauses"]["p99_ns"], 800);
  EXPECT_EQ(j["phases"]["stw_handler"]["count"], 2);
  EXPECT_FALSE(j["phases"]["stw_handler"].contains("total_ns"));  // a sum over domains
  ASSERT_EQ(j["domains"].size(), 2u);
  EXPECT_EQ(j["domains"][0]["gc_share"], 0.8);
  EXPECT_EQ(j["domains"][0]["phases"]["stw_handler"]["total_ns"], 800);
  EXPECT_EQ(j["domains"][0]["words"]["minor"], 1000);
  EXPECT_TRUE(j["domains"][1]["words"]["minor"].is_null());
  EXPECT_EQ(j["domains"][1]["time_from"], "events");
  ASSERT_EQ(j["domains"][1]["open_at_end"].size(), 1u);
  EXPECT_EQ(j["domains"][1]["open_at_end"][0]["name"], "major");
  EXPECT_EQ(j["domains"][1]["open_at_end"][0]["open_ns"], 40);
  EXPECT_EQ(j["domains"][1]["open_at_end"][0]["kind"], "phase");
  EXPECT_GT(j["domains"][0]["events"]["begin"], 0);
}

}  // namespace
}  // namespace mpo::exporter
