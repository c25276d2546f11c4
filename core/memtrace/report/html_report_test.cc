#include "core/memtrace/report/html_report.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::memtrace::report {
namespace {

analysis::TraceAnalysis Sample() {
  analysis::TraceAnalysis a;
  a.info.sample_rate = 0.25;  // 32 estimated bytes per sample on 64-bit words
  a.info.executable_name = "prog";
  a.info.host_name = "box";
  a.version = 3;
  a.duration_us = 2'000'000;
  a.to_us = std::numeric_limits<std::int64_t>::max();
  a.events_in_window = 9;
  a.allocated = {4, 10, 20};
  a.live = {1, 3, 5};
  analysis::Site s;
  s.names = {"</script><script>alert(1)</script>", "caller"};
  s.allocated = {4, 10, 20};
  s.live = {1, 3, 5};
  a.sites.push_back(s);
  a.timeline = {{1'000'000, 3, 1, 4}, {2'000'000, 3, 3, 3}};
  a.live_at_us = 2'000'000;
  a.live_heap = {2, 4, 6};
  a.peak = analysis::Peak{500'000, {3, 4, 7}};
  return a;
}

TEST(HtmlReport, DataHoldsTheAnalysisFigures) {
  const std::string j = ReportDataJson(Sample(), "t.ctf", FlameTrees{}, 10);
  EXPECT_NE(j.find("\"allocated\":{\"blocks\":4,\"samples\":10,\"words\":20,\"est_bytes\":320}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"live\":{\"blocks\":1,\"samples\":3,\"words\":5,\"est_bytes\":96}"),
            std::string::npos);
  EXPECT_NE(j.find("\"live_at\":{\"at\":\"end\",\"t_s\":2,\"heap\":{\"blocks\":2,\"samples\":4,"
                   "\"words\":6,\"est_bytes\":128}}"),
            std::string::npos)
      << j;
  EXPECT_NE(
      j.find("\"peak\":{\"t_s\":0.5,\"blocks\":3,\"samples\":4,\"words\":7,\"est_bytes\":128}"),
      std::string::npos);
  EXPECT_NE(j.find("\"timeline\":[{\"t_s\":1,\"live_est_bytes\":96,\"min_est_bytes\":32,"
                   "\"max_est_bytes\":128}"),
            std::string::npos);
  EXPECT_NE(j.find("\"leak_sites_total\":1"), std::string::npos);
  EXPECT_NE(j.find("\"bytes_per_sample\":32"), std::string::npos);
  EXPECT_NE(j.find("\"host_name\":\"box\""), std::string::npos);
}

// Damage the analysis stopped at is in the data (null when none), and the page says so;
// the live-heap chart shades a window rather than redrawing the heap from it.
TEST(HtmlReport, DataSaysWhereADamagedReadStopped) {
  analysis::TraceAnalysis a = Sample();
  EXPECT_NE(ReportDataJson(a, "t.ctf", FlameTrees{}, 10).find("\"damage\":null"),
            std::string::npos);
  a.damage = analysis::Damage{
      123, Status(ErrorCode::kTruncated, "cut").WithField("packet").AtOffset(123), 9};
  const std::string j = ReportDataJson(a, "t.ctf", FlameTrees{}, 10);
  EXPECT_NE(j.find("\"damage\":{\"offset\":123,\"events_read\":9,\"error\":{\"code\":"
                   "\"truncated\",\"check\":\"packet\",\"offset\":123}"),
            std::string::npos)
      << j;
  const std::string page = FormatHtmlReport(a, "t.ctf", FlameTrees{}, 10);
  EXPECT_NE(page.find("Damaged trace: stopped at byte"), std::string::npos);
  EXPECT_NE(page.find("Shaded: the window"), std::string::npos);
}

FlameTree TreeOf(std::string_view folded) {
  FlameTreeBuilder b(100);
  b.Write(folded);
  auto t = b.Finish();
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : FlameTree{};
}

TEST(HtmlReport, DataHoldsBothFlameTrees) {
  FlameTrees flame;
  flame.stacks = TreeOf("f;f;g 3\n");
  flame.collapsed = TreeOf("f;g 3\n");
  const std::string j = ReportDataJson(Sample(), "t.ctf", flame, 10);
  const std::string g = R"({"n":"g","v":3,"c":[]})";
  EXPECT_NE(j.find(R"("flame":{"n":"all","v":3,"c":[{"n":"f","v":3,"c":[{"n":"f","v":3,"c":[)" + g),
            std::string::npos)
      << j;
  EXPECT_NE(j.find(R"("flame_collapsed":{"n":"all","v":3,"c":[{"n":"f","v":3,"c":[)" + g),
            std::string::npos)
      << j;
}

TEST(HtmlReport, LocationTextCannotCloseTheDataBlock) {
  const std::string page = FormatHtmlReport(Sample(), "t.ctf", FlameTrees{}, 10);
  // One data block, closed by the writer's own </script>; the site name is escaped.
  const std::size_t open = page.find("<script type=\"application/json\" id=\"report-data\">");
  ASSERT_NE(open, std::string::npos);
  const std::size_t close = page.find("</script>", open);
  ASSERT_NE(close, std::string::npos);
  const std::string block = page.substr(open, close - open);
  EXPECT_NE(block.find("\\u003c/script>\\u003cscript>alert(1)"), std::string::npos) << block;
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
}

TEST(HtmlReport, TopBoundsTheTables) {
  analysis::TraceAnalysis a = Sample();
  a.sites.push_back(a.sites[0]);
  a.sites.push_back(a.sites[0]);
  const std::string j = ReportDataJson(a, "t.ctf", FlameTrees{}, 1);
  EXPECT_NE(j.find("\"sites_total\":3"), std::string::npos);
  // One site in each table (sites, leaks), of the three.
  std::size_t shown = 0;
  for (std::size_t at = 0; (at = j.find("\"callers\":[\"caller\"]", at)) != std::string::npos; ++at)
    ++shown;
  EXPECT_EQ(shown, 2u) << j;
}

TEST(HtmlReport, PageIsSelfContained) {
  const std::string page = FormatHtmlReport(Sample(), "a<b.ctf", FlameTrees{}, 10);
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
  EXPECT_EQ(page.find("href=\"http"), std::string::npos);
  EXPECT_NE(page.find("<title>memtrace report: a&lt;b.ctf</title>"), std::string::npos);
}

}  // namespace
}  // namespace mpo::memtrace::report
