// `memprof-oracle memtrace leaks FILE`: blocks never collected, or live at --live-at, by
// allocation site (core/memtrace/analysis/leaks.h).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceLeaksCommand(CLI::App& memtrace);

}  // namespace mpo::tools
