// `memprof-oracle corpus check DIR --impl 'CMD {file}'`: runs another decoder on every
// case and compares its streams with the expected ones (core/corpus/corpus.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusCheckCommand(CLI::App& corpus);

}  // namespace mpo::tools
