#include "tiny_trace.h"

#include <array>
#include <utility>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace consumer {
namespace {

using mpo::memtrace::Location;
using mpo::memtrace::OcamlInt;

// Location codes are the program's return addresses in a real trace; any distinct
// numbers do here. The writer asks for a code's frames the first time it is used.
constexpr OcamlInt kMain = 0x1000;
constexpr OcamlInt kMakeList = 0x2000;
constexpr OcamlInt kMakeTree = 0x3000;

const std::map<OcamlInt, std::vector<Location>>& Frames() {
  static const std::map<OcamlInt, std::vector<Location>> frames{
      {kMain, {{"main.ml", 10, 2, 30, "Main.run"}}},
      {kMakeList, {{"lists.ml", 4, 8, 21, "Lists.make"}}},
      {kMakeTree, {{"trees.ml", 17, 4, 40, "Trees.make"}}},
  };
  return frames;
}

}  // namespace

mpo::Result<std::vector<std::uint8_t>> WriteTinyTrace(int allocs) {
  if (allocs < 0) return mpo::Status(mpo::ErrorCode::kInvalidArgument, "negative allocation count");
  mpo::memtrace::Info info;
  info.sample_rate = 1e-4;
  info.executable_name = "tiny";
  info.host_name = "example";
  info.pid = 1;
  info.start_time = 1'700'000'000'000'000;
  mpo::memtrace::VectorSink sink;
  auto writer = mpo::memtrace::TraceWriter::Create(sink, info);
  if (!writer.ok()) return writer.status();
  const mpo::memtrace::LocationLookup lookup = [](OcamlInt code) {
    const auto it = Frames().find(code);
    return it == Frames().end() ? nullptr : &it->second;
  };
  std::int64_t now = info.start_time;
  std::vector<OcamlInt> ids;
  for (int i = 0; i < allocs; ++i) {
    const std::array<OcamlInt, 2> backtrace = {kMain, i % 2 == 0 ? kMakeList : kMakeTree};
    auto id = (*writer)->PutAlloc(0, ++now, /*length=*/3 + i % 5, /*nsamples=*/i % 3 + 1,
                                  mpo::memtrace::AllocationSource::kMinor, backtrace, lookup);
    if (!id.ok()) return id.status();
    ids.push_back(*id);
    if (i % 2 == 1) MPO_RETURN_IF_ERROR((*writer)->PutPromote(0, ++now, *id));
  }
  for (const OcamlInt id : ids) MPO_RETURN_IF_ERROR((*writer)->PutCollect(0, ++now, id));
  MPO_RETURN_IF_ERROR((*writer)->Flush());
  return std::move(sink.data);
}

mpo::Result<TraceCounts> CountEvents(std::span<const std::uint8_t> trace) {
  auto reader = mpo::memtrace::TraceReader::Open(mpo::memtrace::MemorySource(trace));
  if (!reader.ok()) return reader.status();
  TraceCounts counts;
  while (true) {
    auto next = (*reader)->Next();
    if (!next.ok()) return next.status();
    const mpo::memtrace::Event* event = *next;
    if (event == nullptr) return counts;
    switch (event->kind) {
      case mpo::memtrace::EventKind::kAlloc: {
        ++counts.allocs;
        counts.samples += static_cast<std::uint64_t>(event->nsamples);
        std::string site = "<no backtrace>";
        if (!event->backtrace.empty()) {
          const auto* frames = (*reader)->LookupLocation(event->backtrace.back());
          if (frames != nullptr && !frames->empty()) {
            site = mpo::memtrace::LocationToString(frames->back());
          }
        }
        counts.samples_by_site[site] += static_cast<std::uint64_t>(event->nsamples);
        break;
      }
      case mpo::memtrace::EventKind::kPromote: ++counts.promotes; break;
      case mpo::memtrace::EventKind::kCollect: ++counts.collects; break;
    }
  }
}

}  // namespace consumer
