// `memprof-oracle memtrace ...`: read, check, convert and compare memtrace traces. One
// file per subcommand:
//   memtrace dump FILE [--json] [--no-backtraces] [--oracle]   dump_command.h
//   memtrace check FILE [--keep-going] [--json]                check_command.h
//   memtrace copy IN OUT [--format-version 2|3]                copy_command.h
//   memtrace diff A B                                          diff_command.h
//   memtrace stats FILE                                        stats_command.h
//   memtrace leaks FILE                                        leaks_command.h
//   memtrace compare A B                                       compare_command.h
//   memtrace report FILE -o OUT.html                           report_command.h
//   memtrace folded FILE                                       tools/export/folded_command.h
// What they share: memtrace_io.h (inputs, progress, output), analysis_options.h (stats,
// leaks, compare), limit_options.h, window_options.h.
// Exit codes: 0 ok (diff: equal), 1 bad input (diff: traces differ), 2 usage or I/O.
// Long runs on a terminal show a progress bar on stderr.
#pragma once

#include <CLI/CLI.hpp>
#include <span>

namespace mpo::tools {

// Adds the `memtrace` group; `rest` (the arguments after "memtrace") decides which of
// its subcommands are built (tools/lazy_commands.h).
void AddMemtraceCommands(CLI::App& app, std::span<char* const> rest);

}  // namespace mpo::tools
