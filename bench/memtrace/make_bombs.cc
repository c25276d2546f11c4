// Writes the issue-11 bombs (core/memtrace/internal/bombs.h) into a directory as
// <name>.ctf. Usage: make_bombs DIR [--small] (--small: fuzz-seed sizes).
#include <cstdio>
#include <cstring>
#include <string>

#include "core/memtrace/internal/bombs.h"

int main(int argc, char** argv) {
  using namespace mpo::memtrace::bombs;
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_bombs DIR [--small]\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Named> v;
  if (argc > 2 && std::strcmp(argv[2], "--small") == 0) {
    v = {{"deep_backtrace", DeepBacktrace(3000, 6)},
         {"many_domains", ManyDomains(3, 2000)},
         {"long_locations", LongLocations(3, 1000)},
         {"staircase", Staircase(100)},
         {"extreme_times", ExtremeTimes()}};
  } else {
    v = IssueBombs();
  }
  for (const Named& b : v) {
    const std::string path = dir + "/" + b.name + ".ctf";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(b.bytes.data(), 1, b.bytes.size(), f) != b.bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "make_bombs: cannot write %s\n", path.c_str());
      return 2;
    }
    std::printf("%s %zu bytes\n", path.c_str(), b.bytes.size());
  }
  return 0;
}
