// `memprof-oracle memtrace dump FILE`: a trace as memtrace's dump_trace text (by default),
// schema 2 JSON Lines (--json, core/memtrace/view/json_view.h) or the golden oracle dump.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceDumpCommand(CLI::App& memtrace);

}  // namespace mpo::tools
