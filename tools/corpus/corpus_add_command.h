// `memprof-oracle corpus add DIR FILES...`: adds the user's own files to a corpus as cases.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusAddCommand(CLI::App& corpus);

}  // namespace mpo::tools
