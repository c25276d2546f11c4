// Runs a command in a child process and reports its exit, wall time and peak resident
// memory: the measurement behind the bomb benchmark and the bomb RSS test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpo::bench {

struct ChildResult {
  int exit_code = -1;      // -1: killed (signal or limit)
  int signal = 0;          // the signal that ended it, if any
  bool over_rss = false;   // killed for passing the RSS limit
  bool over_time = false;  // killed for passing the time limit
  double seconds = 0;
  std::uint64_t peak_rss_kb = 0;
  std::string stderr_text;  // the first 64 KiB
};

// Runs argv (argv[0] a path) with stdout to /dev/null (or `stdout_path`), killing it
// past `rss_limit_kb` of resident memory or `time_limit_s` seconds.
ChildResult RunChild(const std::vector<std::string>& argv, std::uint64_t rss_limit_kb,
                     double time_limit_s, const std::string& stdout_path = "/dev/null");

}  // namespace mpo::bench
