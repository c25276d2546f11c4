// The producer writes OCaml 5.3's file: replaying OCaml's own event streams through it
// gives the same bytes as OCaml's file and the same consumer output; plus overwrite,
// limits, lifecycle and the cursor's typed errors.
#include "core/ring/producer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/ocaml_quoted.h"
#include "core/ring/cursor.h"
#include "core/ring/ring_test_util.h"
#include "core/ring/view/dump_format.h"

namespace mpo::ring {
namespace {

using testutil::FreshDir;

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string DumpAll(Cursor& c, OcamlVersion v = OcamlVersion::k5_3,
                    std::map<std::string, std::string> tags = {}) {
  GoldenLineWriter w(v, std::move(tags));
  std::string text;
  for (int i = 0; i < 1000; ++i) {
    auto n = c.ReadPoll(w);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    text += w.TakeText();
    if (!n.ok() || *n == 0) break;
  }
  return text;
}

const std::map<std::string, std::string> kOracleTags = {
    {"oracle.unit", "Ev_unit"},  {"oracle.int", "Ev_int"},           {"oracle.span", "Ev_span"},
    {"oracle.string", "Ev_str"}, {"oracle.second_unit", "Ev_unit2"},
};

// Replays OCaml's consumer output through our producer, event by event, with OCaml's
// timestamps; returns the file our producer wrote.
std::string Replay(const std::string& golden, int pid, const std::string& dir) {
  std::deque<std::uint64_t> stamps;
  std::vector<std::string> lines;
  std::istringstream in(golden);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    lines.push_back(line);
    std::istringstream f(line);
    std::string ring, ts;
    f >> ring >> ts;
    stamps.push_back(std::stoull(ts));
  }
  ProducerOptions o;
  o.dir = dir;
  o.max_domains = 2;
  o.preserve = true;
  o.pid = pid;
  o.clock = [&stamps] {
    const std::uint64_t t = stamps.front();
    stamps.pop_front();
    return t;
  };
  RuntimeEvents ev(o);
  const char* kNames[] = {"oracle.unit", "oracle.int", "oracle.span", "oracle.string",
                          "oracle.second_unit"};
  std::map<std::string, unsigned> ids;
  if (golden.find(" user_") != std::string::npos) {
    for (const char* n : kNames) ids[n] = *ev.RegisterUserEvent(n);
  }
  EXPECT_TRUE(ev.Start(0).ok());
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 0 is ring_start, written by Start
    std::istringstream f(lines[i]);
    std::uint32_t r;
    std::string ts, kind, name, arg;
    f >> r >> ts >> kind >> name;
    Status st;
    if (kind == "begin" || kind == "end" || kind == "counter" || kind == "lifecycle") {
      f >> arg;
      const unsigned id = std::stoul(arg.substr(1));
      if (kind == "begin") st = ev.Begin(r, id);
      if (kind == "end") st = ev.End(r, id);
      if (kind == "counter") {
        f >> arg;
        st = ev.Counter(r, id, std::stoull(arg));
      }
      if (kind == "lifecycle") {
        f >> arg;
        st = ev.LifecycleEvent(r, static_cast<Lifecycle>(id), arg == "none" ? 0 : std::stoll(arg));
      }
    } else {
      std::string tag;
      f >> tag;
      const unsigned id = ids.at(name);
      if (kind == "user_unit") st = ev.UserUnit(r, id);
      if (kind == "user_int") {
        f >> arg;
        st = ev.UserInt(r, id, std::stoll(arg));
      }
      if (kind == "user_span") {
        f >> arg;
        st = ev.UserSpan(r, id, arg == "begin");
      }
      if (kind == "user_custom") {
        std::string rest;
        std::getline(f, rest);
        const std::string payload = rest.substr(2, rest.size() - 3);  // ` "..."`
        st = ev.UserCustom(r, id, std::as_bytes(std::span(payload.data(), payload.size())));
      }
    }
    EXPECT_TRUE(st.ok()) << lines[i] << ": " << st.ToString();
  }
  EXPECT_TRUE(stamps.empty());
  const std::string path = dir + "/" + std::to_string(pid) + ".events";
  std::string bytes = testutil::ReadText(path);
  return bytes;
}

