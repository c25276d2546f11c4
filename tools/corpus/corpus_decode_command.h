// `memprof-oracle corpus decode FILE` (or --batch): the reference decoder, usable as an
// --impl of corpus check.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusDecodeCommand(CLI::App& corpus);

}  // namespace mpo::tools
