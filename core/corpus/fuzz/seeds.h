// The fuzzer's seeds: the corpus cases of one format (cases.h, built in memory) and the
// files of that format found in the given files or folders, in a fixed order (cases
// first, then paths sorted), so that a run seed names the same mutants every time.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/corpus/fuzz/mutate.h"

namespace mpo::corpus::fuzz {

// Seed files larger than this are skipped (a mutant costs a copy of its seed).
inline constexpr std::uint64_t kMaxSeedBytes = std::uint64_t{64} << 20;

// `scratch_dir`: an empty folder the ring cases may be written through. A reference mode
// keeps the seeds its reference reads: under kOcaml53 rings named for release 5.3, under
// kMemtrace023 traces whose first packet is v1 or v2. kIo for a path that cannot be read;
// kInvalidArgument when no seed is left.
Result<std::vector<SeedInput>> LoadSeeds(FuzzFormat format, Verdicts verdicts,
                                         const std::vector<std::string>& paths,
                                         const std::string& scratch_dir);

}  // namespace mpo::corpus::fuzz
