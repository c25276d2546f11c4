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

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {
namespace {

const char* const kTraces[] = {"lists_maps.ocaml4.13.native.r1e-3.ctf", "test-ocamlopt.v0.2.3.ctf",
                               "examples-ocamlopt.v0.2.3.ctf"};
// Case 3 is any trace named by $MPO_ENCODE_BENCH_TRACE (bench/peers/run.sh writes shallow
// ones such as hashtbl_strings at 1e-2); without it the case is skipped.
constexpr int kLastCase = 3;

std::string SharedDir() {
  if (const char* e = std::getenv("MPO_SHARED_TESTDATA")) return e;
  if (const char* w = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    return (std::filesystem::path(w).parent_path() / "shared" / "testdata").string();
  return "../shared/testdata";
}

std::string TracePath(int i) {
  if (i < 3) return SharedDir() + "/memtrace/" + kTraces[i];
  const char* extra = std::getenv("MPO_ENCODE_BENCH_TRACE");
  return extra != nullptr ? extra : "";
}

std::string TraceName(int i) { return std::filesystem::path(TracePath(i)).filename().string(); }

const std::vector<std::uint8_t>& Trace(int i) {
  static std::map<int, std::vector<std::uint8_t>> cache;
  auto it = cache.find(i);
  if (it != cache.end()) return it->second;
  const std::string path = TracePath(i);
  if (path.empty()) return cache[i];
  std::ifstream f(path, std::ios::binary);
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
  state.SetLabel(TraceName(static_cast<int>(state.range(0))));
}

// Every event of a trace as the writer takes it, held compactly: 48 bytes an event (an
// Event is 80), and an alloc keeps only the entries after its common prefix with the
// previous alloc of its domain (what a reader hands over). Replaying still streams more
// memory than the trace's bytes, which a writer fed by a reader or a tracer never does.
struct Recorded {
  struct Rec {
    std::int64_t time = 0;
    OcamlInt obj_id = 0;
    OcamlInt length = 0;
    OcamlInt nsamples = 0;
    std::uint32_t common = 0;
    std::uint32_t suffix_begin = 0;
    std::uint32_t suffix_len = 0;
    std::uint8_t slot = 0;  // the domain's index in order of appearance: domain_ids[slot]
    EventKind kind = EventKind::kAlloc;
    AllocationSource source = AllocationSource::kMinor;
  };
  std::unique_ptr<TraceReader> reader;  // owns the locations the lookup returns
  std::vector<Rec> events;
  std::vector<OcamlInt> suffixes;
  std::vector<std::uint16_t> domain_ids;
  std::size_t deepest = 0;

  // The event `rec` stands for, its backtrace rebuilt in `bts[rec.slot]` (each as deep
  // as `deepest`): the common prefix stays, the suffix is copied after it.
  Event Replay(const Rec& rec, std::vector<std::vector<OcamlInt>>& bts) const {
    Event ev;
    ev.kind = rec.kind;
    ev.time = rec.time;
    ev.obj_id = rec.obj_id;
    ev.domain = domain_ids[rec.slot];
    if (rec.kind == EventKind::kAlloc) {
      ev.length = rec.length;
      ev.nsamples = rec.nsamples;
      ev.source = rec.source;
      ev.common_prefix = rec.common;
      OcamlInt* const bt = bts[rec.slot].data();
      std::copy_n(suffixes.data() + rec.suffix_begin, rec.suffix_len, bt + rec.common);
      ev.backtrace = {bt, rec.common + rec.suffix_len};
    }
    return ev;
  }
  std::vector<std::vector<OcamlInt>> Buffers() const {
    return std::vector<std::vector<OcamlInt>>(domain_ids.size(), std::vector<OcamlInt>(deepest));
  }
};

Recorded Record(const std::vector<std::uint8_t>& b) {
  Recorded out;
  auto r = TraceReader::Open(MemorySource(b));
  if (!r.ok()) return out;
  std::map<std::uint16_t, std::pair<std::uint8_t, std::vector<OcamlInt>>> prev;
  while (const Event* ev = (*r)->NextEvent()) {
    auto it = prev.find(ev->domain);
    if (it == prev.end()) {
      if (prev.size() > 255) return Recorded{};
      out.domain_ids.push_back(ev->domain);
      it = prev.emplace(ev->domain,
                        std::pair{static_cast<std::uint8_t>(prev.size()), std::vector<OcamlInt>{}})
               .first;
    }
    Recorded::Rec rec;
    rec.kind = ev->kind;
    rec.time = ev->time;
    rec.obj_id = ev->obj_id;
    rec.slot = it->second.first;
    if (ev->kind == EventKind::kAlloc) {
      rec.length = ev->length;
      rec.nsamples = ev->nsamples;
      rec.source = ev->source;
      std::vector<OcamlInt>& last = it->second.second;
      std::size_t c = 0;
      while (c < last.size() && c < ev->backtrace.size() && last[c] == ev->backtrace[c]) ++c;
      rec.common = static_cast<std::uint32_t>(c);
      rec.suffix_begin = static_cast<std::uint32_t>(out.suffixes.size());
      rec.suffix_len = static_cast<std::uint32_t>(ev->backtrace.size() - c);
      out.suffixes.insert(out.suffixes.end(),
                          ev->backtrace.begin() + static_cast<std::ptrdiff_t>(c),
                          ev->backtrace.end());
      last.assign(ev->backtrace.begin(), ev->backtrace.end());
      out.deepest = std::max(out.deepest, last.size());
    }
    out.events.push_back(rec);
  }
  if (!(*r)->status().ok()) return Recorded{};
  out.reader = std::move(*r);
  return out;
}
static_assert(sizeof(Recorded::Rec) == 48);

void BM_EncodeBacktraces(benchmark::State& state) {
  const auto& b = Trace(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  const Recorded d = Record(b);
  if (d.reader == nullptr) return state.SkipWithError("trace does not decode");
  std::vector<std::uint8_t> out(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::vector<std::vector<OcamlInt>> bts = d.Buffers();
  std::int64_t bytes = 0;
  std::int64_t frames = 0;
  for (auto _ : state) {
    std::vector<BacktraceWriter> writers(d.domain_ids.size());
    OcamlInt id = 0;
    for (const Recorded::Rec& rec : d.events) {
      if (rec.kind != EventKind::kAlloc) continue;
      const Event ev = d.Replay(rec, bts);
      misses.clear();
      std::uint32_t n = 0;
      const std::uint8_t* end =
          writers[rec.slot].PutUnchecked(out.data(), id++, ev.backtrace, rec.common, &n, &misses);
      bytes += end - out.data();
      frames += rec.suffix_len;
      benchmark::DoNotOptimize(n);
    }
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(frames);
  state.SetLabel(TraceName(static_cast<int>(state.range(0))));
}

// The whole writer: every event of the trace written again (format v2 for one domain, v3
// for several), with the options `memtrace copy` uses; bytes are the output's.
void BM_EncodeTrace(benchmark::State& state) {
  const auto& b = Trace(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  const Recorded d = Record(b);
  if (d.reader == nullptr) return state.SkipWithError("trace does not decode");
  const TraceReader& r = *d.reader;
  const LocationLookup lookup = [&r](OcamlInt code) { return r.LookupLocation(code); };
  WriterOptions opts;
  opts.format_version = r.version() >= 3 ? 3 : 2;
  opts.adopt_object_ids = true;
  opts.trust_common_prefix = true;
  VectorSink sink;
  sink.data.reserve(2 * b.size() + 65536);
  std::vector<std::vector<OcamlInt>> bts = d.Buffers();
  std::int64_t bytes = 0;
  for (auto _ : state) {
    sink.data.clear();
    auto w = TraceWriter::Create(sink, r.info(), opts);
    if (!w.ok()) return state.SkipWithError(w.status().ToString().c_str());
    for (const Recorded::Rec& rec : d.events) {
      Status s = (*w)->PutEvent(d.Replay(rec, bts), lookup);
      if (!s.ok()) return state.SkipWithError(s.ToString().c_str());
    }
    Status s = (*w)->Flush();
    if (!s.ok()) return state.SkipWithError(s.ToString().c_str());
    bytes += static_cast<std::int64_t>(sink.data.size());
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.events.size()));
  state.SetLabel(TraceName(static_cast<int>(state.range(0))));
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
  state.SetLabel(TraceName(static_cast<int>(state.range(0))));
}

BENCHMARK(BM_EncodeAnchor_Checksum)->DenseRange(0, kLastCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeTrace)->DenseRange(0, kLastCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeBacktraces)->DenseRange(0, kLastCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyInMemory)->DenseRange(0, kLastCase)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpo::memtrace

BENCHMARK_MAIN();
