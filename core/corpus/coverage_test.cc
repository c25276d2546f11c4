// Every feature case exists in every format version where the feature exists, read from
// the cases' tags (tags.h, the tags MANIFEST.json carries): a reader that supports only
// some versions (`corpus check --supports memtrace-v1,memtrace-v2`) must still meet every
// corner of the format it reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/corpus/cases.h"
#include "core/corpus/tags.h"

namespace mpo::corpus {
namespace {

using Versions = std::set<std::string>;

const Versions kMemtraceVersions = {"v1", "v2", "v3"};
const Versions kRingReleases = {"ocaml-5.0", "ocaml-5.1", "ocaml-5.2",
                                "ocaml-5.3", "ocaml-5.4", "ocaml-5.5"};

// Where each feature tag exists. Memtrace: per-domain streams came with v3; everything
// else (backtrace cache and hit runs, location string tables, packets, pid, time base and
// wrap, trace info, allocs) is in every version. Rings: the bytes are laid out the same
// in every release (event_names.h: a release changes only the names of phases and
// counters), so only the names depend on the release.
const std::map<std::pair<std::string, std::string>, Versions> kFeatureVersions = {
    {{"memtrace", "alloc"}, kMemtraceVersions},
    {{"memtrace", "backtrace"}, kMemtraceVersions},
    {{"memtrace", "domains"}, {"v3"}},
    {{"memtrace", "location"}, kMemtraceVersions},
    {{"memtrace", "packets"}, kMemtraceVersions},
    {{"memtrace", "pid"}, kMemtraceVersions},
    {{"memtrace", "time"}, kMemtraceVersions},
    {{"memtrace", "trace_info"}, kMemtraceVersions},
    {{"ring", "every_event_type"}, kRingReleases},
};

// Ring features whose layout no release changes: one release's case covers all.
const std::set<std::string> kRingLayoutFeatures = {
    "alloc", "custom_events", "domains", "lost_events", "metadata", "time", "user_events"};

// Memtrace cases that by their nature exist only in some versions of a feature, and why.
struct VersionBound {
  const char* stem;
  Versions versions;
  const char* why;
};
const VersionBound kVersionBound[] = {
    {"discontinuous_packet",
     {"v1", "v2"},
     "v3 restarts alloc ids at each packet's alloc_id_begin: no packet is discontinuous"},
    {"bad_v0_packet", {"v1", "v2", "v3"}, "a v0 packet in a trace of another version"},
    {"bad_v1_packet", {"v2", "v3"}, "a v1 packet is foreign only in a v2 or v3 trace"},
    {"bad_v2_packet", {"v1", "v3"}, "a v2 packet is foreign only in a v1 or v3 trace"},
    {"bad_v3_packet", {"v1", "v2"}, "a v3 packet is foreign only in a v1 or v2 trace"},
};

const std::vector<std::string> kNotFeatures = {"memtrace", "ring", "sampler",   "accepted",
                                               "rejected", "bad",  "truncated", "corrupt",
                                               "declared", "v1",   "v2",        "v3"};

bool IsFeature(const std::string& tag) {
  return std::find(kNotFeatures.begin(), kNotFeatures.end(), tag) == kNotFeatures.end() &&
         tag.rfind("ocaml-", 0) != 0;
}

struct Tagged {
  std::string name;  // without the kind folder
  std::vector<std::string> tags;
};

std::vector<Tagged> TagsOf(const std::string& kind, const std::vector<CaseInput>& cases) {
  std::vector<Tagged> out;
  for (const CaseInput& c : cases)
    out.push_back({c.name, DeriveTags(kind + "/" + c.name, kind + "/" + c.file_name, std::nullopt,
                                      !c.declared.empty())});
  return out;
}

std::vector<std::string> Features(const Tagged& c) {
  std::vector<std::string> f;
  for (const std::string& t : c.tags)
    if (IsFeature(t)) f.push_back(t);
  return f;
}

TEST(Coverage, EveryFeatureTagHasItsVersionsListed) {
  auto memtrace = MemtraceCases();
  ASSERT_TRUE(memtrace.ok()) << memtrace.status().ToString();
  const std::string scratch = std::string(std::getenv("TEST_TMPDIR")) + "/rings";
  std::filesystem::create_directories(scratch);
  auto rings = RingCases(scratch);
  ASSERT_TRUE(rings.ok()) << rings.status().ToString();
  for (const auto& [kind, cases] :
       {std::pair{std::string("memtrace"), TagsOf("memtrace", *memtrace)},
        std::pair{std::string("ring"), TagsOf("ring", *rings)}}) {
    for (const Tagged& c : cases) {
      for (const std::string& f : Features(c)) {
        const bool listed = kFeatureVersions.count({kind, f}) != 0 ||
                            (kind == "ring" && kRingLayoutFeatures.count(f) != 0);
        EXPECT_TRUE(listed) << kind << " feature \"" << f << "\" of " << c.name
                            << " has no row in kFeatureVersions: say where it exists";
        const auto row = kFeatureVersions.find({kind, f});
        if (row != kFeatureVersions.end()) {
          EXPECT_EQ(row->second.count(VersionTag(c.tags)), 1u)
              << c.name << " is a " << VersionTag(c.tags) << " case of \"" << f
              << "\", which that version does not have";
        }
      }
    }
  }
}

// For each (format, feature), every version where it exists has a case.
TEST(Coverage, EveryFeatureInEveryVersion) {
  auto memtrace = MemtraceCases();
  ASSERT_TRUE(memtrace.ok()) << memtrace.status().ToString();
  const std::string scratch = std::string(std::getenv("TEST_TMPDIR")) + "/rings2";
  std::filesystem::create_directories(scratch);
  auto rings = RingCases(scratch);
  ASSERT_TRUE(rings.ok()) << rings.status().ToString();
  std::map<std::pair<std::string, std::string>, Versions> seen;
  for (const auto& [kind, cases] :
       {std::pair{std::string("memtrace"), TagsOf("memtrace", *memtrace)},
        std::pair{std::string("ring"), TagsOf("ring", *rings)}})
    for (const Tagged& c : cases)
      for (const std::string& f : Features(c)) seen[{kind, f}].insert(VersionTag(c.tags));
  for (const auto& [feature, versions] : kFeatureVersions)
    for (const std::string& v : versions)
      EXPECT_EQ(seen[feature].count(v), 1u)
          << "no " << feature.first << " " << v << " case of \"" << feature.second << "\"";
  for (const std::string& f : kRingLayoutFeatures)
    EXPECT_FALSE((seen[{"ring", f}].empty())) << "no ring case of \"" << f << "\"";
}

// Each memtrace case with a feature tag exists, under the same name after its version
// prefix, in every version that has all its features (kVersionBound lists the exceptions).
TEST(Coverage, EveryMemtraceFeatureCaseInEveryVersion) {
  auto memtrace = MemtraceCases();
  ASSERT_TRUE(memtrace.ok()) << memtrace.status().ToString();
  const std::vector<Tagged> cases = TagsOf("memtrace", *memtrace);
  std::set<std::string> names;
  for (const Tagged& c : cases) names.insert(c.name);
  std::size_t checked = 0;
  for (const Tagged& c : cases) {
    const std::string version = VersionTag(c.tags);
    ASSERT_FALSE(version.empty()) << c.name << " has no version tag";
    const std::string stem = c.name.substr(version.size() + 1);
    const std::vector<std::string> features = Features(c);
    if (features.empty()) continue;
    Versions need = kMemtraceVersions;
    for (const std::string& f : features) {
      const auto row = kFeatureVersions.find({"memtrace", f});
      if (row == kFeatureVersions.end()) continue;  // reported by the first test
      Versions both;
      for (const std::string& v : need)
        if (row->second.count(v) != 0) both.insert(v);
      need = both;
    }
    for (const VersionBound& b : kVersionBound)
      if (stem == b.stem) need = b.versions;
    for (const std::string& v : need) {
      EXPECT_EQ(names.count(v + "_" + stem), 1u)
          << c.name << " (features " << ::testing::PrintToString(features) << ") has no " << v
          << " twin " << v << "_" << stem;
      ++checked;
    }
  }
  // The cases the missed reader bugs needed are among those held to this rule.
  for (const char* must : {"v1_backtrace_cache", "v2_backtrace_cache", "v1_mtf_every_slot",
                           "v2_mtf_every_slot", "v1_pid_change", "v2_pid_change"})
    EXPECT_EQ(names.count(must), 1u) << must;
  EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace mpo::corpus
