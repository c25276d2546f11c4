// `memprof-oracle events ...`: read OCaml 5 runtime events files. One file per subcommand:
//   events dump DIR PID | FILE   golden text lines (or --json lines), as OCaml's consumer
//                                (dump_command.h)
//   events tail [DIR] PID | --follow FILE   follow a live ring (tail_command.h)
//   events chrome FILE OUT.json  Chrome trace-event JSON (chrome_command.h)
//   events fuchsia FILE OUT.fxt  Fuchsia trace, FXT (fuchsia_command.h)
//   events stats DIR PID | FILE  olly's GC statistics (stats_command.h)
//   events record -- PROG ARGS   run PROG with its ring on, export it (record_command.h)
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddEventsCommands(CLI::App& app);

}  // namespace mpo::tools
