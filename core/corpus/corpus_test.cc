#include "core/corpus/corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/version.h"
#include "core/corpus/manifest.h"
#include "core/corpus/run_command.h"
#include "core/corpus/tags.h"

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
  // The lines of a case's expected stream: header, records, end line.
  static std::vector<json> Expected(const std::string& rel) {
    std::vector<json> lines;
    std::istringstream in(Slurp(fs::path(*dir_) / (rel + ".expected.jsonl")));
    for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
    EXPECT_GE(lines.size(), 2u) << rel;
    return lines;
  }
  static json EndError(const std::string& rel) { return Expected(rel).back()["error"]; }
  // The records of a stream, optionally only those of one kind.
  static std::vector<json> Records(const std::vector<json>& lines, const std::string& kind = "") {
    std::vector<json> out;
    for (std::size_t i = 1; i + 1 < lines.size(); ++i)
      if (kind.empty() || lines[i]["kind"] == kind) out.push_back(lines[i]);
    return out;
  }
  static bool IsEvent(const json& r) {
    return r["kind"] == "alloc" || r["kind"] == "promote" || r["kind"] == "collect";
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
  // A manifest, three files per case, and one per mode whose stream differs from strict.
  std::size_t mode_streams = 0;
  const json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  for (const json& c : manifest["cases"])
    if (c.contains("expected_as")) mode_streams += c["expected_as"].size();
  EXPECT_GT(mode_streams, 0u);
  EXPECT_EQ(files, 1 + 3 * (summary_.memtrace + summary_.ring + summary_.sampler) + mode_streams);
}

TEST_F(CorpusTest, EveryStreamIsSchema2) {
  const json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  EXPECT_EQ(manifest["schema"], 2);
  EXPECT_EQ(manifest["oracle_version"], VersionLine());  // which oracle wrote the corpus
  for (const json& c : manifest["cases"]) {
    const std::string rel = c["file"].get<std::string>();
    const std::vector<json> lines = Expected(rel);
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front()["schema"], 2) << rel;
    EXPECT_EQ(lines.front()["format"], c["kind"]) << rel;
    EXPECT_EQ(lines.back()["kind"], "end_of_stream") << rel;
    EXPECT_EQ(lines.back()["records"], lines.size() - 2) << rel;
    // Records have a kind.
    for (std::size_t i = 1; i + 1 < lines.size(); ++i)
      ASSERT_TRUE(lines[i]["kind"].is_string() && !lines[i].contains("records")) << rel << ":" << i;
  }
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
    const json e = EndError("memtrace/" + name + ".ctf");
    ASSERT_TRUE(e.is_object()) << name;
    EXPECT_EQ(e["check"], check) << name;
    EXPECT_TRUE(e["offset"].is_number_unsigned()) << name;
  }
  // A negative collect delta is an error before v3 only.
  EXPECT_TRUE(EndError("memtrace/v3_bad_collect_negative_delta_ok.ctf").is_null());
}

