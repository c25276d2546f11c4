// `memprof-oracle events ...`: read OCaml 5 runtime events files.
//   events dump DIR PID | FILE   golden text lines (or --json lines), as OCaml's consumer
//   events tail DIR PID          follow a live ring until the process exits
//   events chrome FILE OUT.json  Chrome trace-event JSON (Perfetto, chrome://tracing)
//   events stats DIR PID | FILE  time per phase, counts per domain
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddEventsCommands(CLI::App& app);

}  // namespace mpo::tools
