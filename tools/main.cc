// memprof-oracle: one program, one subcommand group per subsystem. Each group lives in
// tools/<area>/ and registers itself here; this file only wires them together and
// turns a parse failure into CLI11's message and exit code 2.
#include <CLI/CLI.hpp>

#include "tools/corpus/corpus_command.h"
#include "tools/demo/demo_command.h"
#include "tools/exit_code.h"
#include "tools/export/folded_command.h"
#include "tools/memprof/memprof_commands.h"
#include "tools/memtrace/memtrace_command.h"
#include "tools/ring/events_command.h"
#include "tools/sampler/sample_command.h"

int main(int argc, char** argv) {
  CLI::App app{
      "memprof-oracle: a reference implementation of OCaml's allocation-profiling stack "
      "(memprof sampler and engine, runtime events ring, memtrace codec)"};
  app.require_subcommand(1);
  mpo::tools::AddSampleCommand(app);
  mpo::tools::AddMemprofCommands(app);
  mpo::tools::AddEventsCommands(app);
  mpo::tools::AddMemtraceCommands(app);
  mpo::tools::AddDemoCommands(app);
  mpo::tools::AddMemtraceFoldedCommand(app);
  mpo::tools::AddCorpusCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Prints help or the usage error; any usage error exits 2, whatever CLI11's code.
    const int code = app.exit(e);
    return code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage;
  }
  return mpo::tools::ExitCode();
}
