// memprof-oracle: one program, one subcommand group per subsystem. Each group lives in
// tools/<area>/ and is listed here (only the group the command line names is built:
// tools/lazy_commands.h); this file only wires them together, turns a parse failure into
// CLI11's message and exit code 2 (a misspelt subcommand gets a did-you-mean first), installs the
// one signal policy (core/io/cleanup_registry.h: temporary files removed at any termination signal,
// a closed stdout pipe ends the command with 141, a write past `ulimit -f` is an I/O error) and
// checks that everything written to stdout got there (exit 2 otherwise).
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <span>

#include "core/base/version.h"
#include "core/io/cleanup_registry.h"
#include "tools/corpus/corpus_command.h"
#include "tools/demo/demo_command.h"
#include "tools/did_you_mean.h"
#include "tools/events/events_command.h"
#include "tools/exit_code.h"
#include "tools/help_format.h"
#include "tools/lazy_commands.h"
#include "tools/memprof/memprof_sim_command.h"
#include "tools/memtrace/memtrace_command.h"
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

// The top-level groups, in the order --help lists them. Only `memtrace` is lazy inside:
// the others hold one command each or are cheap to build.
constexpr mpo::tools::LazyCommand kGroups[] = {
    {"sample", &mpo::tools::AddSampleCommand},
    {"memprof-sim", &mpo::tools::AddMemprofSimCommand},
    {"events", &mpo::tools::AddEventsCommands},
    {"memtrace", nullptr, &mpo::tools::AddMemtraceCommands},
    {"demo", &mpo::tools::AddDemoCommands},
    {"corpus", &mpo::tools::AddCorpusCommands},
};

}  // namespace

int main(int argc, char** argv) {
  OccupyStandardDescriptors();
  mpo::io::InstallSignalPolicy();
  CLI::App app{
      "memprof-oracle: a reference implementation of OCaml's allocation-profiling stack "
      "(memprof sampler and engine, runtime events ring, memtrace codec)"};
  app.require_subcommand(1);
  // Before the subcommands are added: each takes its parent's formatter.
  app.formatter(std::make_shared<mpo::tools::WrappingFormatter>(mpo::tools::HelpWidth()));
  app.set_version_flag("--version", mpo::VersionLine(),
                       "Print the version and git revision, and exit");
  // argc is 0 when a program is started with an empty argv.
  const auto args = argc > 1 ? std::span<char* const>(argv + 1, static_cast<std::size_t>(argc - 1))
                             : std::span<char* const>();
  mpo::tools::AddReachable(app, kGroups, args);
  if (auto unknown = mpo::tools::UnknownSubcommandMessage(app, "memprof-oracle", args)) {
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", unknown->c_str());
    return mpo::tools::FinishStdout(mpo::tools::kExitUsage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Prints help or the usage error; any usage error exits 2, whatever CLI11's code.
    const int code = app.exit(e);
    return mpo::tools::FinishStdout(code == 0 ? mpo::tools::kExitOk : mpo::tools::kExitUsage);
  }
  return mpo::tools::FinishStdout(mpo::tools::ExitCode());
}