// Bytes OCaml leaves unspecified: custom payload bytes between the string and the
// pad-count byte come from its reused write buffer.
std::vector<bool> DontCare(const std::string& file) {
  std::vector<bool> mask(file.size(), false);
  const auto* w = reinterpret_cast<const std::uint64_t*>(file.data());
  const MetadataHeader m = FileGeometry{2, 1u << 16}.Header();
  for (std::uint64_t d = 0; d < 2; ++d) {
    const std::uint64_t tail = w[(m.headers_offset + d * 80) / 8 + 1];
    const std::uint64_t base = m.data_offset + d * m.ring_size_bytes;
    for (std::uint64_t pos = 0; pos < tail;) {
      const std::uint64_t h = w[base / 8 + pos];
      const std::uint64_t len = header::Length(h);
      if (len == 0) break;
      if (header::IsUser(h) && header::Type(h) == 4 && len > 2) {
        const std::uint64_t last = base + 8 * (pos + len) - 1;
        const unsigned pad = static_cast<unsigned char>(file[last]);
        for (unsigned i = 1; i <= pad; ++i) mask[last - i] = true;
      }
      pos += len;
    }
  }
  return mask;
}

struct Case {
  const char* name;
  int pid;
};

class ReplayOcaml : public ::testing::TestWithParam<Case> {};

TEST_P(ReplayOcaml, ProducerWritesOcamlsBytesAndReadsBackExactly) {
  const Case c = GetParam();
  const std::string src = std::string("testdata/ring/") + c.name;
  const std::string ocaml = testutil::Gunzip(src + "/" + std::to_string(c.pid) + ".events.gz");
  const std::string golden = testutil::ReadText(src + "/consumer_dump.txt");
  const std::string dir = FreshDir(std::string("replay_") + c.name);
  const std::string ours = Replay(golden, c.pid, dir);
  ASSERT_EQ(ours.size(), ocaml.size());
  const std::vector<bool> mask = DontCare(ocaml);
  std::size_t differing = 0, first = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (ours[i] != ocaml[i] && !mask[i]) {
      if (differing++ == 0) first = i;
    }
  }
  EXPECT_EQ(differing, 0u) << "first differing byte at offset " << first;

  // The bytes as they were before the producer's destructor wrote ring_stop.
  auto cursor = Cursor::FromBytes(std::as_bytes(std::span(ours.data(), ours.size())));
  ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
  const std::string text = DumpAll(*cursor, OcamlVersion::k5_3, kOracleTags);
  EXPECT_EQ(text, golden.substr(0, golden.find("# read_poll")));
}

