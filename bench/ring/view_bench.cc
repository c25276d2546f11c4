// Cost of the decoded views of a ring (core/ring/view) per event, beside an anchor
// measured in the same run: the same cursor poll with callbacks that do nothing. Each
// iteration reads a fixed file image of mixed events (phases, counters, allocs, user
// ints and custom events) from a fresh cursor. Report ratios to the anchor.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/text_sink.h"
#include "core/ring/cursor.h"
#include "core/ring/producer.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/json_view.h"

namespace mpo::ring {
namespace {

// The file image, written once by the producer; empty if that failed.
const std::vector<std::byte>& Image() {
  static const std::vector<std::byte> image = [] {
    ProducerOptions o;
    const char* t = std::getenv("TEST_TMPDIR");
    o.dir = t ? t : "/tmp";
    o.max_domains = 1;
    o.ring_log2_words = 16;
    o.preserve = true;
    o.pid = 930000;
    std::uint64_t now = 1000;
    o.clock = [&now] { return now += 7; };
    RuntimeEvents ev(o);
    std::vector<std::byte> bytes;
    if (!ev.Start().ok()) return bytes;
    auto id_int = ev.RegisterUserEvent("bench.int");
    auto id_custom = ev.RegisterUserEvent("bench.custom");
    if (!id_int.ok() || !id_custom.ok()) return bytes;
    std::array<std::uint64_t, kAllocBuckets> buckets{};
    const std::string payload = "a custom payload";
    // About 5,000 events, well within 2^16 words: nothing is overwritten.
    for (unsigned i = 0; i < 500; ++i) {
      (void)ev.Begin(0, 11);
      (void)ev.Counter(0, 4, i * 1000);
      (void)ev.Counter(0, 5, std::uint64_t{1} << 60);
      (void)ev.End(0, 11);
      (void)ev.Begin(0, 6);
      (void)ev.End(0, 6);
      buckets[i % kAllocBuckets] = i;
      (void)ev.Alloc(0, buckets);
      (void)ev.UserInt(0, *id_int, -static_cast<std::int64_t>(i));
      (void)ev.UserCustom(0, *id_custom, std::as_bytes(std::span(payload)));
      (void)ev.LifecycleEvent(0, Lifecycle::kDomainSpawn, i);
    }
    const std::string path = ev.path();
    (void)ev.Stop();
    std::ifstream in(path, std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    const auto* first = reinterpret_cast<const std::byte*>(raw.data());
    bytes.assign(first, first + raw.size());
    return bytes;
  }();
  return image;
}

struct CountingSink : TextSink {
  std::size_t bytes = 0;
  void Write(std::string_view s) override { bytes += s.size(); }
};

// Anchor: a fresh cursor over the image and one poll with callbacks that do nothing.
void BM_View_Anchor_NullCallbacks(benchmark::State& state) {
  if (Image().empty()) return state.SkipWithError("cannot write the ring image");
  EventCallbacks nothing;
  std::uint64_t events = 0;
  for (auto _ : state) {
    auto c = Cursor::FromBytes(Image());
    events += *c->ReadPoll(nothing);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}
BENCHMARK(BM_View_Anchor_NullCallbacks);

// The schema 2 JSON view (`events dump --json`, `corpus decode`).
void BM_View_JsonLines(benchmark::State& state) {
  if (Image().empty()) return state.SkipWithError("cannot write the ring image");
  // The record count, from one decode outside the timed loop: lines minus header and end.
  StringTextSink once;
  (void)view::WriteJsonView(Image(), OcamlVersion::k5_3, once);
  const auto records =
      static_cast<std::int64_t>(std::count(once.text.begin(), once.text.end(), '\n')) - 2;
  CountingSink sink;
  for (auto _ : state) {
    if (!view::WriteJsonView(Image(), OcamlVersion::k5_3, sink).ok()) {
      return state.SkipWithError("the image did not decode");
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * records);
  state.SetBytesProcessed(static_cast<std::int64_t>(sink.bytes));
}
BENCHMARK(BM_View_JsonLines);

// The golden text (`events dump`), from the same decoded events.
void BM_View_GoldenText(benchmark::State& state) {
  if (Image().empty()) return state.SkipWithError("cannot write the ring image");
  std::size_t bytes = 0;
  std::uint64_t events = 0;
  for (auto _ : state) {
    auto c = Cursor::FromBytes(Image());
    GoldenLineWriter w(OcamlVersion::k5_3);
    events += *c->ReadPoll(w);
    bytes += w.TakeText().size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_View_GoldenText);

}  // namespace
}  // namespace mpo::ring

BENCHMARK_MAIN();
