#include "core/base/version.h"

#include <algorithm>

namespace mpo {

namespace internal {
// Defined by version_stamp.cc, which Bazel compiles when it links each binary.
extern const char kBuildScmRevision[];
}  // namespace internal

std::string RevisionOrUnknown(std::string_view stamped) {
  const bool hex = std::all_of(stamped.begin(), stamped.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (!hex || stamped.size() < 7 || stamped.size() > 40) return "unknown";
  return std::string(stamped);
}

std::string GitRevision() { return RevisionOrUnknown(internal::kBuildScmRevision); }

std::string VersionLine() {
  return "memprof-oracle " + std::string(kVersion) + " (git " + GitRevision() + ")";
}

}  // namespace mpo
