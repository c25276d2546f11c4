// `memprof-oracle events dump`: every event as OCaml's consumer delivers it (golden text
// lines), or the decoded view as schema 2 JSON Lines (--json).
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddDumpCommand(CLI::App& events);

}  // namespace mpo::tools