TEST_F(CorpusTest, LocationsComeBeforeTheirFirstUse) {
  const json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  std::size_t checked = 0;
  for (const json& c : manifest["cases"]) {
    if (c["kind"] != "memtrace" || c["expects_error"].get<bool>()) continue;
    std::set<std::string> defined;
    for (const json& r : Records(Expected(c["file"].get<std::string>()))) {
      if (r["kind"] == "location") {
        EXPECT_TRUE(defined.insert(r["code"].get<std::string>()).second)
            << c["name"] << ": location " << r["code"] << " printed twice";
        continue;
      }
      if (r["kind"] != "alloc") continue;
      for (const json& code : r["backtrace"])
        ASSERT_TRUE(defined.count(code.get<std::string>())) << c["name"] << ": " << code;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST_F(CorpusTest, FormatCornersDecodeAsDesigned) {
  const auto v1 = Expected("memtrace/v1_event_forms.ctf");
  EXPECT_EQ(v1.front()["info"]["version"], 1);
  EXPECT_TRUE(v1.front()["info"]["context"].is_null());
  const auto v2 = Expected("memtrace/v2_event_forms.ctf");
  EXPECT_EQ(Records(v1), Records(v2));
  EXPECT_EQ(Expected("memtrace/v3_event_forms.ctf").front()["info"]["context"], "corpus");

  // The time wrap: times keep increasing across 2^25 us and the 30 s flush.
  std::int64_t last = 0, max_gap = 0;
  for (const json& ev : Records(Expected("memtrace/v3_time_wrap.ctf"))) {
    if (!IsEvent(ev)) continue;
    const std::int64_t t = ev["time"].get<std::int64_t>();
    EXPECT_GE(t, last);
    if (last != 0) max_gap = std::max(max_gap, t - last);
    last = t;
  }
  EXPECT_GT(max_gap, std::int64_t{1} << 25);

  // The foreign-pid packet is skipped, where it was met, with its offset and reason, in
  // every version.
  for (const std::string v : {"v1", "v2", "v3"}) {
    const std::string name = "memtrace/" + v + "_pid_change.ctf";
    std::size_t events = 0;
    for (const json& r : Records(Expected(name))) events += IsEvent(r);
    EXPECT_EQ(events, 2u) << name;
    const auto skipped = Records(Expected(name), "skipped_packet");
    ASSERT_EQ(skipped.size(), 1u) << name;
    EXPECT_TRUE(skipped[0]["offset"].is_number_unsigned());
    EXPECT_TRUE(skipped[0]["reason"].is_string());
  }

  // Both move-to-front tables full, hit at every slot, evicted: each location still names
  // its own file and function, in every version.
  for (const std::string v : {"v1", "v2", "v3"}) {
    const std::string name = "memtrace/" + v + "_mtf_every_slot.ctf";
    const auto locations = Records(Expected(name), "location");
    ASSERT_EQ(locations.size(), 135u) << name;
    std::set<std::string> files, defs;
    for (const json& l : locations) {
      files.insert(l["frames"][0]["filename"].get<std::string>());
      defs.insert(l["frames"][0]["defname"].get<std::string>());
    }
    EXPECT_EQ(files.size(), 36u) << name;  // one.ml and f1..f35
    EXPECT_EQ(defs.size(), 37u) << name;   // def0..def35 and one name shared by f1..f35
    EXPECT_EQ(locations.back()["frames"][0]["filename"], "mtf/one.ml") << name;
    EXPECT_EQ(locations.back()["frames"][0]["defname"], "Mtf.def0") << name;
  }

  // Multi-domain: three domains, collects of other domains' objects in decreasing order.
  std::set<int> domains;
  int decreasing = 0;
  std::int64_t prev = -1;
  for (const json& ev : Records(Expected("memtrace/v3_multidomain.ctf"))) {
    if (!IsEvent(ev)) continue;
    domains.insert(ev["domain"].get<int>());
    if (ev["kind"] == "collect") {
      if (prev >= 0 && ev["id"].get<std::int64_t>() < prev) ++decreasing;
      prev = ev["id"].get<std::int64_t>();
    }
  }
  EXPECT_EQ(domains, (std::set<int>{0, 1, 2}));
  EXPECT_GT(decreasing, 5);

  // Ring: wrap gives lost events; phase names differ between releases.
  EXPECT_GT(Records(Expected("ring/wrap_lost_padding.ocaml-5.3.events"), "lost_events").size(), 0u);
  EXPECT_EQ(Expected("ring/every_event_type.ocaml-5.0.events").front()["ocaml_version"], "5.0");
  EXPECT_NE(Records(Expected("ring/every_event_type.ocaml-5.0.events")),
            Records(Expected("ring/every_event_type.ocaml-5.4.events")));
  std::set<std::size_t> lengths;
  for (const json& ev :
       Records(Expected("ring/custom_payload_sizes.ocaml-5.3.events"), "user_custom"))
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
    const json e = EndError(std::string("ring/") + name + ".ocaml-5.3.events");
    EXPECT_EQ(e["code"], "corrupt") << name;
    EXPECT_EQ(e["offset"], 224) << name;
  }
}

TEST_F(CorpusTest, SamplerStreamsListDrawsFromAFreshSeed) {
  // Index 0 is the draw that starting a profile consumes (the vector files' listing).
  const auto lines = Expected("sampler/geometric_seed0_lambda0.5.sampler.json");
  EXPECT_EQ(lines.front().dump(),
            R"({"format":"sampler","lambda":0.5,"mode":"geometric","schema":2,"seed":0})");
  EXPECT_EQ(Records(lines, "draw").size(), 200u);
  const std::string text =
      Slurp(fs::path(*dir_) / "sampler/geometric_seed0_lambda0.5.sampler.json.expected.txt");
  EXPECT_EQ(text.substr(0, text.find('\n')), lines[1]["value"].dump());
}

TEST_F(CorpusTest, TextAndJsonAgreeOnErrors) {
  const json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  for (const json& c : manifest["cases"]) {
    const json e = EndError(c["file"].get<std::string>());
    const std::string text = Slurp(fs::path(*dir_) / c["expected_text"].get<std::string>());
    const bool text_error = text.find("error: ") != std::string::npos;
    EXPECT_EQ(!e.is_null(), text_error) << c["name"];
    EXPECT_EQ(c["expects_error"], !e.is_null()) << c["name"];
  }
}

TEST_F(CorpusTest, ExpectedFilesThemselvesPass) {
  CheckOptions o;
  o.impl = "cat {file}.expected.jsonl";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->failed, 0u);
  EXPECT_EQ(s->passed, summary_.memtrace + summary_.ring + summary_.sampler);
}

TEST_F(CorpusTest, AlteredFieldIsTheFirstDifference) {
  const std::string rel = "memtrace/v3_event_forms.ctf";
  // The line (1-based) of the first record with nsamples 2.
  std::size_t line = 0;
  {
    std::istringstream in(Slurp(fs::path(*dir_) / (rel + ".expected.jsonl")));
    std::size_t n = 0;
    for (std::string l; std::getline(in, l) && line == 0;)
      if (++n, l.find("\"nsamples\":2,") != std::string::npos) line = n;
  }
  ASSERT_GT(line, 1u);
  CheckOptions o;
  o.impl = "sed 's/\"nsamples\":2,/\"nsamples\":3,/' {file}.expected.jsonl";
  o.only = {"memtrace/v3_event_forms"};
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_FALSE(s->cases[0].passed);
  EXPECT_EQ(s->cases[0].reason,
            "line " + std::to_string(line) + ": at /nsamples: expected 2, got 3");
}

TEST_F(CorpusTest, MissingAndExtraLinesFailAtTheirLine) {
  CheckOptions o;
  o.only = {"memtrace/v3_event_forms"};
  const auto lines = Expected("memtrace/v3_event_forms.ctf");
  const std::string n = std::to_string(lines.size());
  // Without the end line: the decoder did not finish.
  o.impl = "head -n -1 {file}.expected.jsonl";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason,
            "incomplete stream: line " + std::to_string(lines.size() - 1) +
                ", the last, is not the end line {\"kind\":\"end_of_stream\",...}");
  // The third line printed twice: line 4 differs (unless it equals line 3).
  ASSERT_NE(lines[2], lines[3]);
  o.impl = "sed '3p' {file}.expected.jsonl";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("line 4: at /", 0), 0u) << s->cases[0].reason;
  EXPECT_NE(s->cases[0].reason.find("(expected " + n + " lines, got " +
                                    std::to_string(lines.size() + 1) + ")"),
            std::string::npos)
      << s->cases[0].reason;
  // The third line left out: line 3 differs.
  o.impl = "sed '3d' {file}.expected.jsonl";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("line 3: at /", 0), 0u) << s->cases[0].reason;
}

