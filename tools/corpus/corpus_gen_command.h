// `memprof-oracle corpus gen DIR`: writes the conformance corpus (core/corpus/corpus.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusGenCommand(CLI::App& corpus);

}  // namespace mpo::tools
