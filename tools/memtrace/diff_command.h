// `memprof-oracle memtrace diff A B`: the first semantic difference between two traces
// (core/memtrace/analysis/trace_diff.h); exit 1 when they differ.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceDiffCommand(CLI::App& memtrace);

}  // namespace mpo::tools
