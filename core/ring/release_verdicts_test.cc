// The verdict modes of OCaml 5.0.0, 5.1.1 and 5.2.0's consumers on rings their runtimes
// write (conformance/VERDICTS.md, conformance/releases/): 5.0.0's read_poll returns
// Int_val(count) as a value, which OCaml reads as count >> 2; a 2-word ring_stop is delivered with
// no data in every mode, though those releases read a third word from stale buffer memory
// (declared).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/producer.h"

namespace mpo::ring {
namespace {

// A ring file of 1 domain and 64 words: ring_start, `counters` counter events, and a
// ring_stop when `stop`.
std::vector<std::byte> Image(unsigned counters, bool stop) {
  const char* t = std::getenv("TEST_TMPDIR");
  ProducerOptions o;
  o.dir = t ? t : "/tmp";
  o.max_domains = 1;
  o.ring_log2_words = 6;
  o.pid = 525252;
  o.preserve = true;  // Stop would remove the file
  RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  for (unsigned i = 0; i < counters; ++i) EXPECT_TRUE(ev.Counter(0, 4, 120 + i).ok());
  const std::string path = ev.path();  // Stop forgets it
  if (stop) {
    EXPECT_TRUE(ev.Stop().ok());
  }
  std::vector<std::byte> bytes;
  FILE* f = std::fopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr);
  if (f == nullptr) return bytes;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<std::byte>(buf[i]));
  std::fclose(f);
  return bytes;
}

struct Lifecycles : EventCallbacks {
  std::vector<std::string> seen;  // "kind:data"
  bool LifecycleEvent(std::uint32_t, std::uint64_t, unsigned kind, std::int64_t data) override {
    seen.push_back(std::to_string(kind) + ":" + std::to_string(data));
    return true;
  }
};

// The counts of successive polls of `b` read as mode `v`, until one returns 0 (as a
// program polling until 0 does), at most 4 polls; and the lifecycle events delivered.
struct Polled {
  std::vector<std::uint64_t> counts;
  std::vector<std::string> lifecycles;
};
Polled PollUntilZero(const std::vector<std::byte>& b, Verdicts v, std::uint64_t max_events = 0) {
  Polled p;
  auto c = Cursor::FromBytes(b, CursorOptions{16, RulesOf(v).ring});
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  if (!c.ok()) return p;
  Lifecycles cb;
  for (int i = 0; i < 4; ++i) {
    auto n = c->ReadPoll(cb, max_events);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok()) break;
    p.counts.push_back(*n);
    if (*n == 0) break;
  }
  p.lifecycles = cb.seen;
  return p;
}

TEST(ReleaseVerdicts, Ocaml50ReturnsAQuarterOfThePollsCount) {
  const auto b = Image(6, false);  // 7 events
  EXPECT_EQ(PollUntilZero(b, Verdicts::kOcaml50).counts, (std::vector<std::uint64_t>{1, 0}));
  EXPECT_EQ(PollUntilZero(Image(10, false), Verdicts::kOcaml50).counts,
            (std::vector<std::uint64_t>{2, 0}));
  for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml51, Verdicts::kOcaml52, Verdicts::kOcaml53})
    EXPECT_EQ(PollUntilZero(b, v).counts, (std::vector<std::uint64_t>{7, 0})) << VerdictsName(v);
}

// A poll of 1 to 3 events reads as 0: a program polling until 0 stops after it, even
// with events left.
TEST(ReleaseVerdicts, Ocaml50PollOfFewerThanFourEventsReturnsZero) {
  const auto b = Image(3, false);
  const Polled p = PollUntilZero(b, Verdicts::kOcaml50, 1);
  EXPECT_EQ(p.counts, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(p.lifecycles, (std::vector<std::string>{"0:525252"}));  // ring_start was delivered
  EXPECT_EQ(PollUntilZero(b, Verdicts::kOcaml53, 1).counts,
            (std::vector<std::uint64_t>{1, 1, 1, 1}));
  EXPECT_EQ(PollUntilZero(b, Verdicts::kOcaml50, 3).counts, (std::vector<std::uint64_t>{0}));
  // Batches of four read as 1, so polling goes on until fewer are left.
  const auto more = Image(6, false);  // 7 events: a poll of 4, then of 3
  EXPECT_EQ(PollUntilZero(more, Verdicts::kOcaml50, 4).counts, (std::vector<std::uint64_t>{1, 0}));
}

// The 2-word ring_stop carries no data; 5.0.0 to 5.2.0 hand their callback a third word
// the poll never copied (stale stack memory): no mode copies it, every mode delivers 0.
TEST(ReleaseVerdicts, RingStopHasNoDataInEveryMode) {
  const auto b = Image(2, true);
  for (Verdicts v : AllVerdicts()) {
    if (!VerdictsJudge(v, VerdictFormat::kRing)) continue;
    // ring_start (id 0, the pid), ring_stop (id 1, nothing).
    EXPECT_EQ(PollUntilZero(b, v).lifecycles, (std::vector<std::string>{"0:525252", "1:0"}))
        << VerdictsName(v);
  }
}

}  // namespace
}  // namespace mpo::ring
