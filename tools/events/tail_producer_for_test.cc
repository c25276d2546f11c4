// Test helper for `events record` and `events tail --follow`: a producer that, like an
// OCaml 5 program, takes its ring settings from the environment
// (OCAML_RUNTIME_EVENTS_START, _DIR, _PRESERVE; ProducerOptions::FromEnvironment).
//
// Usage: tail_producer_for_test COUNT SLEEP_MS EXIT_CODE [RING_LOG2_WORDS]
// (without RING_LOG2_WORDS: OCAMLRUNPARAM's e=N, as OCaml, else 10)
// Writes COUNT counter events (minor_promoted = 0 .. COUNT-1) SLEEP_MS apart, stops
// the ring (the file stays only with _PRESERVE) and exits EXIT_CODE. Without
// OCAML_RUNTIME_EVENTS_START it writes nothing, as OCaml would. A small ring (4 = 16
// words) with a large COUNT makes the producer overwrite events nobody read.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/ring/producer.h"

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s COUNT SLEEP_MS EXIT_CODE [RING_LOG2_WORDS]\n", argv[0]);
    return 2;
  }
  const long count = std::atol(argv[1]);
  const long sleep_ms = std::atol(argv[2]);
  const int exit_code = std::atoi(argv[3]);
  bool start = false;
  mpo::ring::ProducerOptions o = mpo::ring::ProducerOptions::FromEnvironment(&start);
  if (!start) return exit_code;
  o.max_domains = 2;
  // RING_LOG2_WORDS, else OCAMLRUNPARAM's e=N as OCaml reads it, else 10.
  if (argc == 5) {
    o.ring_log2_words = static_cast<unsigned>(std::atoi(argv[4]));
  } else if (!std::getenv("OCAMLRUNPARAM") && !std::getenv("CAMLRUNPARAM")) {
    o.ring_log2_words = 10;
  }
  mpo::ring::RuntimeEvents ev(o);
  if (!ev.Start().ok()) return 100;
  for (long i = 0; i < count; ++i) {
    if (!ev.Counter(1, 4, static_cast<std::uint64_t>(i)).ok()) return 101;
    if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
  return ev.Stop().ok() ? exit_code : 102;
}
