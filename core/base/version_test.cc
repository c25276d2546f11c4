#include "core/base/version.h"

#include <gtest/gtest.h>

#include <regex>

namespace mpo {
namespace {

TEST(Version, ReleaseNumberIsSemantic) {
  EXPECT_TRUE(std::regex_match(std::string(kVersion), std::regex(R"([0-9]+\.[0-9]+\.[0-9]+)")))
      << kVersion;
}

TEST(Version, StampedRevisionIsKeptWhenItIsAHash) {
  EXPECT_EQ(RevisionOrUnknown("9254a79"), "9254a79");
  const std::string full(40, 'f');
  EXPECT_EQ(RevisionOrUnknown(full), full);
}

TEST(Version, AnythingElseIsUnknown) {
  // Bazel's unstamped values, and what another workspace's status command might put there.
  for (const char* bad : {"0", "", "redacted", "9254A79", "9254a7", "v1.2.3-dirty", "9254a79 "}) {
    EXPECT_EQ(RevisionOrUnknown(bad), "unknown") << '"' << bad << '"';
  }
  EXPECT_EQ(RevisionOrUnknown(std::string(41, 'a')), "unknown");
}

TEST(Version, LineNamesProgramVersionAndRevision) {
  const std::regex line(
      R"(memprof-oracle [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]{7,40}|unknown)\))");
  EXPECT_TRUE(std::regex_match(VersionLine(), line)) << VersionLine();
  EXPECT_NE(VersionLine().find(std::string(kVersion)), std::string::npos);
  EXPECT_NE(VersionLine().find(GitRevision()), std::string::npos);
}

}  // namespace
}  // namespace mpo
