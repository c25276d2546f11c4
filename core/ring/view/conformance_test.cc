// Reading OCaml 5.3's own ring files reproduces OCaml's consumer output exactly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <string>

#include "core/ring/cursor.h"
#include "core/ring/ring_test_util.h"
#include "core/ring/view/dump_format.h"

namespace mpo::ring {
namespace {

struct Case {
  const char* name;
  int pid;
};

const std::map<std::string, std::string> kOracleTags = {
    {"oracle.unit", "Ev_unit"},  {"oracle.int", "Ev_int"},           {"oracle.span", "Ev_span"},
    {"oracle.string", "Ev_str"}, {"oracle.second_unit", "Ev_unit2"},
};

std::string TmpDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// re_dump's loop: poll until a poll delivers nothing, then the summary line.
std::string Dump(Cursor& cursor, std::uint64_t max_events) {
  GoldenLineWriter w(OcamlVersion::k5_3, kOracleTags);
  std::string text;
  std::uint64_t polls = 0, total = 0;
  while (true) {
    auto n = cursor.ReadPoll(w, max_events);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok()) break;
    ++polls;
    total += *n;
    text += w.TakeText();
    if (*n == 0) break;
  }
  EXPECT_TRUE(w.error().ok()) << w.error().ToString();
  return text + "# read_poll calls=" + std::to_string(polls) +
         " total_events=" + std::to_string(total) + "\n";
}

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, DumpMatchesOcamlConsumer) {
  const Case c = GetParam();
  const std::string dir = std::string("testdata/ring/") + c.name;
  const std::string bytes = testutil::Gunzip(dir + "/" + std::to_string(c.pid) + ".events.gz");
  ASSERT_EQ(bytes.size(), 2097376u);
  const std::string out_dir = TmpDir() + "/" + c.name;
  std::system(("mkdir -p '" + out_dir + "'").c_str());
  ASSERT_TRUE(testutil::WriteBytes(out_dir + "/" + std::to_string(c.pid) + ".events", bytes));
  const std::string golden = testutil::ReadText(dir + "/consumer_dump.txt");
  ASSERT_FALSE(golden.empty());

  for (std::size_t batch : {1, 16, 64}) {
    auto cursor = Cursor::Open(out_dir, c.pid, CursorOptions{.batch_messages = batch, .rules = {}});
    ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
    EXPECT_EQ(Dump(*cursor, 0), golden) << "batch " << batch;
  }
}

TEST_P(Conformance, MaxEventsDeliversTheSameEventsInSmallerPolls) {
  const Case c = GetParam();
  const std::string dir = std::string("testdata/ring/") + c.name;
  const std::string bytes = testutil::Gunzip(dir + "/" + std::to_string(c.pid) + ".events.gz");
  auto cursor = Cursor::FromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())));
  ASSERT_TRUE(cursor.ok());
  std::string golden = testutil::ReadText(dir + "/consumer_dump.txt");
  const std::string text = Dump(*cursor, 7);
  // Same events; with two rings the round robin may interleave them differently.
  auto lines = [](const std::string& s) {
    std::multiset<std::string> m;
    std::size_t p = 0;
    while (p < s.size()) {
      std::size_t e = s.find('\n', p);
      if (s[p] != '#') m.insert(s.substr(p, e - p));
      p = e + 1;
    }
    return m;
  };
  EXPECT_EQ(lines(text), lines(golden));
}

TEST_P(Conformance, MetadataMatchesRingHeaderFacts) {
  const Case c = GetParam();
  const std::string dir = std::string("testdata/ring/") + c.name;
  const std::string bytes = testutil::Gunzip(dir + "/" + std::to_string(c.pid) + ".events.gz");
  auto cursor = Cursor::FromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())));
  ASSERT_TRUE(cursor.ok());
  const MetadataHeader& m = cursor->metadata();
  const MetadataHeader expected = FileGeometry{2, 1u << 16}.Header();
  EXPECT_EQ(std::memcmp(&m, &expected, sizeof m), 0);
  const std::string facts = testutil::ReadText(dir + "/ring_header.txt");
  EXPECT_NE(facts.find("meta.custom_events_offset " + std::to_string(m.custom_events_offset)),
            std::string::npos);
  EXPECT_NE(facts.find("meta.data_offset " + std::to_string(m.data_offset)), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Ocaml53, Conformance,
                         ::testing::Values(Case{"single", 3995}, Case{"user", 4131}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace mpo::ring
