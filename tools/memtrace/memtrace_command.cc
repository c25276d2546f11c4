#include "tools/memtrace/memtrace_command.h"

#include "tools/export/folded_command.h"
#include "tools/lazy_commands.h"
#include "tools/memtrace/check_command.h"
#include "tools/memtrace/compare_command.h"
#include "tools/memtrace/copy_command.h"
#include "tools/memtrace/diff_command.h"
#include "tools/memtrace/dump_command.h"
#include "tools/memtrace/leaks_command.h"
#include "tools/memtrace/report_command.h"
#include "tools/memtrace/stats_command.h"

namespace mpo::tools {
namespace {

// The group's subcommands, in the order --help lists them.
constexpr LazyCommand kMemtraceCommands[] = {
    {.name = "dump", .add = &AddMemtraceDumpCommand},
    {.name = "check", .add = &AddMemtraceCheckCommand},
    {.name = "copy", .add = &AddMemtraceCopyCommand},
    {.name = "diff", .add = &AddMemtraceDiffCommand},
    {.name = "stats", .add = &AddMemtraceStatsCommand},
    {.name = "leaks", .add = &AddMemtraceLeaksCommand},
    {.name = "compare", .add = &AddMemtraceCompareCommand},
    {.name = "report", .add = &AddMemtraceReportCommand},
    {.name = "folded", .add = &AddMemtraceFoldedCommand},
};

}  // namespace

void AddMemtraceCommands(CLI::App& app, std::span<char* const> rest) {
  CLI::App* mt = app.add_subcommand("memtrace", "Read, check, convert and compare memtrace traces");
  mt->require_subcommand(1);
  AddReachable(*mt, kMemtraceCommands, rest);
}

}  // namespace mpo::tools
