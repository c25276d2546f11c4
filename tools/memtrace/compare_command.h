// `memprof-oracle memtrace compare A B`: which allocation sites grew or shrank from A to
// B (core/memtrace/analysis/site_compare.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceCompareCommand(CLI::App& memtrace);

}  // namespace mpo::tools