TEST_F(CorpusTest, RejectedInputsCompareHeaderAndErrorOnly) {
  CheckOptions o;
  o.only = {"memtrace/v2_bad_non_monotone_times"};
  const auto lines = Expected("memtrace/v2_bad_non_monotone_times.ctf");
  ASSERT_GT(lines.size(), 2u) << "the case should decode records before its error";
  // Header and end line only, and exit 1 as the program exits on a rejected input.
  o.impl = "{ head -n 1 {file}.expected.jsonl; tail -n 1 {file}.expected.jsonl; exit 1; }";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->cases[0].passed) << s->cases[0].reason;
  // Another offset in the error passes: only its code is compared, unless the errors
  // are compared exactly.
  o.impl = "sed '$s/\"offset\":[0-9]*/\"offset\":1/' {file}.expected.jsonl";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->cases[0].passed) << s->cases[0].reason;
  o.exact_errors = true;
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind(
                "line " + std::to_string(lines.size()) + ": at /error/offset: expected ", 0),
            0u)
      << s->cases[0].reason;
}

TEST_F(CorpusTest, CrashesExitCodesAndHangsFailOneCaseEach) {
  CheckOptions o;
  o.only = {"sampler/geometric_seed0_"};
  o.impl = "exit 3 # {file}";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 6u);
  EXPECT_EQ(s->failed, 6u);
  EXPECT_EQ(s->cases[0].reason,
            "exit code 3 where the input is accepted; incomplete stream: no output (no end line "
            "{\"kind\":\"end_of_stream\",...})");
  o.impl = "kill -SEGV $$ # {file}";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("killed by signal 11; incomplete stream: no output", 0), 0u)
      << s->cases[0].reason;
  o.only = {"sampler/geometric_seed0_lambda1e-6"};
  o.impl = "sleep 30; cat {file}.expected.jsonl";
  o.timeout_seconds = 0.3;
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_EQ(s->cases[0].reason.rfind("timed out", 0), 0u) << s->cases[0].reason;
  o.impl = "echo not json # {file}";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("output line 1 is not JSON", 0), 0u) << s->cases[0].reason;
}

