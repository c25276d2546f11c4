#include "testing/scratch_dir.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace mpo::testing {

ScratchDir::ScratchDir(const std::string& prefix) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {
    std::perror("mkdtemp");
    std::abort();
  }
  dir_ = templ;
}

int ScratchDir::Entries() const {
  int n = 0;
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return -1;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    n += name != "." && name != "..";
  }
  ::closedir(d);
  return n;
}

void ScratchDir::WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string ScratchDir::ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace mpo::testing