INSTANTIATE_TEST_SUITE_P(Ocaml53, ReplayOcaml,
                         ::testing::Values(Case{"single", 3995}, Case{"user", 4131}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Producer, CreatesFileWithMode0600AndRemovesItUnlessPreserved) {
  const std::string dir = FreshDir("lifecycle");
  for (bool preserve : {false, true}) {
    ProducerOptions o;
    o.dir = dir;
    o.max_domains = 3;
    o.ring_log2_words = 8;
    o.preserve = preserve;
    RuntimeEvents ev(o);
    EXPECT_EQ(ev.path(), "");
    ASSERT_TRUE(ev.Start().ok());
    const std::string path = ev.path();
    EXPECT_EQ(path, dir + "/" + std::to_string(::getpid()) + ".events");
    struct stat st;
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(static_cast<std::uint64_t>(st.st_size), (FileGeometry{3, 256}.FileSize()));
    ASSERT_TRUE(ev.Stop().ok());
    EXPECT_EQ(Exists(path), preserve);
    if (preserve) {
      auto c = Cursor::OpenFile(path);
      ASSERT_TRUE(c.ok());
      const std::string text = DumpAll(*c);
      EXPECT_NE(text.find("lifecycle ring_start #0 " + std::to_string(::getpid())),
                std::string::npos);
      EXPECT_NE(text.find("lifecycle ring_stop #1 none"), std::string::npos);
      ::unlink(path.c_str());
    }
  }
}

// Records raw deliveries for the behavioural tests below.
struct Recorder : EventCallbacks {
  std::vector<std::pair<unsigned, std::uint64_t>> counters;  // id, value
  std::vector<std::string> lifecycle;
  std::uint64_t lost = 0;
  int lost_reports = 0;
  int refuse_after = -1;  // return false once this many counters were accepted
  bool RuntimeCounter(std::uint32_t, std::uint64_t, unsigned id, std::uint64_t v) override {
    if (refuse_after >= 0 && static_cast<int>(counters.size()) == refuse_after) {
      refuse_after = -1;
      return false;
    }
    counters.emplace_back(id, v);
    return true;
  }
  bool LifecycleEvent(std::uint32_t, std::uint64_t, unsigned kind, std::int64_t) override {
    lifecycle.emplace_back(LifecycleName(kind).value_or("?"));
    return true;
  }
  bool LostEvents(std::uint32_t, std::uint64_t words) override {
    lost += words;
    ++lost_reports;
    return true;
  }
};

ProducerOptions Small(const std::string& dir, unsigned log2 = 4) {
  ProducerOptions o;
  o.dir = dir;
  o.max_domains = 2;
  o.ring_log2_words = log2;
  return o;
}

TEST(Producer, OverwritesOldestEventsAndTheCursorCountsLostWordsExactly) {
  const std::string dir = FreshDir("overwrite");
  RuntimeEvents ev(Small(dir));  // 16-word rings
  ASSERT_TRUE(ev.Start().ok());
  auto cursor = Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(cursor.ok());
  // Counters are 3 words: five fit per lap of 16 words, then one word of padding.
  for (unsigned i = 0; i < 100; ++i) ASSERT_TRUE(ev.Counter(1, i % 26, i).ok());
  Recorder r;
  auto n = cursor->ReadPoll(r);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  // 100 counters = 20 laps of 16 words (15 of events + 1 padding): tail = 320.
  // The ring keeps the newest events with fewer than 16 words in use.
  ASSERT_FALSE(r.counters.empty());
  EXPECT_EQ(r.lost_reports, 1);
  EXPECT_EQ(r.lost + 3 * r.counters.size() + (r.counters.size() == 5 ? 1 : 0), 320u);
  for (std::size_t i = 0; i < r.counters.size(); ++i) {
    EXPECT_EQ(r.counters[i].second, 100 - r.counters.size() + i);
  }
  // Nothing new: nothing delivered, nothing lost.
  Recorder again;
  EXPECT_EQ(*cursor->ReadPoll(again), 0u);
  EXPECT_EQ(again.lost_reports, 0);
}

TEST(Producer, EventsLargerThanHalfTheRingAreTypedErrors) {
  const std::string dir = FreshDir("too_large");
  RuntimeEvents ev(Small(dir));
  ASSERT_TRUE(ev.Start().ok());
  std::vector<std::uint64_t> payload(6);  // 8 words with header and timestamp: half
  EXPECT_TRUE(ev.Write(0, false, 4, 0, payload).ok());
  payload.push_back(0);
  const Status st = ev.Write(0, false, 4, 0, payload);
  EXPECT_EQ(st.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "event length");
  std::vector<std::byte> big(1025);
  EXPECT_EQ(ev.UserCustom(0, 0, big).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ev.Counter(2, 0, 0).code(), ErrorCode::kInvalidArgument);  // domain 2 of 2
}

TEST(Producer, LargestCustomPayloadRoundTrips) {
  const std::string dir = FreshDir("custom");
  RuntimeEvents ev(Small(dir, 10));
  const unsigned id = *ev.RegisterUserEvent("big");
  ASSERT_TRUE(ev.Start().ok());
  std::string payload(1024, 'q');
  payload[5] = '\0';
  payload[6] = '"';
  ASSERT_TRUE(ev.UserCustom(1, id, std::as_bytes(std::span(payload.data(), payload.size()))).ok());
  for (std::size_t n : {0, 1, 7, 8, 9}) {
    ASSERT_TRUE(ev.UserCustom(1, id, std::as_bytes(std::span(payload.data() + 1000, n))).ok());
  }
  auto c = Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(c.ok());
  const std::string text = DumpAll(*c);
  EXPECT_NE(text.find(" user_custom big UNK " + OcamlQuoted(payload) + "\n"), std::string::npos);
  for (std::size_t n : {0, 1, 7, 8, 9}) {
    EXPECT_NE(text.find(" user_custom big UNK " + OcamlQuoted(payload.substr(1000, n)) + "\n"),
              std::string::npos)
        << n;
  }
}

TEST(Producer, ForeignWritesIntoItsRingAreTypedErrorsNotHangs) {
  const std::string dir = FreshDir("foreign");
  ProducerOptions o = Small(dir);
  o.preserve = true;
  RuntimeEvents ev(o);
  ASSERT_TRUE(ev.Start().ok());
  for (unsigned i = 0; i < 10; ++i) ASSERT_TRUE(ev.Counter(0, 4, i).ok());
  // Another process scribbles over ring 0: a zero-length oldest event, then a head
  // beyond the tail.
  FILE* f = std::fopen(ev.path().c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  const MetadataHeader m = FileGeometry{2, 16}.Header();
  std::uint64_t words[2];
  ASSERT_EQ(std::fseek(f, static_cast<long>(m.headers_offset), SEEK_SET), 0);
  ASSERT_EQ(std::fread(words, 8, 2, f), 2u);
  const std::uint64_t zero = 0;
  ASSERT_EQ(std::fseek(f, static_cast<long>(m.data_offset + 8 * (words[0] & 15)), SEEK_SET), 0);
  ASSERT_EQ(std::fwrite(&zero, 8, 1, f), 1u);
  std::fflush(f);
  Status st = Status::Ok();
  for (unsigned i = 0; i < 10 && st.ok(); ++i) st = ev.Counter(0, 4, i);
  EXPECT_EQ(st.code(), ErrorCode::kCorrupt);
  const std::uint64_t beyond = words[1] + 100;
  ASSERT_EQ(std::fseek(f, static_cast<long>(m.headers_offset), SEEK_SET), 0);
  ASSERT_EQ(std::fwrite(&beyond, 8, 1, f), 1u);
  std::fclose(f);
  EXPECT_EQ(ev.Counter(0, 4, 0).code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(ev.Counter(1, 4, 0).ok());  // the other ring is untouched
  ::unlink(ev.path().c_str());
}

TEST(Producer, AllocHistogramRoundTrips) {
  const std::string dir = FreshDir("alloc");
  RuntimeEvents ev(Small(dir, 8));
  ASSERT_TRUE(ev.Start().ok());
  std::array<std::uint64_t, kAllocBuckets> buckets{};
  for (std::uint64_t size : {0u, 1u, 9u, 10u, 15u, 99u, 100u, 5000u, 15u})
    ++buckets[AllocBucket(size)];
  ASSERT_TRUE(ev.Alloc(1, buckets).ok());
  auto c = Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(c.ok());
  const std::string text = DumpAll(*c);
  const std::size_t at = text.find(" alloc [1;1;0;0;0;0;0;0;0;1;3;0;0;0;0;0;0;0;1;2]\n");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.substr(text.rfind('\n', at) + 1, 2), "1 ");  // ring 1
}

TEST(Producer, UserEventRegistrationLimits) {
  const std::string dir = FreshDir("register");
  RuntimeEvents ev(Small(dir));
  EXPECT_EQ(ev.RegisterUserEvent(std::string(128, 'a')).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(ev.RegisterUserEvent(std::string("a\0b", 3)).status().code(),
            ErrorCode::kInvalidArgument);
  const std::string longest(127, 'n');
  EXPECT_EQ(*ev.RegisterUserEvent(longest), 0u);
  ASSERT_TRUE(ev.Start().ok());
  for (unsigned i = 1; i < kMaxUserEvents; ++i) {
    auto r = ev.RegisterUserEvent("e" + std::to_string(i));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(*r, i);
  }
  EXPECT_EQ(ev.RegisterUserEvent("one too many").status().code(), ErrorCode::kOutOfRange);
  ASSERT_TRUE(ev.UserUnit(0, 0).ok());
  ASSERT_TRUE(ev.UserInt(0, 8191, -5).ok());
  EXPECT_EQ(ev.UserUnit(0, 8192).code(), ErrorCode::kInvalidArgument);
  auto c = Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(c.ok());
  const std::string text = DumpAll(*c);
  EXPECT_NE(text.find(" user_unit " + longest + " UNK\n"), std::string::npos);
  EXPECT_NE(text.find(" user_int e8191 UNK -5\n"), std::string::npos);
}

TEST(Producer, PauseAndResumeAreGuardedAndEmitLifecycleEvents) {
  const std::string dir = FreshDir("pause");
  RuntimeEvents ev(Small(dir, 8));
  ev.Pause();  // not started: nothing
  ASSERT_TRUE(ev.Start().ok());
  EXPECT_TRUE(ev.IsActive());
  ev.Pause();
  ev.Pause();
  EXPECT_FALSE(ev.IsActive());
  ASSERT_TRUE(ev.Counter(0, 4, 1).ok());  // dropped
  ev.Resume();
  ev.Resume();
  ASSERT_TRUE(ev.Counter(0, 4, 2).ok());
  auto c = Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(c.ok());
  Recorder r;
  ASSERT_TRUE(c->ReadPoll(r).ok());
  EXPECT_EQ(r.lifecycle, (std::vector<std::string>{"ring_start", "ring_pause", "ring_resume"}));
  ASSERT_EQ(r.counters.size(), 1u);
  EXPECT_EQ(r.counters[0].second, 2u);
}

TEST(Producer, ForkedChildMakesItsOwnRingAndLeavesTheParentsFileAlone) {
  const std::string dir = FreshDir("fork");
  ProducerOptions o = Small(dir, 8);
  o.preserve = true;
  RuntimeEvents ev(o);
  ASSERT_TRUE(ev.Start().ok());
  const std::string parent_path = ev.path();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const bool ok = ev.AfterForkInChild().ok() && ev.Counter(0, 4, 77).ok() &&
                    ev.path() == dir + "/" + std::to_string(::getpid()) + ".events";
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_TRUE(ev.AfterForkInParent(child).ok());
  ASSERT_TRUE(ev.Stop().ok());
  auto parent = Cursor::OpenFile(parent_path);
  ASSERT_TRUE(parent.ok());
  const std::string ptext = DumpAll(*parent);
  EXPECT_EQ(ptext.find("counter"), std::string::npos);
  EXPECT_NE(ptext.find("lifecycle fork_parent #4 " + std::to_string(child)), std::string::npos);
  auto kid = Cursor::Open(dir, child);
  ASSERT_TRUE(kid.ok()) << kid.status().ToString();
  const std::string ktext = DumpAll(*kid);
  EXPECT_NE(ktext.find("lifecycle ring_start #0 " + std::to_string(child)), std::string::npos);
  EXPECT_NE(ktext.find("lifecycle fork_child #5 none"), std::string::npos);
  EXPECT_NE(ktext.find("counter minor_promoted #4 77"), std::string::npos);
}

TEST(Producer, EnvironmentVariablesAsInOcaml) {
  ::setenv("OCAML_RUNTIME_EVENTS_DIR", "/some/dir", 1);
  ::setenv("OCAML_RUNTIME_EVENTS_PRESERVE", "", 1);
  ::unsetenv("OCAML_RUNTIME_EVENTS_START");
  bool start = true;
  ProducerOptions o = ProducerOptions::FromEnvironment(&start);
  EXPECT_EQ(o.dir, "/some/dir");
  EXPECT_TRUE(o.preserve);
  EXPECT_FALSE(start);
  ::setenv("OCAML_RUNTIME_EVENTS_START", "1", 1);
  ::unsetenv("OCAML_RUNTIME_EVENTS_PRESERVE");
  o = ProducerOptions::FromEnvironment(&start);
  EXPECT_TRUE(start);
  EXPECT_FALSE(o.preserve);
  ::unsetenv("OCAML_RUNTIME_EVENTS_DIR");
  ::unsetenv("OCAML_RUNTIME_EVENTS_START");
}

TEST(Producer, StartFailsWithATypedErrorForABadDirectory) {
  ProducerOptions o;
  o.dir = "/nonexistent/dir/for/ring";
  RuntimeEvents ev(o);
  const Status st = ev.Start();
  EXPECT_EQ(st.code(), ErrorCode::kIo);
  EXPECT_FALSE(ev.IsActive());
  ProducerOptions bad;
  bad.ring_log2_words = 3;
  EXPECT_EQ(RuntimeEvents(bad).Start().code(), ErrorCode::kInvalidArgument);
}

TEST(Producer, RingSizeFromOcamlRunParam) {
  EXPECT_EQ(RingLog2WordsOfRunParam("e=12"), 12u);
  EXPECT_EQ(RingLog2WordsOfRunParam("s=1M,e=12,v=0x400"), 12u);
  EXPECT_EQ(RingLog2WordsOfRunParam("e=12,e=20"), 20u);  // the last one wins
  EXPECT_FALSE(RingLog2WordsOfRunParam("").has_value());
  EXPECT_FALSE(RingLog2WordsOfRunParam("s=1M,v=1").has_value());
  EXPECT_FALSE(RingLog2WordsOfRunParam("e=").has_value());
  EXPECT_FALSE(RingLog2WordsOfRunParam("e=1x").has_value());
  EXPECT_FALSE(RingLog2WordsOfRunParam("le=12").has_value());
}

}  // namespace
}  // namespace mpo::ring
