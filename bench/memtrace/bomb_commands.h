// The commands the bomb benchmark and the bomb RSS test run on each bomb.
#pragma once

#include <string>
#include <vector>

namespace mpo::bench {

struct BombCommand {
  std::string name;               // "dump", "folded", ...
  std::vector<std::string> args;  // after the program; "{}" is the trace, "{out}" a scratch file
};

inline std::vector<BombCommand> BombCommands() {
  return {
      {"dump", {"memtrace", "dump", "{}"}},
      {"dump --json", {"memtrace", "dump", "--json", "{}"}},
      {"dump --oracle", {"memtrace", "dump", "--oracle", "{}"}},
      {"check", {"memtrace", "check", "{}"}},
      {"stats", {"memtrace", "stats", "{}"}},
      {"diff", {"memtrace", "diff", "{}", "{}"}},
      {"folded", {"memtrace", "folded", "{}"}},
      {"copy", {"memtrace", "copy", "{}", "{out}"}},
      {"corpus decode", {"corpus", "decode", "{}"}},
  };
}

}  // namespace mpo::bench
