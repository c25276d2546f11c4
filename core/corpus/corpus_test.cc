#include "core/corpus/corpus.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "core/corpus/decode.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string TmpDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  const fs::path p = fs::path(t ? t : "/tmp") / name;
  fs::remove_all(p);
  return p.string();
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// One generated corpus shared by the tests of this file.
class CorpusTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(TmpDir("corpus"));
    auto s = Generate(*dir_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    summary_ = *s;
  }
  static void TearDownTestSuite() { delete dir_; }
  static json Expected(const std::string& rel) {
    return json::parse(Slurp(fs::path(*dir_) / (rel + ".expected.json")));
  }
  static std::string* dir_;
  static GenerateSummary summary_;
};
std::string* CorpusTest::dir_ = nullptr;
GenerateSummary CorpusTest::summary_;

TEST_F(CorpusTest, GenerateIsDeterministic) {
  const std::string again = TmpDir("corpus_again");
  ASSERT_TRUE(Generate(again).ok());
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(*dir_)) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), *dir_);
    ASSERT_EQ(Slurp(e.path()), Slurp(fs::path(again) / rel)) << rel;
    ++files;
  }
  // A manifest plus three files per case.
  EXPECT_EQ(files, 1 + 3 * (summary_.memtrace + summary_.ring + summary_.sampler));
}

TEST_F(CorpusTest, EveryMalformationIsItsTypedError) {
  const std::map<std::string, std::string> checks = {
      {"v2_bad_alloc_id_sync", "packet: alloc id sync"},
      {"v2_bad_time_outside_packet", "event header: time in packet bounds"},
      {"v3_bad_unknown_event_code", "event header: code"},
      {"v2_bad_non_monotone_times", "event header: monotone timestamps"},
      {"v3_bad_bad_alloc_source", "alloc: source"},
      {"v2_bad_promote_id_sync", "promote: promote id sync"},
      {"v2_bad_collect_id_sync", "collect: collect id sync"},
      {"v3_bad_cache_verification", "packet header: cache verification"},
      {"v3_bad_inconsistent_location", "location: consistent location info"},
      {"v3_bad_defname_mtf_empty_slot", "location: defname MTF index"},
      {"v3_bad_backtrace_off_packet_end", "backtrace: codeword"},
      {"v3_bad_negative_common_prefix", "alloc: common_prefix"},
      {"v3_bad_magic", "packet header: magic"},
      {"v3_bad_version_4", "packet header: version"},
  };
  for (const auto& [name, check] : checks) {
    const json e = Expected("memtrace/" + name + ".ctf");
    ASSERT_TRUE(e["error"].is_object()) << name;
    EXPECT_EQ(e["error"]["check"], check) << name;
    EXPECT_TRUE(e["error"]["offset"].is_number_unsigned()) << name;
  }
  // A negative collect delta is an error before v3 only.
  EXPECT_TRUE(Expected("memtrace/v3_bad_collect_negative_delta_ok.ctf")["error"].is_null());
}

TEST_F(CorpusTest, FormatCornersDecodeAsDesigned) {
  const json v1 = Expected("memtrace/v1_event_forms.ctf");
  EXPECT_EQ(v1["info"]["version"], 1);
  EXPECT_TRUE(v1["info"]["context"].is_null());
  const json v2 = Expected("memtrace/v2_event_forms.ctf");
  EXPECT_EQ(v1["events"], v2["events"]);
  EXPECT_EQ(Expected("memtrace/v3_event_forms.ctf")["info"]["context"], "corpus");

  // The time wrap: times keep increasing across 2^25 us and the 30 s flush.
  const json wrap = Expected("memtrace/v3_time_wrap.ctf");
  std::int64_t last = 0, max_gap = 0;
  for (const json& ev : wrap["events"]) {
    const std::int64_t t = ev["time"].get<std::int64_t>();
    EXPECT_GE(t, last);
    if (last != 0) max_gap = std::max(max_gap, t - last);
    last = t;
  }
  EXPECT_GT(max_gap, std::int64_t{1} << 25);

  // The foreign-pid packet is skipped with its offset reported.
  const json pid = Expected("memtrace/v3_pid_change.ctf");
  EXPECT_EQ(pid["events"].size(), 2u);
  EXPECT_EQ(pid["skipped_packets"].size(), 1u);

  // Multi-domain: three domains, collects of other domains' objects in decreasing order.
  const json md = Expected("memtrace/v3_multidomain.ctf");
  std::set<int> domains;
  int decreasing = 0;
  std::int64_t prev = -1;
  for (const json& ev : md["events"]) {
    domains.insert(ev["domain"].get<int>());
    if (ev["kind"] == "collect") {
      if (prev >= 0 && ev["id"].get<std::int64_t>() < prev) ++decreasing;
      prev = ev["id"].get<std::int64_t>();
    }
  }
  EXPECT_EQ(domains, (std::set<int>{0, 1, 2}));
  EXPECT_GT(decreasing, 5);

  // Ring: wrap gives lost events; phase names differ between releases.
  const json wrapped = Expected("ring/wrap_lost_padding.ocaml-5.3.events");
  int lost = 0;
  for (const json& ev : wrapped["events"]) lost += ev["kind"] == "lost_events";
  EXPECT_GT(lost, 0);
  EXPECT_NE(Expected("ring/every_event_type.ocaml-5.0.events"),
            Expected("ring/every_event_type.ocaml-5.4.events"));
  const json sizes = Expected("ring/custom_payload_sizes.ocaml-5.3.events");
  std::set<std::size_t> lengths;
  for (const json& ev : sizes["events"])
    if (ev["kind"] == "user_custom")
      lengths.insert(ev["payload_hex"].get<std::string>().size() / 2);
  EXPECT_EQ(lengths.size(), 1025u);
}

