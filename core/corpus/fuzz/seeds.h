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

// Which seeds to fuzz, as `corpus check` selects cases (tags.h): `only`/`skip` patterns
// (a substring of "memtrace/CASE", "ring/CASE" or a file's path, or tag:NAME) and the
// `supports` items the implementation reads, so that mutants of inputs it does not read
// do not count for it. A seed's tags are a case's, or for a file those its name gives
// plus, for a trace, the version of its first packet; accepted/rejected is the oracle's
// strict verdict, decoded only when a pattern is given.
struct SeedSelection {
  std::vector<std::string> only, skip, supports;
  bool empty() const { return only.empty() && skip.empty() && supports.empty(); }
};

struct SeedSet {
  std::vector<SeedInput> seeds;
  std::size_t left_out = 0;  // by the selection
};

// `scratch_dir`: an empty folder the ring cases may be written through. A reference mode
// keeps the seeds its reference reads: under kOcaml53 rings named for release 5.3, under
// kMemtrace023 traces whose first packet is v1 or v2. kIo for a path that cannot be read;
// kInvalidArgument for a tag:NAME no seed has, a bad --supports item, or no seed left.
Result<SeedSet> LoadSeeds(FuzzFormat format, Verdicts verdicts,
                          const std::vector<std::string>& paths, const std::string& scratch_dir,
                          const SeedSelection& selection = {});

}  // namespace mpo::corpus::fuzz
