#include "tools/corpus/corpus_check_command.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/version.h"
#include "core/corpus/corpus.h"
#include "core/corpus/run_command.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

struct CheckCommandOptions {
  std::string dir;
  std::string impl;
  bool batch = false;
  std::uint64_t jobs = 0;  // 0: the number of cores
  double timeout = 20;
  std::uint64_t max_output_mib = corpus::kDefaultMaxOutput >> 20;
  std::vector<std::string> only, skip, supports, ignore_fields;
  bool exact_errors = false;
  bool quiet = false;
  Verdicts verdicts = Verdicts::kStrict;
};

// A failing case's stderr, indented under its FAIL line.
void PrintStderr(const std::string& tail) {
  if (tail.empty()) return;
  std::printf("  stderr:\n");
  std::size_t pos = 0;
  while (pos <= tail.size()) {
    const std::size_t nl = std::min(tail.find('\n', pos), tail.size());
    std::printf("    %.*s\n", static_cast<int>(nl - pos), tail.data() + pos);
    pos = nl + 1;
  }
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

void RunCheck(const CheckCommandOptions& o) {
  corpus::CheckOptions co;
  co.impl = o.impl;
  co.batch = o.batch;
  co.timeout_seconds = o.timeout;
  co.jobs = o.jobs != 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  co.max_output_bytes = static_cast<std::size_t>(o.max_output_mib) << 20;
  co.only = o.only;
  co.skip = o.skip;
  co.supports = o.supports;
  co.ignore_fields = o.ignore_fields;
  co.exact_errors = o.exact_errors;
  co.verdicts = o.verdicts;
  // Which oracle gave the verdicts (MANIFEST.json records which one wrote the corpus).
  std::printf("oracle: %s\n", VersionLine().c_str());
  // With -q nothing may be printed for minutes: count the cases on a terminal.
  Progress progress("corpus check", "cases", 0);
  std::size_t seen = 0;
  auto s = corpus::Check(o.dir, co, [&](const corpus::CaseResult& r) {
    if (o.quiet) progress.Update(++seen, true);
    if (o.quiet && r.outcome != corpus::CaseOutcome::kFailed) return;
    progress.Clear();
    switch (r.outcome) {
      case corpus::CaseOutcome::kPassed: std::printf("PASS %s\n", r.name.c_str()); break;
      case corpus::CaseOutcome::kFailed:
        std::printf("FAIL %s: %s\n", r.name.c_str(), r.reason.c_str());
        PrintStderr(r.stderr_tail);
        break;
      case corpus::CaseOutcome::kUnsupported:
        std::printf("UNSUPPORTED %s\n", r.name.c_str());
        break;
      case corpus::CaseOutcome::kDeclared:
        std::printf("DECLARED %s: %s\n", r.name.c_str(), r.reason.c_str());
        break;
      case corpus::CaseOutcome::kNotJudged: return;
    }
    std::fflush(stdout);
  });
  if (!s.ok()) {
    ReportError("corpus check " + o.dir, s.status());
    // A corpus of another schema is not bad input but the wrong corpus: regenerate it.
    if (s.status().code() == ErrorCode::kUnsupportedVersion) SetExitCode(kExitUsage);
    return;
  }
  // The counts first, always: scripts read "N passed, N failed" at the start.
  std::printf("%zu passed, %zu failed", s->passed, s->failed);
  if (!o.supports.empty())
    std::printf(", %zu unsupported (--supports %s)", s->unsupported, Joined(o.supports).c_str());
  if (!o.ignore_fields.empty())
    std::printf("; fields not compared: %s", Joined(o.ignore_fields).c_str());
  if (o.exact_errors) std::printf("; errors compared exactly");
  if (o.verdicts != Verdicts::kStrict)
    std::printf(" (as %s: %zu declared differences, %zu cases of other formats not run)",
                std::string(VerdictsName(o.verdicts)).c_str(), s->declared, s->not_judged);
  std::printf("\n");
  if (s->failed != 0 || s->passed == 0) SetExitCode(kExitBadInput);
  if (!s->changed_files.empty()) {
    // Written after the counts, which scripts read first; the verdicts cannot be trusted.
    for (const std::string& f : s->changed_files)
      std::fprintf(stderr,
                   "memprof-oracle: corpus check: %s changed during the run (an implementation "
                   "wrote to the corpus): the verdicts are void; regenerate the corpus\n",
                   f.c_str());
    SetExitCode(kExitBadInput);
  }
}

}  // namespace

