// `memprof-oracle events fuchsia FILE OUT`: the ring as a Fuchsia trace (FXT,
// core/export/fuchsia_trace.h), streamed.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddFuchsiaCommand(CLI::App& events);

}  // namespace mpo::tools
