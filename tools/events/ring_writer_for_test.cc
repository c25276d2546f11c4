// Test helper for `events tail`: a process that writes a ring slowly, then exits.
// Usage: ring_writer_for_test DIR COUNT SLEEP_MS [GO_FILE]. Writes COUNT counter events
// (minor_promoted = 0 .. COUNT-1), SLEEP_MS apart, stops the ring (ring_stop; the file
// is removed) and exits 0. With GO_FILE, the ring is created first and the events wait
// until GO_FILE exists (at most 120 s): a test starts its reader in between, however
// slowly a loaded machine starts it.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/ring/producer.h"

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s DIR COUNT SLEEP_MS [GO_FILE]\n", argv[0]);
    return 2;
  }
  mpo::ring::ProducerOptions o;
  o.dir = argv[1];
  o.max_domains = 2;
  o.ring_log2_words = 10;
  mpo::ring::RuntimeEvents ev(o);
  if (!ev.Start().ok()) return 1;
  if (argc == 5) {
    struct stat st {};
    for (int i = 0; i < 12000 && ::stat(argv[4], &st) != 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const long count = std::atol(argv[2]);
  const long sleep_ms = std::atol(argv[3]);
  for (long i = 0; i < count; ++i) {
    if (!ev.Counter(1, 4, static_cast<std::uint64_t>(i)).ok()) return 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
  return ev.Stop().ok() ? 0 : 1;
}
