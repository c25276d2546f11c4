// `memprof-oracle events chrome FILE OUT`: the ring as Chrome trace-event JSON
// (core/export/chrome_trace.h), streamed.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddChromeCommand(CLI::App& events);

}  // namespace mpo::tools
