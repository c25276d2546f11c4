// Locates ../shared/testdata, the reference files written by the real OCaml runtime and
// memtrace, which some conformance tests read at test time instead of committing them.
//
// Looked up, in order: $MPO_SHARED_TESTDATA; then `shared/testdata` beside the source
// checkout, found by following the runfiles symlink of testing/anchor.txt back to the
// workspace. Tests that need it and do not find it must skip loudly (MPO_SKIP_...).
#pragma once

#include <optional>
#include <string>

namespace mpo::testing {

// The directory, or nullopt when it is not available on this machine.
std::optional<std::string> SharedTestdataDir();

// A file of this repository's own testdata/, relative to the workspace root
// ("testdata/sampler/geometric.csv"), as a path a test can open.
std::string RepoFile(const std::string& workspace_relative);

}  // namespace mpo::testing

// Skips the current GoogleTest test with a message saying clearly what was not checked.
#define MPO_REQUIRE_SHARED_TESTDATA(dir_var)                                            \
  auto dir_var##_opt = ::mpo::testing::SharedTestdataDir();                             \
  if (!dir_var##_opt) {                                                                 \
    GTEST_SKIP() << "SKIPPED: ../shared/testdata not found (set MPO_SHARED_TESTDATA); " \
                    "this conformance check did not run";                               \
  }                                                                                     \
  const std::string dir_var = *dir_var##_opt
