// A test-only program with just the memtrace commands, for tools/memtrace's sh_test
// (//tools:memprof-oracle is private to tools/). Same exit-code rules as tools/main.cc.
#include <CLI/CLI.hpp>

#include "tools/exit_code.h"
#include "tools/memtrace/memtrace_command.h"

int main(int argc, char** argv) {
  CLI::App app{"memprof-oracle (memtrace commands only)"};
  app.require_subcommand(1);
  mpo::tools::AddMemtraceCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage;
  }
  return mpo::tools::ExitCode();
}
