// The writer the copy tests (trace_copy_test, trace_copy_threads_test) make their traces
// with: one Info, and one frame for any location code.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::copy_test {

// TestInfo()'s start time, the earliest time an event may have.
inline constexpr std::int64_t kStartTime = 1000;

inline Info TestInfo() {
  Info i;
  i.sample_rate = 0.01;
  i.executable_name = "exec";
  i.pid = 42;
  i.start_time = kStartTime;
  return i;
}

// One frame per code, made on first use (one thread at a time).
inline const std::vector<Location>* Frames(OcamlInt code) {
  static std::map<OcamlInt, std::vector<Location>> m;
  auto& v = m[code];
  if (v.empty()) v = {{"f.ml", code % 1000, 1, 2, "d" + std::to_string(code)}};
  return &v;
}
inline const LocationLookup kFrames = [](OcamlInt c) { return Frames(c); };

// A writer of format `version` into `sink`, with TestInfo(); null (and a test failure)
// if it cannot be created. Its lookups go to Frames().
inline std::unique_ptr<TraceWriter> TestWriter(VectorSink& sink, int version) {
  WriterOptions opts;
  opts.format_version = version;
  auto w = TraceWriter::Create(sink, TestInfo(), opts);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? std::move(*w) : nullptr;
}

}  // namespace mpo::memtrace::copy_test
