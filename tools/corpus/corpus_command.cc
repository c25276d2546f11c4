#include "tools/corpus/corpus_command.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/text_sink.h"
#include "core/base/version.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "tools/corpus/corpus_fuzz_command.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

struct CorpusOptions {
  std::string dir;
  std::string file;
  std::vector<std::string> files;  // corpus add
  std::string impl;
  bool batch = false;
  std::uint64_t jobs = 0;  // 0: the number of cores
  double timeout = 20;
  std::uint64_t max_output_mib = corpus::kDefaultMaxOutput >> 20;
  std::vector<std::string> only, skip, supports, ignore_fields;
  bool exact_errors = false;
  bool text = false;
  bool quiet = false;
  Verdicts verdicts = Verdicts::kStrict;
  memtrace::Limits limits;  // corpus decode of a trace: the --max-* budgets
};

void RunGen(const CorpusOptions& o) {
  Progress progress("corpus gen", "cases", 0);
  auto s = corpus::Generate(o.dir, [&](std::size_t n) { progress.Update(n, true); });
  if (!s.ok()) return ReportError("corpus gen " + o.dir, s.status());
  std::printf("corpus written to %s: %zu cases (%zu memtrace, %zu ring, %zu sampler), %llu bytes\n",
              o.dir.c_str(), s->memtrace + s->ring + s->sampler, s->memtrace, s->ring, s->sampler,
              static_cast<unsigned long long>(s->bytes));
}

void RunAdd(const CorpusOptions& o) {
  auto added = corpus::Add(o.dir, o.files);
  if (!added.ok()) {
    ReportError("corpus add " + o.dir, added.status());
    // A file refused (too large included) is a usage problem: nothing was added.
    if (added.status().code() == ErrorCode::kResourceExhausted) SetExitCode(kExitUsage);
    return;
  }
  std::size_t replaced = 0;
  for (const corpus::AddedCase& a : *added) {
    replaced += a.replaced ? 1 : 0;
    std::printf("%s %s (%s)\n", a.replaced ? "replaced" : "added", a.name.c_str(),
                a.expects_error ? "rejected by the oracle" : "accepted");
  }
  std::printf(
      "%zu cases added to %s (%zu replacing their earlier add); select them with "
      "--only tag:user\n",
      added->size(), o.dir.c_str(), replaced);
}

// The batch protocol's implementation side (core/corpus/batch_session.h): one path per
// line on stdin, each answered with its stream and an end line carrying the exit code a
// one-file run would have had. A file that cannot be decoded at all gets its message on
// stderr and exit 2 in its end line; the loop ends with stdin or a failed write.
constexpr std::size_t kMaxBatchPath = 1 << 16;

void RunDecodeBatch(const CorpusOptions& o) {
  FileTextSink out(stdout);
  std::string path;
  int c;
  while (true) {
    path.clear();
    bool too_long = false;
    while ((c = std::fgetc(stdin)) != EOF && c != '\n') {
      if (path.size() < kMaxBatchPath)
        path += static_cast<char>(c);
      else
        too_long = true;
    }
    if (c == EOF && path.empty()) break;
    int code = 0;
    if (too_long) {
      std::fprintf(stderr,
                   "memprof-oracle: corpus decode: a path on stdin is longer than %zu bytes\n",
                   kMaxBatchPath);
      std::printf("{\"kind\":\"batch_end\",\"exit\":2}\n");
      std::fflush(stdout);
      continue;
    }
    auto d = corpus::DecodeFile(path,
                                o.text ? corpus::DecodeForm::kText : corpus::DecodeForm::kJsonLines,
                                out, o.verdicts, o.limits);
    if (!d.ok()) {
      std::fprintf(stderr, "memprof-oracle: corpus decode %s: %s\n", path.c_str(),
                   d.status().ToString().c_str());
      code = 2;
    } else if (!d->ended_with.ok()) {
      code = 1;
    }
    std::printf("{\"kind\":\"batch_end\",\"exit\":%d}\n", code);
    std::fflush(stdout);
    if (StdoutFailed() || std::ferror(stdout)) return;
    if (c == EOF) break;
  }
}

