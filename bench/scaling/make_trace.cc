// Writes a large, realistic memtrace trace with the project's own writer, for the
// scaling table: RSS must stay flat while time grows with the trace.
// Usage: make_trace OUT BYTES SEED VERSION   (VERSION 2 or 3)
//
// Shape, chosen to look like a real program rather than a bomb:
// - a bounded set of location codes (kCodes), each with 1-3 frames, so what a reader
//   caches stops growing early and any growth left comes from the trace's length;
// - a bounded pool of kStacks backtraces, each one step of a random walk from the one
//   before (pop a few frames, push a few; depths 5-200, mostly shallow), and each
//   domain moving through the pool by small steps, so consecutive backtraces share long
//   prefixes as real ones do and the set of distinct stacks (what `folded` keeps) is
//   bounded like a real program's;
// - allocations (mostly short minor ones), promotions of recent objects, and collections
//   of objects from a bounded live set (so the live set, which `stats` tracks, stays
//   bounded too); v3 spreads events over four domains.
// Deterministic for a given seed. Stops at the first packet boundary past BYTES.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_writer.h"

namespace {

using mpo::memtrace::OcamlInt;
using namespace mpo::memtrace;

constexpr int kCodes = 4000;
constexpr std::size_t kMinDepth = 5;
constexpr std::size_t kMaxDepth = 200;
constexpr std::size_t kMaxLive = 20000;
constexpr std::size_t kStacks = 20000;

// Counts bytes so the generator knows when the target size is reached.
class CountingSink : public ByteSink {
 public:
  explicit CountingSink(ByteSink& inner) : inner_(inner) {}
  mpo::Status Write(std::span<const std::uint8_t> bytes) override {
    written += bytes.size();
    return inner_.Write(bytes);
  }
  std::uint64_t written = 0;

 private:
  ByteSink& inner_;
};

std::vector<std::vector<Location>> MakeLocations(std::mt19937_64& rng) {
  std::vector<std::vector<Location>> locs(kCodes);
  for (int c = 0; c < kCodes; ++c) {
    const int frames = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < frames; ++f) {
      const OcamlInt line = 1 + static_cast<OcamlInt>(rng() % 2000);
      const OcamlInt start = static_cast<OcamlInt>(rng() % 80);
      locs[c].push_back(Location{"src/module_" + std::to_string(c % 97) + ".ml", line, start,
                                 start + 1 + static_cast<OcamlInt>(rng() % 40),
                                 "Module_" + std::to_string(c % 97) + ".fn_" + std::to_string(c)});
    }
  }
  return locs;
}

// The random walk of the call stack: it drifts towards shallow stacks (pop 0-6, push 0-5)
// with a rare deep excursion (a recursion or a deep library call), so depths cover 5-200
// with most near the bottom, as in real programs. Codes are skewed towards small values,
// as a program's hot functions are few.
void StepStack(std::mt19937_64& rng, std::vector<OcamlInt>& stack) {
  const std::size_t pop = std::min<std::size_t>(stack.size(), rng() % 7);
  stack.resize(stack.size() - pop);
  std::size_t push = rng() % 300 == 0 ? 50 + rng() % 150 : rng() % 6;
  if (stack.size() + push < kMinDepth) push = kMinDepth - stack.size();
  if (stack.size() + push > kMaxDepth) push = kMaxDepth - stack.size();
  for (std::size_t i = 0; i < push; ++i) {
    const std::uint64_t r = rng();
    const OcamlInt code = static_cast<OcamlInt>((r % kCodes) * ((r >> 32) % kCodes) / kCodes);
    stack.push_back(1 + code);
  }
}

