// Test helpers shared by the ring tests: a fresh scratch directory, gunzip a committed
// ring file, read a file.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace mpo::ring::testutil {

// `$TEST_TMPDIR/<sub>` (or /tmp/<sub>), emptied.
inline std::string FreshDir(const std::string& sub) {
  const char* t = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(t ? t : "/tmp") + "/" + sub;
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  return dir;
}

// The decompressed bytes of a .gz file (gzip -dc); empty on failure.
inline std::string Gunzip(const std::string& path) {
  std::string out;
  FILE* p = ::popen(("gzip -dc '" + path + "'").c_str(), "r");
  if (p == nullptr) return out;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (::pclose(p) != 0) out.clear();
  return out;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace mpo::ring::testutil
