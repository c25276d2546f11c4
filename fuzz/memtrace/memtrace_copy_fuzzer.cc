// `memtrace copy` (core/memtrace/trace_copy) over arbitrary bytes: a typed error, or a
// copy whose events have exactly the input's kinds and times, and the same result, byte
// for byte, in every CopyMode: the fast one (a trace the writer would write is copied as
// it is, and only such a trace) and the one trusting the reader's common prefixes, held
// to the reference that encodes every event again and compares backtraces whole. (When
// the copy reads back with another number of events, e.g. v1/v2 rules skipping a
// packet, the times are not compared: only a time changed in place is a failure.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "fuzz/memtrace/tool_limits.h"

namespace {

struct Key {
  mpo::memtrace::EventKind kind;
  std::int64_t time;
  bool operator==(const Key&) const = default;
};

std::vector<Key> Events(std::span<const std::uint8_t> bytes) {
  using namespace mpo::memtrace;
  std::vector<Key> v;
  ReaderOptions o;
  o.limits = mpo::fuzz::FuzzLimits();
  auto r = TraceReader::Open(MemorySource(bytes), o);
  if (!r.ok()) __builtin_trap();  // only called on traces that were read once already
  while (const Event* e = (*r)->NextEvent()) v.push_back({e->kind, e->time});
  if (!(*r)->status().ok()) __builtin_trap();
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memtrace;
  const std::span<const std::uint8_t> in(data, size);
  for (int version : {2, 3}) {
    // The reference first; then every faster mode must give its status and bytes.
    VectorSink whole;
    const mpo::Status w = CopyTrace(*MemorySource(in), whole, version, nullptr, {},
                                    mpo::fuzz::FuzzLimits(), CopyMode::kReference);
    for (const CopyMode mode : {CopyMode::kFast, CopyMode::kReencode}) {
      VectorSink out;
      CopyStats stats;
      const mpo::Status s =
          CopyTrace(*MemorySource(in), out, version, &stats, {}, mpo::fuzz::FuzzLimits(), mode);
      if (s.ToString() != w.ToString() || out.data != whole.data) __builtin_trap();
      // Copied as it is only when the copy is the input.
      if (stats.unchanged && !std::equal(in.begin(), in.end(), out.data.begin(), out.data.end()))
        __builtin_trap();
    }
    if (!w.ok()) continue;
    const std::vector<Key> a = Events(in), b = Events(whole.data);
    if (a.size() == b.size() && a != b) __builtin_trap();
  }
  return 0;
}
