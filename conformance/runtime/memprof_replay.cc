// Replays the allocation sequence that memprof_samples.ml profiled with the real
// Gc.Memprof of OCaml 5.3, on the project's simulated runtime and memprof engine at the
// same rate, and compares the samples: which allocation each falls on, its size, its
// n_samples and its source, in order.
//
//   memprof_replay OCAML_OUTPUT LAMBDA MINOR_HEAP_WORDS
//
// Prints "agree: ..." and exits 0 when every sample matches; otherwise prints the first
// difference and exits 1 (2 for unreadable or malformed input). OCaml seeds domain 0's
// PRNG with 0 and the engine does the same, so no seed is passed.
//
// The run must have had no minor collection but the explicit ones (its last line
// says): OCaml redraws the minor-heap trigger at each, and where one caused by a full
// heap falls depends on the runtime's own allocations around callbacks, which this
// replay does not model.
//
// The mapping of each kind of allocation to the runtime's entry points:
//   c  caml_alloc_small from C (Array.make), then caml_process_pending_actions
//   m  caml_alloc_shr (Array.make), then caml_process_pending_actions
//   o  one block allocated by OCaml code (callbacks run inside the allocation)
//   p  Some (x, x): one combined allocation, the option first in memory order
//   g  Gc.minor (): a minor collection, then caml_process_pending_actions
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/sim/sim_runtime.h"

namespace {

struct Alloc {
  char kind = 0;
  std::uint64_t size = 0;
};

struct Sample {
  long long index = 0;
  std::string heap;  // minor or major
  std::uint64_t size = 0;
  std::uint64_t n_samples = 0;
  std::string source;
  friend bool operator==(const Sample&, const Sample&) = default;
};

std::string Show(const Sample& s) {
  std::ostringstream o;
  o << "alloc " << s.index << " " << s.heap << " size " << s.size << " n_samples " << s.n_samples
    << " " << s.source;
  return o.str();
}

struct OcamlRun {
  std::vector<Alloc> allocs;
  std::vector<Sample> samples;
  bool saw_gc_line = false;
  long long minor_collections = -1;
  long long explicit_minor = -1;
  bool overflow = false;
};

// Reads memprof_samples.ml's output; false (with a message) on anything unexpected.
bool ReadRun(const char* path, OcamlRun& run) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "memprof_replay: cannot read %s\n", path);
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string tag;
    f >> tag;
    if (tag == "alloc") {
      long long index = 0;
      std::string kind;
      Alloc a;
      f >> index >> kind >> a.size;
      if (!f || kind.size() != 1 || index != static_cast<long long>(run.allocs.size())) {
        std::fprintf(stderr, "memprof_replay: bad line: %s\n", line.c_str());
        return false;
      }
      a.kind = kind[0];
      run.allocs.push_back(a);
    } else if (tag == "sample") {
      Sample s;
      f >> s.index >> s.heap >> s.size >> s.n_samples >> s.source;
      if (!f) {
        std::fprintf(stderr, "memprof_replay: bad line: %s\n", line.c_str());
        return false;
      }
      run.samples.push_back(s);
    } else if (tag == "gc") {
      run.saw_gc_line = std::sscanf(line.c_str(), "gc minor_collections=%lld explicit_minor=%lld",
                                    &run.minor_collections, &run.explicit_minor) == 2;
      run.overflow = line.find("overflow=true") != std::string::npos;
    }
  }
  if (!run.saw_gc_line) {
    std::fprintf(stderr, "memprof_replay: %s has no final gc line (truncated?)\n", path);
    return false;
  }
  // OCaml redraws its minor-heap trigger at each minor collection; one caused by a full
  // heap falls at a point that depends on its own allocations around the callbacks,
  // which are not replayed. Explicit ones (kind g) are replayed where they happened.
  if (run.minor_collections != run.explicit_minor || run.overflow) {
    std::fprintf(stderr,
                 "memprof_replay: %s: %lld minor collections (%lld explicit)%s while profiling; "
                 "a replay is exact only with explicit ones (give OCaml a larger minor heap)\n",
                 path, run.minor_collections, run.explicit_minor,
                 run.overflow ? " and a full sample table" : "");
    return false;
  }
  return true;
}

