// `memprof-oracle corpus fuzz --impl 'CMD {file}'`: differential fuzzing of another
// decoder against the oracle (core/corpus/fuzz/fuzz.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

// Adds `fuzz` under the `corpus` command.
void AddCorpusFuzzCommand(CLI::App* corpus);

}  // namespace mpo::tools
