// `memprof-oracle events ...`: read OCaml 5 runtime events files.
//   events dump DIR PID | FILE   golden text lines (or --json lines), as OCaml's consumer
//   events tail [DIR] PID | --follow FILE   follow a live ring (tail_command.h)
//   events record -- PROG ARGS   run PROG with its ring on, export it (record_command.h)
//   events chrome FILE OUT.json  Chrome trace-event JSON (Perfetto, chrome://tracing)
//   events stats DIR PID | FILE  time per phase, counts per domain
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddEventsCommands(CLI::App& app);

}  // namespace mpo::tools