const char* SourceName(mpo::memprof::AllocationSource s) {
  switch (s) {
    case mpo::memprof::AllocationSource::kNormal: return "normal";
    case mpo::memprof::AllocationSource::kMarshal: return "marshal";
    case mpo::memprof::AllocationSource::kCustom: return "custom";
  }
  return "?";
}

// The samples the project's engine takes over the same sequence.
bool Replay(const OcamlRun& run, double lambda, std::uint64_t minor_heap_words,
            std::vector<Sample>& out) {
  mpo::sim::SimRuntime rt(mpo::sim::SimConfig{.minor_heap_words = minor_heap_words});
  long long current = -1;
  auto record = [&](const char* heap) {
    return [&out, &current, heap](const mpo::memprof::AllocationInfo& info) {
      out.push_back(Sample{current, heap, info.size, info.n_samples, SourceName(info.source)});
      return mpo::memprof::CallbackResult::Drop();
    };
  };
  mpo::memprof::Tracker tracker;
  tracker.alloc_minor = record("minor");
  tracker.alloc_major = record("major");
  auto profile = rt.memprof(0).Start(lambda, 0, std::move(tracker));
  if (!profile.ok()) {
    std::fprintf(stderr, "memprof_replay: Start: %s\n", profile.status().ToString().c_str());
    return false;
  }
  for (const Alloc& a : run.allocs) {
    ++current;
    mpo::sim::AllocOutcome r;
    switch (a.kind) {
      case 'c':
        r = rt.AllocSmallFromC(0, a.size);
        (void)rt.Poll(0);
        break;
      case 'm':
        r = rt.AllocMajor(0, a.size);
        (void)rt.Poll(0);
        break;
      case 'o': {
        const std::uint64_t sizes[] = {a.size};
        r = rt.AllocCaml(0, sizes);
        break;
      }
      case 'p': {
        const std::uint64_t sizes[] = {1, 2};
        r = rt.AllocCaml(0, sizes);
        break;
      }
      case 'g':
        rt.MinorGc();
        (void)rt.Poll(0);
        continue;
      default: std::fprintf(stderr, "memprof_replay: unknown kind %c\n", a.kind); return false;
    }
    if (!r.ok()) {
      std::fprintf(stderr, "memprof_replay: allocation %lld refused: %s\n", current,
                   r.status.ToString().c_str());
      return false;
    }
  }
  return true;
}

int Run(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: memprof_replay OCAML_OUTPUT LAMBDA MINOR_HEAP_WORDS\n");
    return 2;
  }
  OcamlRun run;
  if (!ReadRun(argv[1], run)) return 2;
  const double lambda = std::strtod(argv[2], nullptr);
  const unsigned long long heap = std::strtoull(argv[3], nullptr, 10);
  std::vector<Sample> mine;
  if (!Replay(run, lambda, heap, mine)) return 2;
  const std::size_t common = std::min(mine.size(), run.samples.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (!(mine[i] == run.samples[i])) {
      std::printf("differ: lambda %s, sample %zu of %zu: OCaml %s, oracle %s\n", argv[2], i,
                  run.samples.size(), Show(run.samples[i]).c_str(), Show(mine[i]).c_str());
      return 1;
    }
  }
  if (mine.size() != run.samples.size()) {
    std::printf("differ: lambda %s: OCaml took %zu samples, oracle %zu (first %zu agree)\n",
                argv[2], run.samples.size(), mine.size(), common);
    return 1;
  }
  std::uint64_t total = 0;
  for (const Sample& s : mine) total += s.n_samples;
  std::printf(
      "agree: lambda %s: %zu steps (%lld explicit minor collections), %zu sampled blocks, %llu "
      "samples\n",
      argv[2], run.allocs.size(), run.explicit_minor, mine.size(),
      static_cast<unsigned long long>(total));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Only std::bad_alloc can escape (the input is read into memory): a clear exit 2.
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memprof_replay: %s\n", e.what());
    return 2;
  }
}
