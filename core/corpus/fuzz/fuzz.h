// `corpus fuzz`: seeded differential fuzzing of another implementation's decoder against
// the oracle. Mutants of the format's seeds (mutate.h, seeds.h) are judged one by one
// (judge.h); the first mutant of each new undeclared divergence class is minimized
// (minimize.h, within max_minimize_tests runs and minimize_seconds) and saved in the output folder
// as a reproducer:
//   OUT/divergence-K<suffix>       the minimized input (e.g. divergence-1.ctf)
//   OUT/divergence-K.mutant<suffix> the mutant as generated
//   OUT/divergence-K.txt           signature, run seed, index, seed name, mutator chain,
//                                  both verdicts and the first difference
// Bounded by time and count; everything is a function of the options (the run seed
// included), so a run can be replayed. No global state; the temporary folder holding
// the current input is removed at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/corpus/fuzz/declared.h"
#include "core/corpus/fuzz/judge.h"
#include "core/corpus/fuzz/mutate.h"
#include "core/corpus/fuzz/seeds.h"

namespace mpo::corpus::fuzz {

struct FuzzOptions {
  ImplConfig impl;
  FuzzFormat format = FuzzFormat::kMemtrace;
  std::uint64_t seed = 0;
  double max_seconds = 60;
  std::uint64_t max_mutants = 1000;
  std::uint64_t first_index = 0;         // mutants first_index, first_index + 1, ... (replay one)
  std::vector<std::string> seed_paths;   // extra seed files or folders
  SeedSelection selection;               // which seeds (--only, --skip, --supports)
  std::string out_dir;                   // reproducers; "" saves none
  std::vector<DeclaredRule> declared;    // those tagged for other modes are ignored
  std::size_t max_minimize_tests = 400;  // per divergence class
  // Per divergence class too: minimizing is many runs of the implementation, and it is
  // what slowed fuzzing most (a class's reproducer is worth a second, not a minute).
  double minimize_seconds = 1;
  // Mutants judged at once, each worker with its own run of the implementation; the
  // summary is the same for every value (minimization's time budget aside).
  std::size_t jobs = 1;
};

struct DivergenceClass {
  std::string signature;
  bool declared = false;
  std::string why;  // the declared rule's reason
  std::uint64_t first_index = 0, count = 0;
  std::string chain;       // the first mutant's mutator chain
  std::string difference;  // on the minimized input
  std::string oracle, impl;
  std::string impl_stderr;  // the end of its stderr on the minimized input
  std::size_t mutant_bytes = 0, minimized_bytes = 0, minimize_tests = 0;
  // Bytes of the minimized input that differ from its seed (over their common length),
  // plus the difference in length: for a ring, whose size stays, the edit's whole extent.
  std::size_t changed_bytes = 0;
  std::string saved;  // the reproducer's path, or ""
};

struct FuzzSummary {
  std::size_t seeds = 0;
  std::size_t seeds_left_out = 0;  // by options.selection
  std::uint64_t mutants = 0, passed = 0, failed = 0, declared = 0;
  double seconds = 0;
  std::vector<DivergenceClass> classes;  // in the order found
};

struct FuzzCallbacks {
  std::function<void(const DivergenceClass&)> on_new_class;  // after it is minimized and saved
  std::function<void(const FuzzSummary&)> on_progress;       // after each mutant
};

// kInvalidArgument for options out of range (no {file} in the command, no seeds);
// kIo for a temporary or output file that cannot be written or a command that cannot
// be started. Divergences are in the summary, never errors.
Result<FuzzSummary> Fuzz(const FuzzOptions& options, const FuzzCallbacks& callbacks = {});

}  // namespace mpo::corpus::fuzz
