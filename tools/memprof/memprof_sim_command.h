// `memprof-oracle memprof-sim`: parses the options of core/sim/memprof_sim_workload.h,
// bounds its work and prints what the callbacks saw, as text or one JSON object.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemprofSimCommand(CLI::App& app);

}  // namespace mpo::tools