// A decoder that gives up midway on a valid input: the report names its exit status,
// the first record it got wrong and what it said on stderr.
TEST_F(CorpusTest, ExitMidwayReportsTheFirstWrongRecordAndStderr) {
  CheckOptions o;
  o.only = {"memtrace/v3_event_forms"};
  const auto lines = Expected("memtrace/v3_event_forms.ctf");
  ASSERT_GT(lines.size(), 5u);
  ASSERT_TRUE(lines[3].contains("kind"));
  // Lines 1..5, the fourth with another kind, then a complaint and exit 1.
  o.impl =
      "head -n 5 {file}.expected.jsonl | sed '4s/\"kind\":\"[a-z_]*\"/\"kind\":\"oops\"/'; "
      "for i in $(seq 30); do echo \"noise $i\" >&2; done; "
      "printf 'decoder: \\033[31mgave up\\n' >&2; exit 1";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->failed, 1u);
  const CaseResult& r = s->cases[0];
  EXPECT_EQ(r.reason, "exit code 1 where the input is accepted; line 4: at /kind: expected " +
                          lines[3]["kind"].dump() +
                          ", got \"oops\"; incomplete stream: line 5, the last, is not the end "
                          "line {\"kind\":\"end_of_stream\",...}");
  // The last 20 lines, cut marked, the escape made harmless.
  EXPECT_EQ(r.stderr_tail.rfind("...\nnoise 12\n", 0), 0u) << r.stderr_tail;
  EXPECT_EQ(r.stderr_tail.substr(r.stderr_tail.size() - 30), "noise 30\ndecoder: ?[31mgave up");
  EXPECT_EQ(std::count(r.stderr_tail.begin(), r.stderr_tail.end(), '\n'), 20);
  // A passing case carries no stderr.
  o.impl = "cat {file}.expected.jsonl; echo chatter >&2";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->cases[0].passed);
  EXPECT_EQ(s->cases[0].stderr_tail, "");
}

