#include "tools/corpus/corpus_matrix_command.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/version.h"
#include "core/corpus/matrix.h"
#include "core/io/output_file.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

struct MatrixCommandOptions {
  std::string dir;
  std::vector<std::string> columns;
  std::string html, markdown;
  std::uint64_t jobs = 0;  // 0: the number of cores
  double timeout = 20;
};

// "NAME[@MODE]=CMD": a command with {file} runs once per case, one without it is a
// batch decoder (the kit's rule, impl_runner.h).
Result<corpus::MatrixColumn> ParseColumn(const std::string& spec, const MatrixCommandOptions& o) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    return Status(ErrorCode::kInvalidArgument,
                  "\"" + spec + "\" is not NAME=COMMAND or NAME@MODE=COMMAND")
        .WithField("--column");
  corpus::MatrixColumn col;
  col.name = spec.substr(0, eq);
  col.options.impl = spec.substr(eq + 1);
  if (const std::size_t at = col.name.find('@'); at != std::string::npos) {
    const auto mode = ParseVerdicts(col.name.substr(at + 1));
    if (!mode)
      return Status(ErrorCode::kInvalidArgument,
                    "unknown mode \"" + col.name.substr(at + 1) + "\" in \"" + spec +
                        "\" (modes: " + std::string(VerdictsNames()) + ")")
          .WithField("--column");
    col.options.verdicts = *mode;
    col.name.resize(at);
  }
  col.options.batch = col.options.impl.find("{file}") == std::string::npos;
  col.options.timeout_seconds = o.timeout;
  col.options.jobs = o.jobs != 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  return col;
}

std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

bool WriteTo(const std::string& path, const std::string& text) {
  auto out = io::AtomicOutput::Create(path);
  Status s = out.ok() ? out->Write(text) : out.status();
  if (s.ok()) s = out->Commit();
  if (!s.ok()) ReportError("corpus matrix", s);
  return s.ok();
}

void RunMatrix(const MatrixCommandOptions& o) {
  std::vector<corpus::MatrixColumn> columns;
  for (const std::string& spec : o.columns) {
    auto col = ParseColumn(spec, o);
    if (!col.ok()) {
      ReportError("corpus matrix", col.status());
      SetExitCode(kExitUsage);
      return;
    }
    columns.push_back(std::move(*col));
  }
  Progress progress("corpus matrix", "columns", columns.size());
  auto m =
      corpus::RunMatrix(o.dir, columns, [&](std::size_t done) { progress.Update(done, true); });
  progress.Clear();
  if (!m.ok()) {
    ReportError("corpus matrix " + o.dir, m.status());
    if (m.status().code() == ErrorCode::kInvalidArgument ||
        m.status().code() == ErrorCode::kUnsupportedVersion)
      SetExitCode(kExitUsage);
    return;
  }
  const corpus::MatrixHeader h{o.dir, VersionLine(), Today()};
  const std::string md = corpus::MatrixMarkdown(*m, h);
  if (!o.markdown.empty()) {
    if (!WriteTo(o.markdown, md)) return;
  } else {
    std::fwrite(md.data(), 1, md.size(), stdout);
  }
  if (!o.html.empty() && !WriteTo(o.html, corpus::MatrixHtml(*m, h))) return;
}

}  // namespace

void AddCorpusMatrixCommand(CLI::App& corpus) {
  auto o = std::make_shared<MatrixCommandOptions>();
  CLI::App* matrix = corpus.add_subcommand(
      "matrix",
      "Every implementation against every case, in one table: a column per --column (a "
      "corpus check of that command in that mode), a row per case family (format, version, "
      "accepted or rejected), each cell counting its cases passed, failed, declared or "
      "unsupported (n/a where the mode does not judge the format). Prints the Markdown table "
      "(or writes it to --markdown); "
      "--html writes a page where each family's cases and every failure's first difference "
      "and stderr are one click away. Failing cases are results, not errors: the exit code "
      "is 0 once the table is written.");
  matrix->add_option("dir", o->dir, "corpus directory (from corpus gen)")->required();
  matrix
      ->add_option("--column", o->columns,
                   "NAME=COMMAND or NAME@MODE=COMMAND (repeatable): COMMAND as corpus check takes "
                   "it ({file} for one process per case; without it, a batch decoder), MODE a "
                   "verdict mode (default strict)")
      ->required();
  matrix->add_option("--html", o->html, "write the HTML page here");
  matrix->add_option("--markdown", o->markdown, "write the Markdown table here (not to stdout)");
  matrix
      ->add_option("--jobs,-j", o->jobs,
                   "cases judged at once within a column, 1 to 256 (default: the number of cores)")
      ->check(UnsignedIn(1, 256));
  matrix->add_option("--timeout", o->timeout, "seconds per case before it fails (0.01 to 3600)")
      ->check(FiniteIn(0.01, 3600.0))
      ->capture_default_str();
  matrix->callback([o] { RunMatrix(*o); });
}

}  // namespace mpo::tools
