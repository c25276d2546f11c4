// `memprof-oracle memtrace copy IN OUT`: decodes and re-encodes a trace
// (core/memtrace/trace_copy.h), written atomically, refusing an input with skipped data.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceCopyCommand(CLI::App& memtrace);

}  // namespace mpo::tools
