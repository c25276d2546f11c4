// Encoding throughput of the memtrace writer, part by part, beside a checksum anchor over
// the same bytes in the same run (issue 14: encoding in-process >= 0.5x the anchor):
//   - BM_EncodeAnchor_Checksum: a serial checksum over the trace's bytes.
//   - BM_EncodeBacktraces: the backtrace codec alone (BacktraceWriter::PutUnchecked) over
//     every allocation's backtrace, common prefixes computed beforehand.
//   - BM_CopyInMemory: decode and re-encode the whole trace in memory (CopyTrace, what
//     `memtrace copy` does without the file system).
//
//   bazel run -c opt //bench/memtrace:encode_bench
// Traces come from $MPO_SHARED_TESTDATA/memtrace (else ../shared/testdata beside the
// workspace); a missing trace skips its cases with a message.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace {
namespace {

const char* const kTraces[] = {"lists_maps.ocaml4.13.native.r1e-3.ctf", "test-ocamlopt.v0.2.3.ctf",
                               "examples-ocamlopt.v0.2.3.ctf"};

std::string SharedDir() {
  if (const char* e = std::getenv("MPO_SHARED_TESTDATA")) return e;
  if (const char* w = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    return (std::filesystem::path(w).parent_path() / "shared" / "testdata").string();
  return "../shared/testdata";
}

const std::vector<std::uint8_t>& Trace(int i) {
  static std::map<int, std::vector<std::uint8_t>> cache;
  auto it = cache.find(i);
  if (it != cache.end()) return it->second;
  std::ifstream f(SharedDir() + "/memtrace/" + kTraces[i], std::ios::binary);
  return cache[i] = std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void BM_EncodeAnchor_Checksum(benchmark::State& state) {
  const auto& b = Trace(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::uint8_t c : b) sum = sum * 31 + c;
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.SetLabel(kTraces[state.range(0)]);
}

// Every allocation's backtrace and its common prefix with the previous one (one stream:
// the traces above have one domain).
struct Backtraces {
  std::vector<std::vector<OcamlInt>> bts;
  std::vector<std::size_t> common;
};

Backtraces DecodeBacktraces(const std::vector<std::uint8_t>& b) {
  Backtraces out;
  auto r = TraceReader::Open(MemorySource(b));
  if (!r.ok()) return out;
  std::vector<OcamlInt> prev;
  while (const Event* ev = (*r)->NextEvent()) {
    if (ev->kind != EventKind::kAlloc) continue;
    std::size_t c = 0;
    while (c < prev.size() && c < ev->backtrace.size() && prev[c] == ev->backtrace[c]) ++c;
    prev.assign(ev->backtrace.begin(), ev->backtrace.end());
    out.bts.push_back(prev);
    out.common.push_back(c);
  }
  return out;
}

void BM_EncodeBacktraces(benchmark::State& state) {
  const auto& b = Trace(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  const Backtraces d = DecodeBacktraces(b);
  std::vector<std::uint8_t> out(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::int64_t bytes = 0;
  std::int64_t frames = 0;
  for (auto _ : state) {
    BacktraceWriter w;
    for (std::size_t i = 0; i < d.bts.size(); ++i) {
      misses.clear();
      std::uint32_t n = 0;
      const std::uint8_t* end =
          w.PutUnchecked(out.data(), static_cast<OcamlInt>(i), d.bts[i], d.common[i], &n, &misses);
      bytes += end - out.data();
      frames += static_cast<std::int64_t>(d.bts[i].size() - d.common[i]);
      benchmark::DoNotOptimize(n);
    }
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(frames);
  state.SetLabel(kTraces[state.range(0)]);
}

void BM_CopyInMemory(benchmark::State& state) {
  const auto& b = Trace(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  VectorSink sink;
  std::uint64_t events = 0;
  for (auto _ : state) {
    sink.data.clear();
    auto in = MemorySource(b);
    CopyStats stats;
    Status s = CopyTrace(*in, sink, 2, &stats);
    if (!s.ok()) return state.SkipWithError(s.ToString().c_str());
    events += stats.events;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.SetLabel(kTraces[state.range(0)]);
}

BENCHMARK(BM_EncodeAnchor_Checksum)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeBacktraces)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyInMemory)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpo::memtrace

BENCHMARK_MAIN();