TEST_F(CorpusTest, WrappedRingHoldsPaddingAndCorruptRingsAreTyped) {
  // Scan the wrapped rings' data words for a padding header (runtime type 0, id 0).
  const std::string raw = Slurp(fs::path(*dir_) / "ring/wrap_lost_padding.ocaml-5.3.events");
  const std::size_t data = 64 + 2 * 80, words = 2 * 64;
  ASSERT_GE(raw.size(), data + 8 * words);
  int padding = 0;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w = 0;
    for (int b = 0; b < 8; ++b)
      w |= std::uint64_t{static_cast<unsigned char>(raw[data + 8 * i + b])} << (8 * b);
    const std::uint64_t len = w >> 54;
    if (len >= 1 && (w & ((std::uint64_t{1} << 54) - 1)) == 0) ++padding;
  }
  EXPECT_GT(padding, 0);
  for (const char* name : {"corrupt_zero_length_event", "corrupt_event_past_tail"}) {
    const json e = Expected(std::string("ring/") + name + ".ocaml-5.3.events");
    EXPECT_EQ(e["error"]["code"], "corrupt") << name;
    EXPECT_EQ(e["error"]["offset"], 224) << name;
  }
}

TEST_F(CorpusTest, TextAndJsonAgreeOnErrors) {
  const json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  for (const json& c : manifest["cases"]) {
    const json e = json::parse(Slurp(fs::path(*dir_) / c["expected_json"].get<std::string>()));
    const std::string text = Slurp(fs::path(*dir_) / c["expected_text"].get<std::string>());
    const bool text_error = text.find("error: ") != std::string::npos;
    EXPECT_EQ(!e["error"].is_null(), text_error) << c["name"];
    EXPECT_EQ(c["expects_error"], !e["error"].is_null()) << c["name"];
  }
}

TEST_F(CorpusTest, ExpectedFilesThemselvesPass) {
  CheckOptions o;
  o.impl = "cat {file}.expected.json";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->failed, 0u);
  EXPECT_EQ(s->passed, summary_.memtrace + summary_.ring + summary_.sampler);
}

TEST_F(CorpusTest, AlteredFieldIsTheFirstDifference) {
  CheckOptions o;
  o.impl = "sed 's/\"nsamples\": 2,/\"nsamples\": 3,/' {file}.expected.json";
  o.only = "memtrace/v3_event_forms";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_FALSE(s->cases[0].passed);
  EXPECT_EQ(s->cases[0].reason, "at /events/17/nsamples: expected 2, got 3");
}

TEST_F(CorpusTest, CrashesExitCodesAndHangsFailOneCaseEach) {
  CheckOptions o;
  o.only = "sampler/geometric_seed0_";
  o.impl = "exit 3 # {file}";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 6u);
  EXPECT_EQ(s->failed, 6u);
  EXPECT_EQ(s->cases[0].reason, "exit code 3");
  o.impl = "kill -SEGV $$ # {file}";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason, "killed by signal 11");
  o.only = "sampler/geometric_seed0_lambda1e-6";
  o.impl = "sleep 30; cat {file}.expected.json";
  o.timeout_seconds = 0.3;
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_EQ(s->cases[0].reason.rfind("timed out", 0), 0u) << s->cases[0].reason;
  o.impl = "echo not json # {file}";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("output is not one JSON document", 0), 0u);
}

TEST_F(CorpusTest, MissingManifestAndPlaceholderAreErrors) {
  CheckOptions o;
  o.impl = "cat {file}";
  EXPECT_EQ(Check(TmpDir("nothing_here"), o).status().code(), ErrorCode::kIo);
  o.impl = "cat";
  EXPECT_EQ(Check(*dir_, o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(RunCommand, QuotesPathsAndCapturesOutput) {
  auto r = RunCommand("printf '%s' " + ShellQuote("it's a $path"), 5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->out, "it's a $path");
}

TEST(Decode, UnknownKindIsInvalidArgument) {
  EXPECT_EQ(DecodeFile("x.bin").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(DecodeFile("x.events").status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mpo::corpus
