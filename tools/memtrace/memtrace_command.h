// `memprof-oracle memtrace ...`: dump, check, copy, diff and stats of memtrace traces.
//
//   memtrace dump FILE [--json] [--no-backtraces] [--oracle]
//       memtrace 0.2.3's dump_trace text by default; --json: JSON lines (schema in
//       core/memtrace/view/text_dump.h); --oracle: the golden oracle_dump format.
//   memtrace check FILE [--keep-going]
//       decodes everything; exit 0, or prints the typed error with its offset and exits 1.
//       --keep-going reports every bad packet and how many events were recoverable.
//   memtrace copy IN OUT [--format-version 2|3]   (default: the input's, v1 -> v2)
//   memtrace diff A B      first semantic difference: event index, field, both values
//   memtrace stats FILE [--top N]    (also leaks, compare, report, folded)
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
