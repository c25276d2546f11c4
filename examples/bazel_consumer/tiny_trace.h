// A small memtrace trace written and read back with memprof-oracle's public library
// (@memprof_oracle//:memtrace_writer and :memtrace_reader).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace consumer {

struct TraceCounts {
  std::uint64_t allocs = 0;
  std::uint64_t promotes = 0;
  std::uint64_t collects = 0;
  std::uint64_t samples = 0;
  // Samples by allocation site (the last frame of each backtrace, "defname@file:line:...").
  std::map<std::string, std::uint64_t> samples_by_site;
};

// A memtrace v3 trace, in memory: `allocs` allocations alternating between two sites
// (the i-th carries i % 3 + 1 samples), every other one promoted, all of them collected.
// kInvalidArgument for a negative count.
mpo::Result<std::vector<std::uint8_t>> WriteTinyTrace(int allocs);

// Every event of a trace, counted; the reader's typed error for a malformed one.
mpo::Result<TraceCounts> CountEvents(std::span<const std::uint8_t> trace);

}  // namespace consumer
