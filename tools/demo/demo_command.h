// `memprof-oracle demo`: the project's first command (see demo_run.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddDemoCommands(CLI::App& app);

}  // namespace mpo::tools
