// `memprof-oracle memprof-sim`: runs a seeded synthetic workload on the simulated
// runtime under a Gc.Memprof profile and prints what the callbacks saw.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemprofCommands(CLI::App& app);

}  // namespace mpo::tools