void RunDecode(const CorpusOptions& o) {
  if (o.batch != o.file.empty())
    return ReportError("corpus decode",
                       Status(ErrorCode::kInvalidArgument,
                              o.batch ? "--batch reads the files' paths on stdin: give no FILE"
                                      : "a FILE to decode (or --batch) is required")
                           .WithField(o.batch ? "file" : "--batch"));
  if (o.batch) return RunDecodeBatch(o);
  // Streamed as it decodes, like `memtrace dump --json`: the same bytes, the same memory.
  FileTextSink out(stdout);
  auto d = corpus::DecodeFile(o.file,
                              o.text ? corpus::DecodeForm::kText : corpus::DecodeForm::kJsonLines,
                              out, o.verdicts, o.limits);
  if (!d.ok()) return ReportError("corpus decode " + o.file, d.status());
  std::fflush(stdout);
  // A rejected input is a complete stream (its end line says why) and exit code 1; a
  // failed write is reported once, by main's FinishStdout.
  if (!d->ended_with.ok() && !StdoutFailed()) ReportError("corpus decode " + o.file, d->ended_with);
}

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

void RunCheck(const CorpusOptions& o) {
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

void AddCorpusCommands(CLI::App& app) {
  auto o = std::make_shared<CorpusOptions>();
  CLI::App* c = app.add_subcommand(
      "corpus",
      "Conformance kit: generate the corpus, add your own files, check another decoder "
      "against it");
  c->require_subcommand(1);

  CLI::App* gen = c->add_subcommand(
      "gen",
      "Write the conformance corpus (deterministic). Each file is written beside its "
      "target and renamed into place; a symlink in the corpus is replaced, never followed.");
  gen->add_option("dir", o->dir, "output directory")->required();
  gen->callback([o] { RunGen(*o); });

  CLI::App* add = c->add_subcommand(
      "add",
      "Add your own files to a corpus (created if DIR does not exist): each is copied to "
      "DIR/<kind>/user_<name> beside the oracle's expected streams, written as corpus gen "
      "writes a case (a file the oracle rejects is a case too), and listed in MANIFEST.json "
      "with its tags and the tag user. A ring must be named NAME.ocaml-5.N.events. Adding "
      "a file of the same name again replaces the case it made, never a generated one. All "
      "or nothing: a file that is not a regular file, unreadable, over 1 GiB or of an "
      "unknown kind is refused (exit 2) and nothing is added.");
  add->add_option("dir", o->dir, "corpus directory")->required();
  add->add_option("files", o->files, "*.ctf, *.ocaml-5.N.events or *.sampler.json files")
      ->required();
  add->callback([o] { RunAdd(*o); });

  CLI::App* check = c->add_subcommand(
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

  CLI::App* dec = c->add_subcommand(
      "decode",
      "Print the reference decode of a case file as schema 2 JSON Lines (SCHEMA.md): the "
      "same bytes as `memtrace dump --json` for a trace and `events dump --json` for a "
      "ring. A rejected input prints its stream, ending with the error, and exits 1. The "
      "file must be a regular file (rings and sampler requests: at most 1 GiB).");
  dec->add_option("file", o->file, "*.ctf, *.ocaml-5.N.events or *.sampler.json");
  dec->add_flag("--batch", o->batch,
                "read one path per line on stdin and print each file's stream followed by "
                "{\"kind\":\"batch_end\",\"exit\":N}, N the exit code of a one-file run "
                "(the batch protocol of corpus check --batch)");
  dec->add_flag("--text", o->text, "print the text form instead");
  AddVerdictsOption(dec, &o->verdicts);
  AddLimitOptions(dec, &o->limits);
  dec->callback([o] { RunDecode(*o); });

  AddCorpusFuzzCommand(c);
}

}  // namespace mpo::tools
