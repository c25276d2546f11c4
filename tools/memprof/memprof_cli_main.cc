// A test driver with only the memprof subcommands, wired as tools/main.cc wires them,
// so the CLI can be tested before the lead links it into memprof-oracle.
#include <CLI/CLI.hpp>

#include "tools/exit_code.h"
#include "tools/memprof/memprof_commands.h"

int main(int argc, char** argv) {
  CLI::App app{"memprof-oracle (memprof subcommands only)"};
  app.require_subcommand(1);
  mpo::tools::AddMemprofCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage;
  }
  return mpo::tools::ExitCode();
}
