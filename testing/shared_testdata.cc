#include "testing/shared_testdata.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace mpo::testing {
namespace {

namespace fs = std::filesystem;

bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::optional<std::string> SharedTestdataDir() {
  if (const char* env = std::getenv("MPO_SHARED_TESTDATA"); env != nullptr && *env != '\0') {
    if (IsDir(env)) return std::string(env);
    return std::nullopt;
  }
  // Runfiles are symlinks into the source tree: follow one back to the checkout.
  std::error_code ec;
  const fs::path anchor = fs::canonical("testing/anchor.txt", ec);
  if (ec) return std::nullopt;
  const fs::path checkout = anchor.parent_path().parent_path();
  const fs::path shared = checkout.parent_path() / "shared" / "testdata";
  if (IsDir(shared)) return shared.string();
  return std::nullopt;
}

std::string RepoFile(const std::string& workspace_relative) {
  // Tests run with the runfiles tree of the workspace as their working directory.
  return workspace_relative;
}

}  // namespace mpo::testing