// An independent reader words its errors its own way: strict mode passes it on the whole
// corpus, --exact-errors fails it on every rejected input.
TEST_F(CorpusTest, OtherErrorWordingPassesStrictButNotExactErrors) {
  CheckOptions o;
  o.impl =
      "sed '$s/\"check\":\"[^\"]*\"/\"check\":\"my own words\"/; "
      "$s/\"offset\":[0-9][0-9]*/\"offset\":null/; $s/,\"bit\":[0-9]*//' {file}.expected.jsonl";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->failed, 0u) << [&] {
    for (const auto& r : s->cases)
      if (!r.passed) return r.name + ": " + r.reason;
    return std::string();
  }();
  EXPECT_EQ(s->passed, summary_.memtrace + summary_.ring + summary_.sampler);
  o.exact_errors = true;
  o.only = {"tag:rejected"};
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_GT(s->failed, 50u);
  EXPECT_EQ(s->passed, 0u);
  for (const auto& r : s->cases)
    EXPECT_NE(r.reason.find(": at /error/"), std::string::npos) << r.name << ": " << r.reason;
}

TEST_F(CorpusTest, SelectionByNamesTagsAndSupports) {
  CheckOptions o;
  o.impl = "cat {file}.expected.jsonl";
  auto names = [&](const CheckSummary& s) {
    std::set<std::string> out;
    for (const auto& r : s.cases)
      if (r.outcome == CaseOutcome::kPassed) out.insert(r.name);
    return out;
  };
  // Several patterns: any of --only, none of --skip.
  o.only = {"memtrace/v1_event", "tag:ocaml-5.0"};
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(names(*s),
            (std::set<std::string>{"memtrace/v1_event_forms", "ring/every_event_type.ocaml-5.0"}));
  o.only = {"tag:v2"};
  o.skip = {"tag:bad", "time"};
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_GT(s->passed, 2u);
  for (const auto& r : s->cases) {
    EXPECT_EQ(r.name.rfind("memtrace/v2_", 0), 0u) << r.name;
    EXPECT_EQ(r.name.find("time"), std::string::npos) << r.name;
    EXPECT_EQ(r.name.find("_bad_"), std::string::npos) << r.name;
  }
  // What the implementation does not read is unsupported: not run, not failed.
  o.only = {"memtrace/"};
  o.skip = {};
  o.supports = {"memtrace-v1", "memtrace-v2"};
  o.impl = "exit 9 # {file}";
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_GT(s->unsupported, 40u);
  EXPECT_EQ(s->passed, 0u);
  for (const auto& r : s->cases)
    EXPECT_EQ(r.outcome == CaseOutcome::kUnsupported, r.name.rfind("memtrace/v3_", 0) == 0)
        << r.name;
  o.supports = {"ring"};
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->unsupported, summary_.memtrace);
  // Bad selections are the kit's bad input, named.
  o.supports = {};
  for (auto bad : {std::pair{"only", "tag:v4"}, {"skip", "tag:nonsense"}}) {
    o.only = bad.first == std::string("only") ? std::vector<std::string>{bad.second}
                                              : std::vector<std::string>{};
    o.skip = bad.first == std::string("skip") ? std::vector<std::string>{bad.second}
                                              : std::vector<std::string>{};
    s = Check(*dir_, o);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(s.status().ToString().find("no case has the tag"), std::string::npos)
        << s.status().ToString();
  }
  o.only = o.skip = {};
  for (const char* bad : {"memtrace-v4", "json", "ring-5.3", "sampler-v1"}) {
    o.supports = {bad};
    s = Check(*dir_, o);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), ErrorCode::kInvalidArgument);
  }
  o.supports = {};
  o.ignore_fields = {"info/pid"};
  s = Check(*dir_, o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(s.status().ToString().find("is not a JSON Pointer"), std::string::npos);
}

TEST_F(CorpusTest, IgnoredFieldsAreNotCompared) {
  CheckOptions o;
  o.only = {"memtrace/v3_event_forms"};
  o.impl = "sed '1s/\"pid\":[0-9]*/\"pid\":1/' {file}.expected.jsonl";
  auto s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("line 1: at /info/pid: expected ", 0), 0u)
      << s->cases[0].reason;
  o.ignore_fields = {"/info/pid"};
  s = Check(*dir_, o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->cases[0].passed) << s->cases[0].reason;
}

