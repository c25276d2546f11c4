// `memprof-oracle sample`: prints geometric or binomial draws of the memprof sampler.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddSampleCommand(CLI::App& app);

}  // namespace mpo::tools
