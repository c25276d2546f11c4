// A fresh directory per test under Bazel's TEST_TMPDIR, with small helpers for tests that
// check what a command left on disk (files written, temporaries removed).
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace mpo::testing {

class ScratchDir {
 public:
  // Creates "<TEST_TMPDIR or /tmp>/<prefix>-XXXXXX"; aborts the test binary if it cannot.
  explicit ScratchDir(const std::string& prefix);
  const std::string& path() const { return dir_; }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // Entries in the directory other than "." and "..", hidden ones included.
  int Entries() const;

  static void WriteFile(const std::string& path, const std::string& text);
  static std::string ReadFile(const std::string& path);

 private:
  std::string dir_;
};

// A test fixture owning one ScratchDir, with its helpers at hand.
class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(const std::string& prefix) : dir_(prefix) {}
  std::string Path(const std::string& name) const { return dir_.Path(name); }
  int EntriesInDir() const { return dir_.Entries(); }
  static void WriteFile(const std::string& p, const std::string& text) {
    ScratchDir::WriteFile(p, text);
  }
  static std::string ReadFile(const std::string& p) { return ScratchDir::ReadFile(p); }

  ScratchDir dir_;
};

}  // namespace mpo::testing
