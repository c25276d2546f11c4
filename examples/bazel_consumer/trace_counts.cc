// Writes a tiny memtrace trace with memprof-oracle's writer, reads it back with its
// reader, and prints what it found. Usage: trace_counts [ALLOCS] (default 10).
#include <charconv>
#include <cstdio>
#include <cstring>

#include "tiny_trace.h"

int main(int argc, char** argv) {
  int allocs = 10;
  if (argc > 1) {
    const char* end = argv[1] + std::strlen(argv[1]);
    const auto [ptr, ec] = std::from_chars(argv[1], end, allocs);
    if (ec != std::errc() || ptr != end || allocs < 0 || allocs > 1'000'000) {
      std::fprintf(stderr, "usage: trace_counts [ALLOCS 0..1000000]\n");
      return 2;
    }
  }
  auto trace = consumer::WriteTinyTrace(allocs);
  if (!trace.ok()) {
    std::fprintf(stderr, "write: %s\n", trace.status().ToString().c_str());
    return 1;
  }
  auto counts = consumer::CountEvents(*trace);
  if (!counts.ok()) {
    std::fprintf(stderr, "read: %s\n", counts.status().ToString().c_str());
    return 1;
  }
  std::printf("%zu bytes: %llu allocs, %llu promotes, %llu collects, %llu samples\n", trace->size(),
              static_cast<unsigned long long>(counts->allocs),
              static_cast<unsigned long long>(counts->promotes),
              static_cast<unsigned long long>(counts->collects),
              static_cast<unsigned long long>(counts->samples));
  for (const auto& [site, samples] : counts->samples_by_site) {
    std::printf("  %llu samples at %s\n", static_cast<unsigned long long>(samples), site.c_str());
  }
  return 0;
}