// Every tag set in MANIFEST.json is the one derived from the case, so a corpus written
// before tags existed selects the same cases.
TEST_F(CorpusTest, ManifestTagsAreTheDerivedOnes) {
  json manifest = json::parse(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  auto with = ParseManifest(manifest.dump());
  ASSERT_TRUE(with.ok());
  for (json& c : manifest["cases"]) {
    ASSERT_TRUE(c.contains("tags")) << c["name"];
    c.erase("tags");
  }
  auto without = ParseManifest(manifest.dump());
  ASSERT_TRUE(without.ok());
  ASSERT_EQ(with->size(), without->size());
  for (std::size_t i = 0; i < with->size(); ++i) {
    EXPECT_EQ((*with)[i].tags, (*without)[i].tags) << (*with)[i].name;
    EXPECT_GE((*with)[i].tags.size(), 2u) << (*with)[i].name;
    EXPECT_FALSE(FormatTag((*with)[i].tags).empty()) << (*with)[i].name;
  }
}

// SCHEMA.md's error-class table lists every (code, check) the corpus's streams end with,
// strict and reference modes alike ("ring N:" stands for every ring number).
TEST_F(CorpusTest, SchemaListsEveryErrorClassAndCheck) {
  const std::string schema = Slurp("core/corpus/SCHEMA.md");
  ASSERT_NE(schema.find("## Error classes"), std::string::npos);
  auto manifest = ParseManifest(Slurp(fs::path(*dir_) / "MANIFEST.json"));
  ASSERT_TRUE(manifest.ok());
  std::set<std::pair<std::string, std::string>> pairs;
  for (const ManifestCase& c : *manifest) {
    std::vector<std::string> streams{c.expected_jsonl};
    for (const auto& [mode, path] : c.expected_as) streams.push_back(path);
    for (const std::string& rel : streams) {
      std::vector<json> lines;
      std::istringstream in(Slurp(fs::path(*dir_) / rel));
      std::string line, last;
      while (std::getline(in, line)) last = line;
      const json error = json::parse(last)["error"];
      if (error.is_null()) continue;
      std::string check = error["check"].get<std::string>();
      if (check.rfind("ring ", 0) == 0 && check.find(':') != std::string::npos)
        check = "ring N" + check.substr(check.find(':'));
      pairs.emplace(error["code"].get<std::string>(), check);
    }
  }
  EXPECT_GT(pairs.size(), 40u);
  for (const auto& [code, check] : pairs)
    EXPECT_NE(schema.find("| `" + code + "` | `" + check + "` |"), std::string::npos)
        << "SCHEMA.md has no row | `" << code << "` | `" << check << "` |";
}

TEST_F(CorpusTest, MissingManifestAndPlaceholderAreErrors) {
  CheckOptions o;
  o.impl = "cat {file}";
  EXPECT_EQ(Check(TmpDir("nothing_here"), o).status().code(), ErrorCode::kIo);
  o.impl = "cat";
  EXPECT_EQ(Check(*dir_, o).status().code(), ErrorCode::kInvalidArgument);
}

// `--as REFERENCE`: a mode's own stream where it has one, declared cases reported
// without running, other formats not run, verdicts compared rather than error wording.
TEST_F(CorpusTest, ReferenceModesUseTheirStreamsAndDeclarations) {
  const fs::path copy = TmpDir("corpus-as");
  fs::copy(*dir_, copy, fs::copy_options::recursive);
  json manifest = json::parse(Slurp(copy / "MANIFEST.json"));
  const std::string accepted_rel = "memtrace/v2_empty.ctf";
  const std::string rejected_rel = "memtrace/v2_bad_non_monotone_times.ctf";
  for (json& c : manifest["cases"]) {
    // Only what this test plants counts (the corpus's own mode entries are its business).
    c.erase("declared");
    c.erase("expected_as");
    // The mode's stream for the rejected case: the strict one with its error lifted.
    if (c["file"] == rejected_rel) {
      std::string text = Slurp(copy / (rejected_rel + ".expected.jsonl"));
      const auto at = text.rfind("{\"kind\":\"end_of_stream\"");
      text = text.substr(0, at) + "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":0}\n";
      std::ofstream(copy / (rejected_rel + ".lenient.jsonl")) << text;
      c["expected_as"] = {{"memtrace-0.2.3", rejected_rel + ".lenient.jsonl"}};
    }
    if (c["file"] == accepted_rel)
      c["declared"] = {{"memtrace-0.2.3", {{"reference", "loops"}, {"why", "never copied"}}}};
  }
  std::ofstream(copy / "MANIFEST.json") << manifest.dump();

  CheckOptions o;
  o.verdicts = Verdicts::kMemtrace023;
  o.only = {"memtrace/v2_"};
  // An implementation printing the strict streams fails where the mode's differs ...
  o.impl = "cat {file}.expected.jsonl";
  auto s = Check(copy.string(), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->declared, 1u);
  EXPECT_EQ(s->failed, 1u);
  for (const CaseResult& r : s->cases) {
    if (r.name == "memtrace/v2_empty") {
      EXPECT_EQ(r.outcome, CaseOutcome::kDeclared);
      EXPECT_EQ(r.reason, "loops; never copied");
    }
    if (r.name == "memtrace/v2_bad_non_monotone_times") {
      EXPECT_EQ(r.outcome, CaseOutcome::kFailed);
      EXPECT_NE(r.reason.find("expected null (the input is accepted)"), std::string::npos)
          << r.reason;
    }
  }
  // ... and one printing the mode's streams, with its own error words, passes.
  o.impl =
      "f={file}; if [ -f \"$f.lenient.jsonl\" ]; then cat \"$f.lenient.jsonl\"; else "
      "sed 's/\"check\":\"[^\"]*\"/\"check\":\"Failure\"/' \"$f.expected.jsonl\"; fi";
  s = Check(copy.string(), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->failed, 0u) << (s->cases.empty() ? "" : s->cases[0].reason);
  EXPECT_GT(s->passed, 5u);
  // Strict checking is unchanged by the mode members: it holds the case to the strict
  // stream, which rejects it.
  o.verdicts = Verdicts::kStrict;
  o.only = {"memtrace/v2_bad_non_monotone_times"};
  s = Check(copy.string(), o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->failed, 1u);
  // A ring mode runs no memtrace case.
  o.verdicts = Verdicts::kOcaml53;
  o.only = {};
  o.impl = "false {file}";
  s = Check(copy.string(), o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->not_judged, summary_.memtrace + summary_.sampler);
  EXPECT_EQ(s->passed + s->failed + s->declared, summary_.ring);
}

