// Decode and encode throughput of the memtrace codec (events/s and MB/s), with and
// without backtraces, and the decoded view over the same decode (its records with the
// undefined-code policy; its schema 2 JSON into a counting sink), on lists_maps (OCaml 4.13),
// memtrace's test-ocamlopt trace and a large synthetic trace. Anchor: a checksum pass over the same
// bytes in the same run (memory bandwidth for this machine), so results can be read as ratios.
//
//   bazel run -c opt //bench/memtrace:memtrace_bench
// Shared traces are looked up in $MPO_SHARED_TESTDATA, else ../shared/testdata beside the
// workspace; benchmarks whose trace is missing are skipped with a message.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace {
namespace {

std::string SharedDir() {
  if (const char* e = std::getenv("MPO_SHARED_TESTDATA")) return e;
  if (const char* w = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    return (std::filesystem::path(w).parent_path() / "shared" / "testdata").string();
  return "../shared/testdata";
}

std::vector<std::uint8_t> ReadFile(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// A synthetic v3 trace: 400k allocations with drifting stacks, promotions, collections.
std::vector<std::uint8_t> MakeSynthetic() {
  Info info;
  info.sample_rate = 1e-4;
  info.executable_name = "synthetic";
  info.pid = 1;
  info.start_time = 1700000000000000;
  VectorSink sink;
  auto w = TraceWriter::Create(sink, info);
  std::map<OcamlInt, std::vector<Location>> frames;
  LocationLookup lookup = [&](OcamlInt c) {
    auto& f = frames[c];
    if (f.empty())
      f = {{"file" + std::to_string(c % 97) + ".ml", c % 5000, 3, 40,
            "Mod.f" + std::to_string(c % 611)}};
    return &f;
  };
  std::uint64_t x = 88172645463325252ull;
  auto rnd = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<OcamlInt> bt;
  std::int64_t t = info.start_time;
  for (int i = 0; i < 400000; ++i) {
    t += static_cast<std::int64_t>(rnd() % 20);
    bt.resize(bt.empty() ? 0 : rnd() % (bt.size() + 1));
    const int add = static_cast<int>(rnd() % 8) + (bt.size() < 10 ? 10 : 0);
    for (int k = 0; k < add && bt.size() < 60; ++k)
      bt.push_back(0x400000 + 16 * static_cast<OcamlInt>(rnd() % 3000));
    const OcamlInt len = static_cast<OcamlInt>(rnd() % 10 == 0 ? rnd() % 5000 : 1 + rnd() % 16);
    auto id = (*w)->PutAlloc(0, t, len, 1 + (len > 16 ? static_cast<OcamlInt>(rnd() % 3) : 0),
                             len > 1000 ? AllocationSource::kMajor : AllocationSource::kMinor, bt,
                             lookup);
    if (i % 3 == 0) (void)(*w)->PutPromote(0, t, *id);
    if (i % 2 == 0)
      (void)(*w)->PutCollect(
          0, t,
          *id -
              static_cast<OcamlInt>(rnd() % 50 < static_cast<std::uint64_t>(*id) ? rnd() % 50 : 0));
  }
  (void)(*w)->Flush();
  return sink.data;
}

const std::vector<std::uint8_t>& Trace(const std::string& name) {
  static std::map<std::string, std::vector<std::uint8_t>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  std::vector<std::uint8_t> b =
      name == "synthetic" ? MakeSynthetic() : ReadFile(SharedDir() + "/memtrace/" + name);
  return cache[name] = std::move(b);
}

const char* const kTraces[] = {"lists_maps.ocaml4.13.native.r1e-3.ctf", "test-ocamlopt.v0.2.3.ctf",
                               "synthetic"};

void BM_Anchor_Checksum(benchmark::State& state) {
  const auto& b = Trace(kTraces[state.range(0)]);
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::uint8_t c : b) sum = sum * 31 + c;
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.SetLabel(kTraces[state.range(0)]);
}

void Decode(benchmark::State& state, bool parse) {
  const auto& b = Trace(kTraces[state.range(0)]);
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  std::int64_t events = 0;
  ReaderOptions o;
  o.parse_backtraces = parse;
  for (auto _ : state) {
    auto r = TraceReader::Open(MemorySource(b), o);
    if (!r.ok()) return state.SkipWithError(r.status().ToString().c_str());
    TraceReader& reader = **r;
    while (const Event* ev = reader.NextEvent()) {
      benchmark::DoNotOptimize(ev->backtrace.size());
      ++events;
    }
    if (!reader.status().ok()) return state.SkipWithError(reader.status().ToString().c_str());
  }
  state.SetItemsProcessed(events);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.SetLabel(kTraces[state.range(0)]);
}
void BM_Decode(benchmark::State& state) { Decode(state, true); }
void BM_DecodeNoBacktraces(benchmark::State& state) { Decode(state, false); }

// The decoded view's records (what stats, diff, folded and check read).
void BM_ViewRecords(benchmark::State& state) {
  const auto& b = Trace(kTraces[state.range(0)]);
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  std::int64_t records = 0;
  for (auto _ : state) {
    auto v = view::TraceView::Open(MemorySource(b));
    if (!v.ok()) return state.SkipWithError(v.status().ToString().c_str());
    while (const view::Record* r = (*v)->Next()) {
      benchmark::DoNotOptimize(r->kind);
      ++records;
    }
    if (!(*v)->status().ok()) return state.SkipWithError((*v)->status().ToString().c_str());
  }
  state.SetItemsProcessed(records);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.SetLabel(kTraces[state.range(0)]);
}

// `memtrace dump --json` without the terminal: the schema 2 text, counted and dropped.
void BM_JsonView(benchmark::State& state) {
  class Counting : public TextSink {
   public:
    void Write(std::string_view s) override { bytes += s.size(); }
    std::uint64_t bytes = 0;
  };
  const auto& b = Trace(kTraces[state.range(0)]);
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  Counting out;
  for (auto _ : state) {
    Status s = view::WriteJsonView(*MemorySource(b), out);
    if (!s.ok()) return state.SkipWithError(s.ToString().c_str());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  state.counters["json_bytes"] =
      benchmark::Counter(static_cast<double>(out.bytes) / static_cast<double>(state.iterations()));
  state.SetLabel(kTraces[state.range(0)]);
}

struct Decoded {
  Info info;
  int version = 3;
  std::vector<Event> events;
  std::vector<std::vector<OcamlInt>> bts;
  std::unordered_map<OcamlInt, std::vector<Location>> locs;
};

void BM_Encode(benchmark::State& state) {
  const auto& b = Trace(kTraces[state.range(0)]);
  if (b.empty()) return state.SkipWithError("trace not found (set MPO_SHARED_TESTDATA)");
  Decoded d;
  {
    auto r = TraceReader::Open(MemorySource(b));
    d.info = (*r)->info();
    d.version = std::max(2, (*r)->version());
    while (true) {
      auto ev = (*r)->Next();
      if (!ev.ok() || *ev == nullptr) break;
      d.events.push_back(**ev);
      d.bts.emplace_back((*ev)->backtrace.begin(), (*ev)->backtrace.end());
    }
    for (OcamlInt code : (*r)->LocationCodes()) d.locs[code] = *(*r)->LookupLocation(code);
    for (std::size_t i = 0; i < d.events.size(); ++i) d.events[i].backtrace = d.bts[i];
  }
  LocationLookup lookup = [&](OcamlInt c) {
    auto it = d.locs.find(c);
    return it == d.locs.end() ? nullptr : &it->second;
  };
  VectorSink sink;
  std::size_t out_size = 0;
  for (auto _ : state) {
    sink.data.clear();
    WriterOptions o;
    o.format_version = d.version;
    o.adopt_object_ids = true;
    auto w = TraceWriter::Create(sink, d.info, o);
    for (const Event& e : d.events)
      if (!(*w)->PutEvent(e, lookup).ok()) return state.SkipWithError("encode failed");
    (void)(*w)->Flush();
    out_size = sink.data.size();
  }
  if (out_size != b.size())
    state.SetLabel("(re-encoding differs in size)");
  else
    state.SetLabel(kTraces[state.range(0)]);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.events.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out_size));
}

BENCHMARK(BM_Anchor_Checksum)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Decode)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeNoBacktraces)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Encode)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ViewRecords)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JsonView)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpo::memtrace

BENCHMARK_MAIN();
