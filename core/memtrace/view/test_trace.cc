#include "core/memtrace/view/test_trace.h"

#include <map>

#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::view::testing {

std::vector<std::uint8_t> ViewTestTrace(int version) {
  VectorSink sink;
  Info info;
  info.sample_rate = 0.01;
  info.executable_name = "prog";
  info.host_name = "host";
  info.pid = 42;
  info.start_time = 1000;
  info.context = "ctx";
  WriterOptions options;
  options.format_version = version;
  auto w = TraceWriter::Create(sink, info, options);
  if (!w.ok()) return {};
  static const std::map<OcamlInt, std::vector<Location>> kFrames = {
      {kMain, {{"main.ml", 1, 0, 10, "Main"}}},
      {kF, {{"a.ml", 20, 2, 8, "A.inner"}, {"a.ml", 10, 0, 30, "A.outer"}}},
      {kG, {{"g\xe9.ml", 3, 4, 5, "G.g"}}},
      {kEmpty, {}},
  };
  const LocationLookup lookup = [](OcamlInt code) -> const std::vector<Location>* {
    auto it = kFrames.find(code);
    return it == kFrames.end() ? nullptr : &it->second;
  };
  const std::uint16_t other = version >= 3 ? 1 : 0;
  using Bt = std::vector<OcamlInt>;
  TraceWriter& t = **w;
  bool ok = t.PutAlloc(0, 1001, 4, 1, AllocationSource::kMinor, Bt{kMain, kF}, lookup).ok();
  ok &= t.PutAlloc(other, 1002, 5, 1, AllocationSource::kMajor, Bt{kMain, kG}, lookup).ok();
  ok &= t.PutPromote(0, 1003, 0).ok();
  ok &= t.PutAlloc(0, 1004, 1, 1, AllocationSource::kMinor, Bt{kMain, kF, kG}, lookup).ok();
  ok &= t.PutAlloc(0, 1005, 2, 1, AllocationSource::kMinor, Bt{kEmpty}, lookup).ok();
  ok &= t.Flush().ok();
  if (!ok) return {};
  return sink.data;
}

std::vector<std::uint64_t> PacketOffsets(const std::vector<std::uint8_t>& trace) {
  std::vector<std::uint64_t> offsets;
  std::uint64_t off = 0;
  while (off + header_offset::kPacketSize + 4 <= trace.size()) {
    std::uint64_t bits = 0;
    for (int i = 3; i >= 0; --i) bits = (bits << 8) | trace[off + header_offset::kPacketSize + i];
    if (bits / 8 == 0) break;
    offsets.push_back(off);
    off += bits / 8;
  }
  return offsets;
}

}  // namespace mpo::memtrace::view::testing