TEST(RunCommand, QuotesPathsAndCapturesOutput) {
  auto r = RunCommand("printf '%s' " + ShellQuote("it's a $path"), 5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->out, "it's a $path");
}

TEST(RunCommand, KeepsTheTailOfStderr) {
  auto r = RunCommand("echo out; echo 'first words' >&2; echo 'last words' >&2; exit 3", 5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "first words\nlast words\n");
  EXPECT_FALSE(r->err_truncated);
  // A megabyte of stderr neither blocks the command nor is kept: only its end.
  r = RunCommand("head -c 1000000 /dev/zero | tr '\\0' x >&2; echo end >&2; echo done", 5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->out, "done\n");
  EXPECT_EQ(r->err.size(), kStderrTail);
  EXPECT_TRUE(r->err_truncated);
  EXPECT_EQ(r->err.substr(r->err.size() - 5), "xend\n");
}

TEST(RunCommand, EndlessStderrDoesNotHoldTheDeadline) {
  const auto start = std::chrono::steady_clock::now();
  auto r = RunCommand("yes 'spam' >&2", 0.5);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(took, 5.0);
  EXPECT_EQ(r->err.size(), kStderrTail);
  EXPECT_TRUE(r->err_truncated);
  EXPECT_NE(r->err.find("spam\nspam\n"), std::string::npos);
}

}  // namespace
}  // namespace mpo::corpus
