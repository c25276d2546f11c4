// `memprof-oracle memtrace folded FILE [--by samples|words]`: folded stacks for
// flamegraph.pl and speedscope. Registered into the existing `memtrace` group, so call
// it after AddMemtraceCommands.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceFoldedCommand(CLI::App& app);

}  // namespace mpo::tools
