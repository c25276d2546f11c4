// `memprof-oracle memtrace folded FILE [--by samples|words]`: folded stacks for
// flamegraph.pl and speedscope. A subcommand of the `memtrace` group, which adds it.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceFoldedCommand(CLI::App& memtrace);

}  // namespace mpo::tools
