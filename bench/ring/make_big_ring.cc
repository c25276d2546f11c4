// Writes a large, valid runtime events file with the project's producer: the input of
// the `events chrome` memory benchmark and of its RSS test. Never committed.
// Usage: make_big_ring DIR PID DOMAINS LOG2_WORDS. Each domain's ring is written over
// twice (so readers also see lost events) with every event kind: phases, counters,
// allocs, lifecycle, and user unit/int/span/custom events (custom bytes not UTF-8).
// Prints the file's path.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/ring/producer.h"

namespace {

bool Fill(mpo::ring::RuntimeEvents& ev, std::uint32_t d, std::uint64_t words,
          const unsigned ids[4]) {
  std::array<std::uint64_t, mpo::ring::kAllocBuckets> buckets{};
  const std::byte custom[] = {std::byte{'x'}, std::byte{0xff}, std::byte{'"'}, std::byte{0}};
  // About 60 words per round; twice the ring.
  for (std::uint64_t i = 0; i < 2 * words / 60 + 1; ++i) {
    buckets[i % buckets.size()] = i;
    const unsigned phase = static_cast<unsigned>(i % 20);
    bool ok = ev.Begin(d, phase).ok() && ev.Counter(d, static_cast<unsigned>(i % 10), i).ok() &&
              ev.Alloc(d, buckets).ok() && ev.UserUnit(d, ids[0]).ok() &&
              ev.UserInt(d, ids[1], static_cast<std::int64_t>(i) - 5).ok() &&
              ev.UserSpan(d, ids[2], true).ok() && ev.UserCustom(d, ids[3], custom).ok() &&
              ev.UserSpan(d, ids[2], false).ok() && ev.End(d, phase).ok();
    if (!ok) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s DIR PID DOMAINS LOG2_WORDS\n", argv[0]);
    return 2;
  }
  mpo::ring::ProducerOptions o;
  o.dir = argv[1];
  o.pid = std::atoll(argv[2]);
  o.max_domains = std::strtoull(argv[3], nullptr, 10);
  o.ring_log2_words = static_cast<unsigned>(std::atoi(argv[4]));
  o.preserve = true;
  mpo::ring::RuntimeEvents ev(o);
  if (auto s = ev.Start(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  unsigned ids[4];
  const char* names[4] = {"bench.unit", "bench.int", "bench.span", "bench.custom"};
  for (int i = 0; i < 4; ++i) ids[i] = *ev.RegisterUserEvent(names[i]);
  const std::uint64_t words = std::uint64_t{1} << o.ring_log2_words;
  for (std::uint32_t d = 0; d < o.max_domains; ++d) {
    if (!Fill(ev, d, words, ids)) return 1;
  }
  const std::string path = ev.path();
  if (!ev.Stop().ok()) return 1;
  std::printf("%s\n", path.c_str());
  return 0;
}
