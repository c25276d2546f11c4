// `memprof-oracle corpus gen DIR`, `corpus check DIR --impl 'CMD {file}'` and
// `corpus decode FILE` (the reference decoder, usable as an --impl).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusCommands(CLI::App& app);

}  // namespace mpo::tools
