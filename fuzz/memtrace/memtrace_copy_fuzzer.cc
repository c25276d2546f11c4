// `memtrace copy` (core/memtrace/trace_copy) over arbitrary bytes: a typed error, or a
// copy whose events have exactly the input's kinds and times, and the same result, byte
// for byte, as the copy that compares backtraces whole instead of trusting the reader's
// common prefixes. (When the copy reads back with another number of events, e.g. v1/v2
// rules skipping a packet, the times are not compared: only a time changed in place is a
// failure.)
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
    VectorSink out;
    auto src = MemorySource(in);
    const mpo::Status s = CopyTrace(*src, out, version, nullptr, {}, mpo::fuzz::FuzzLimits());
    VectorSink whole;
    auto src2 = MemorySource(in);
    const mpo::Status w = CopyTrace(*src2, whole, version, nullptr, {}, mpo::fuzz::FuzzLimits(),
                                    CopyMode::kReference);
    if (s.ToString() != w.ToString() || out.data != whole.data) __builtin_trap();
    if (!s.ok()) continue;
    const std::vector<Key> a = Events(in), b = Events(out.data);
    if (a.size() == b.size() && a != b) __builtin_trap();
  }
  return 0;
}
