// `memprof-oracle memtrace check FILE`: decodes a whole trace; prints a summary line (or,
// with --json, one object: core/memtrace/analysis/trace_check.h) and exits 1 if it is invalid.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceCheckCommand(CLI::App& memtrace);

}  // namespace mpo::tools
