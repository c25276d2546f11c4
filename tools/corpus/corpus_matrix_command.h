// `memprof-oracle corpus matrix DIR --column 'NAME[@MODE]=CMD' ...`: every implementation
// against every case, as a Markdown table and an HTML page (core/corpus/matrix.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusMatrixCommand(CLI::App& corpus);

}  // namespace mpo::tools