int Fail(const char* what, const mpo::Status& st) {
  std::fprintf(stderr, "make_trace: %s: %s\n", what, st.ToString().c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: make_trace OUT BYTES SEED VERSION\n");
    return 2;
  }
  const std::string out = argv[1];
  const std::uint64_t target = std::strtoull(argv[2], nullptr, 10);
  std::mt19937_64 rng(std::strtoull(argv[3], nullptr, 10));
  const int version = std::atoi(argv[4]);
  if (version != 2 && version != 3) {
    std::fprintf(stderr, "make_trace: VERSION must be 2 or 3\n");
    return 2;
  }
  auto file = OpenFileSink(out);
  if (!file.ok()) return Fail("open", file.status());
  CountingSink sink(**file);
  Info info;
  info.sample_rate = 1e-4;
  info.executable_name = "scaling_workload";
  info.host_name = "bench";
  info.pid = 4242;
  info.start_time = 1'700'000'000'000'000;
  info.context = "bench/scaling";
  WriterOptions opts;
  opts.format_version = version;
  auto writer = TraceWriter::Create(sink, info, opts);
  if (!writer.ok()) return Fail("create", writer.status());
  TraceWriter& w = **writer;

  const auto locs = MakeLocations(rng);
  const LocationLookup lookup = [&locs](OcamlInt code) -> const std::vector<Location>* {
    if (code < 1 || code > kCodes) return nullptr;
    return &locs[static_cast<std::size_t>(code - 1)];
  };
  const int domains = version == 3 ? 4 : 1;
  std::vector<std::vector<OcamlInt>> pool(kStacks);
  for (std::size_t i = 1; i < kStacks; ++i) {
    pool[i] = pool[i - 1];
    StepStack(rng, pool[i]);
  }
  pool[0] = pool[kStacks - 1];
  std::vector<std::size_t> at(domains, 0);
  // Young objects (may be promoted or collected) and promoted ones (collected later).
  std::vector<std::deque<OcamlInt>> live(domains);
  std::vector<std::deque<OcamlInt>> old(domains);
  std::int64_t time = info.start_time;
  std::uint64_t events = 0;
  while (sink.written < target) {
    time += static_cast<std::int64_t>(rng() % 3);
    // Domains switch in runs, as threads do, so packets are not one event long.
    const std::uint16_t d = static_cast<std::uint16_t>((events / 500) % domains);
    const std::uint64_t r = rng() % 100;
    mpo::Status st = mpo::Status::Ok();
    if (r < 60 || live[d].empty()) {
      at[d] = (at[d] + kStacks - 8 + rng() % 17) % kStacks;
      const bool big = rng() % 10 == 0;
      const OcamlInt length =
          big ? 17 + static_cast<OcamlInt>(rng() % 5000) : 1 + static_cast<OcamlInt>(rng() % 16);
      const AllocationSource src = big ? AllocationSource::kMajor : AllocationSource::kMinor;
      auto id = w.PutAlloc(d, time, length, 1, src, pool[at[d]], lookup);
      if (!id.ok()) return Fail("alloc", id.status());
      live[d].push_back(*id);
      if (live[d].size() > kMaxLive) {
        st = w.PutCollect(d, time, live[d].front());
        live[d].pop_front();
        ++events;
      }
    } else if (r < 75) {
      st = w.PutPromote(d, time, live[d].back());
      old[d].push_back(live[d].back());
      live[d].pop_back();
    } else if ((r < 80 || old[d].size() > kMaxLive) && !old[d].empty()) {
      st = w.PutCollect(d, time, old[d].front());
      old[d].pop_front();
    } else {
      const std::size_t i = rng() % live[d].size();
      st = w.PutCollect(d, time, live[d][i]);
      live[d][i] = live[d].back();
      live[d].pop_back();
    }
    if (!st.ok()) return Fail("event", st);
    ++events;
  }
  if (auto st = w.Flush(); !st.ok()) return Fail("flush", st);
  std::printf("%s %llu bytes %llu events\n", out.c_str(),
              static_cast<unsigned long long>(sink.written),
              static_cast<unsigned long long>(events));
  return 0;
}
