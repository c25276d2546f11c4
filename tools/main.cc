// memprof-oracle: one program, one subcommand group per subsystem. Each group lives in
// tools/<area>/ and registers itself here; this file only wires them together, turns a
// parse failure into CLI11's message and exit code 2, and checks that everything
// written to stdout got there (exit 2 otherwise).
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <string_view>

#include "core/base/version.h"
#include "tools/corpus/corpus_command.h"
#include "tools/demo/demo_command.h"
#include "tools/exit_code.h"
#include "tools/export/folded_command.h"
#include "tools/memprof/memprof_commands.h"
#include "tools/memtrace/memtrace_command.h"
#include "tools/ring/events_command.h"
#include "tools/sampler/sample_command.h"

namespace {

// A program started with stdin, stdout or stderr closed would hand that descriptor to the
// first file it opens, and its prints would land in that file. Occupy them first: a
// read-only /dev/null on stdout makes every print to it fail, which FinishStdout reports.
void OccupyStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1) continue;
    const int opened = ::open("/dev/null", O_RDONLY);
    if (opened >= 0 && opened != fd) ::close(opened);
  }
}

void AddMemtraceGroup(CLI::App& app) {
  mpo::tools::AddMemtraceCommands(app);
  mpo::tools::AddMemtraceFoldedCommand(app);
}

// The top-level groups, in the order --help lists them.
struct Group {
  std::string_view name;
  void (*add)(CLI::App&);
};
constexpr Group kGroups[] = {
    {"sample", &mpo::tools::AddSampleCommand},  {"memprof-sim", &mpo::tools::AddMemprofCommands},
    {"events", &mpo::tools::AddEventsCommands}, {"memtrace", &AddMemtraceGroup},
    {"demo", &mpo::tools::AddDemoCommands},     {"corpus", &mpo::tools::AddCorpusCommands},
};

// Building every group's options was a fifth of the start-up time of a short command, so
// when the first argument names a group only that group is built: its parse, help and
// errors are the same, since no group looks at another. Anything else (top-level help,
// --version, a misspelt group) gets all of them, so CLI11's messages list every group.
void AddGroups(CLI::App& app, int argc, char** argv) {
  if (argc > 1) {
    const std::string_view first = argv[1];
    for (const Group& g : kGroups) {
      if (g.name == first) return g.add(app);
    }
  }
  for (const Group& g : kGroups) g.add(app);
}

}  // namespace

int main(int argc, char** argv) {
  OccupyStandardDescriptors();
  CLI::App app{
      "memprof-oracle: a reference implementation of OCaml's allocation-profiling stack "
      "(memprof sampler and engine, runtime events ring, memtrace codec)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", mpo::VersionLine(),
                       "Print the version and git revision, and exit");
  AddGroups(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Prints help or the usage error; any usage error exits 2, whatever CLI11's code.
    const int code = app.exit(e);
    return mpo::tools::FinishStdout(code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage);
  }
  return mpo::tools::FinishStdout(mpo::tools::ExitCode());
}
