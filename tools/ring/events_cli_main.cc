// The `events` commands alone, wired as tools/main.cc wires them, for this package's
// end-to-end test (//tools:memprof-oracle is not visible from subpackages).
#include <CLI/CLI.hpp>

#include "tools/exit_code.h"
#include "tools/ring/events_command.h"

int main(int argc, char** argv) {
  CLI::App app{"memprof-oracle (events commands only)"};
  app.require_subcommand(1);
  mpo::tools::AddEventsCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage;
  }
  return mpo::tools::ExitCode();
}