void AddCorpusCheckCommand(CLI::App& corpus) {
  auto o = std::make_shared<CheckCommandOptions>();
  CLI::App* check = corpus.add_subcommand(
      "check",
      "Run a decoder on every case and compare its JSON Lines, line by line, with the "
      "expected stream (schema 2, core/corpus/SCHEMA.md). A case passes only if the command "
      "exits 0 (or 1 for a rejected input) within --timeout and prints the expected stream, "
      "end line included (at most --max-output-mib, nested at most 512 deep). The command "
      "runs in its own session; everything it started is killed when it exits or times out. "
      "A rejection is compared by its error code (corrupt, truncated, ...), not its wording "
      "or offset (--exact-errors compares the whole error). A failure names the first "
      "differing line and member, also when the exit code is wrong, and shows the end of "
      "the command's stderr. A corpus of schema 1 is refused (exit 2): regenerate it with "
      "corpus gen.");
  check->add_option("dir", o->dir, "corpus directory (from corpus gen)")->required();
  check
      ->add_option("--impl", o->impl,
                   "decoder command; {file} is replaced by the case file's path, e.g. "
                   "'memprof-oracle corpus decode {file}' (with --batch: no {file})")
      ->required();
  check->add_flag("--batch", o->batch,
                  "run one process of the command for every case: it reads one path per line "
                  "on stdin and prints each stream followed by the end line "
                  "{\"kind\":\"batch_end\",\"exit\":N} (SCHEMA.md); a process that breaks "
                  "this fails its case and is started again. E.g. "
                  "'memprof-oracle corpus decode --batch'");
  check
      ->add_option("--jobs,-j", o->jobs,
                   "cases judged at once, each by its own run of the command (with --batch, "
                   "its own process), 1 to 256; the report is in the corpus's order whatever "
                   "the number (default: the number of cores)")
      ->check(UnsignedIn(1, 256));
  check->add_option("--timeout", o->timeout, "seconds per case before it fails (0.01 to 3600)")
      ->check(FiniteIn(0.01, 3600.0))
      ->capture_default_str();
  check
      ->add_option("--max-output-mib", o->max_output_mib,
                   "output per case beyond which it fails unparsed, in MiB (1 to 65536)")
      ->check(UnsignedIn(1, 65536))
      ->capture_default_str();
  check
      ->add_option("--only", o->only,
                   "run only cases matching one of these patterns (repeatable, comma-separated): "
                   "a substring of the name, or tag:NAME (MANIFEST.json tags)")
      ->delimiter(',');
  check->add_option("--skip", o->skip, "leave out cases matching one of these patterns (as --only)")
      ->delimiter(',');
  check
      ->add_option("--supports", o->supports,
                   "what the decoder reads: FORMAT or FORMAT-VERSION items (memtrace, "
                   "memtrace-v1..v3, ring, ring-ocaml-5.N, sampler), comma-separated; other "
                   "cases are counted as unsupported, not run")
      ->delimiter(',');
  check
      ->add_option("--ignore-fields", o->ignore_fields,
                   "JSON Pointers of members not compared in any line, e.g. "
                   "/info/pid,/error/offset; # stands for any array index")
      ->delimiter(',');
  check->add_flag("--exact-errors", o->exact_errors,
                  "compare a rejection's whole error object (check, offset, bit), as the "
                  "oracle words it, not only its code");
  check->add_flag("--quiet,-q", o->quiet, "print failing cases and the summary only");
  AddVerdictsOption(check, &o->verdicts);
  check->callback([o] { RunCheck(*o); });
}

}  // namespace mpo::tools
