// memprof-oracle's release number and the source revision a binary was built from.
// `memprof-oracle --version` prints VersionLine(); tools that record which oracle wrote
// something (corpus MANIFEST.json) can use the same.
#pragma once

#include <string>
#include <string_view>

namespace mpo {

// The one place the release number lives (semantic versioning: bump the minor number
// when an output or the corpus changes, the patch number for fixes).
inline constexpr std::string_view kVersion = "0.1.0";

// The git revision stamped in at link time (`bazel build --config=release`, which runs
// tools/workspace_status.sh), or "unknown" in ordinary builds: those are not stamped, so
// their outputs stay cacheable.
std::string GitRevision();

// "memprof-oracle X.Y.Z (git REVISION)".
std::string VersionLine();

// What GitRevision makes of a stamped value: 7 to 40 lower-case hex digits are kept,
// anything else (Bazel's "0" or "redacted" when unstamped, another workspace's own
// status keys) is "unknown".
std::string RevisionOrUnknown(std::string_view stamped);

}  // namespace mpo
