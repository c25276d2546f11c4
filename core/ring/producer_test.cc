// The producer writes OCaml 5.3's file: replaying OCaml's own event streams through it
// gives the same bytes as OCaml's file and the same consumer output; plus overwrite,
// limits, lifecycle and the cursor's typed errors.
#include "core/ring/producer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/dump_format.h"
#include "core/ring/ring_test_util.h"

namespace mpo::ring {
namespace {

std::string TmpDir(const std::string& sub) {
  const char* t = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(t ? t : "/tmp") + "/" + sub;
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  return dir;
}

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
  const std::string dir = TmpDir(std::string("replay_") + c.name);
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
  const std::string dir = TmpDir("lifecycle");
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

}  // namespace
}  // namespace mpo::ring
