#include "tools/corpus/corpus_fuzz_command.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/version.h"
#include "core/corpus/fuzz/builtin_declared.h"
#include "core/corpus/fuzz/fuzz.h"
#include "core/corpus/read_file.h"
#include "core/corpus/run_command.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

struct FuzzCliOptions {
  std::string impl;
  bool batch = false;
  bool exact_errors = false;
  std::string format;  // "" = the one --as judges (memtrace for strict)
  Verdicts verdicts = Verdicts::kStrict;
  std::uint64_t seed = 0;
  bool seed_given = false;
  double max_seconds = 60;
  std::uint64_t max_mutants = 100000;
  std::uint64_t first_index = 0;
  std::vector<std::string> seeds;
  std::vector<std::string> only, skip, supports;
  std::string out;
  double timeout = 20;
  std::uint64_t max_output_mib = corpus::kDefaultMaxOutput >> 20;
  std::uint64_t max_minimize_tests = 400;
  double minimize_seconds = 1;
  std::uint64_t jobs = 0;  // 0: the number of cores
  std::string declared;
  bool no_builtin_declared = false;
};

corpus::fuzz::FuzzFormat FormatOf(const FuzzCliOptions& o) {
  if (o.format == "ring") return corpus::fuzz::FuzzFormat::kRing;
  if (o.format.empty() && !VerdictsJudge(o.verdicts, VerdictFormat::kMemtrace))
    return corpus::fuzz::FuzzFormat::kRing;
  return corpus::fuzz::FuzzFormat::kMemtrace;
}

// A seed that differs from run to run (CI's rotating seed), printed so that it replays.
std::uint64_t ClockSeed() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(now).count());
}

void PrintClass(const corpus::fuzz::DivergenceClass& d) {
  if (d.declared) {
    std::printf("DECLARED %s (mutant %llu: %s)%s%s\n", d.signature.c_str(),
                static_cast<unsigned long long>(d.first_index), d.chain.c_str(),
                d.why.empty() ? "" : ": ", d.why.c_str());
  } else {
    std::printf(
        "FAIL %s (mutant %llu: %s): %s; minimized %zu -> %zu bytes, %zu changed from the "
        "seed%s%s\n",
        d.signature.c_str(), static_cast<unsigned long long>(d.first_index), d.chain.c_str(),
        d.difference.c_str(), d.mutant_bytes, d.minimized_bytes, d.changed_bytes,
        d.saved.empty() ? "" : ", saved ", d.saved.c_str());
  }
  std::fflush(stdout);
}

void RunFuzz(const FuzzCliOptions& o) {
  corpus::fuzz::FuzzOptions fo;
  fo.impl.command = o.impl;
  fo.impl.batch = o.batch;
  fo.impl.exact_errors = o.exact_errors;
  fo.impl.timeout_seconds = o.timeout;
  fo.impl.max_output_bytes = static_cast<std::size_t>(o.max_output_mib) << 20;
  fo.impl.verdicts = o.verdicts;
  fo.format = FormatOf(o);
  fo.seed = o.seed_given ? o.seed : ClockSeed();
  fo.max_seconds = o.max_seconds;
  fo.max_mutants = o.max_mutants;
  fo.first_index = o.first_index;
  fo.seed_paths = o.seeds;
  fo.selection = {o.only, o.skip, o.supports};
  fo.out_dir = o.out;
  fo.max_minimize_tests = static_cast<std::size_t>(o.max_minimize_tests);
  fo.minimize_seconds = o.minimize_seconds;
  fo.jobs = o.jobs != 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  const std::string mode(VerdictsName(o.verdicts));
  if (!o.no_builtin_declared) fo.declared = corpus::fuzz::BuiltinDeclared(mode);
  const std::size_t builtin = fo.declared.size();
  if (!o.declared.empty()) {
    auto text = corpus::ReadWholeFile(o.declared, corpus::kDeclaredFile);
    if (!text.ok()) return ReportError("corpus fuzz --declared", text.status());
    for (corpus::fuzz::DeclaredRule& r :
         corpus::fuzz::RulesFor(corpus::fuzz::ParseDeclared(*text), mode))
      fo.declared.push_back(std::move(r));
  }
  std::printf("oracle: %s\n", VersionLine().c_str());
  std::printf("seed: %llu (--seed %llu replays this run)\n",
              static_cast<unsigned long long>(fo.seed), static_cast<unsigned long long>(fo.seed));
  std::printf("fuzzing %s inputs, verdicts %s, %zu declared rules (%zu built in for %s)\n",
              fo.format == corpus::fuzz::FuzzFormat::kRing ? "ring" : "memtrace", mode.c_str(),
              fo.declared.size(), builtin, mode.c_str());
  std::fflush(stdout);
  // One terminal-only line, as every long command shows (tools/progress.h).
  Progress progress("corpus fuzz", "mutants", o.max_mutants);
  corpus::fuzz::FuzzCallbacks cb;
  cb.on_new_class = [&progress](const corpus::fuzz::DivergenceClass& d) {
    progress.Clear();
    PrintClass(d);
  };
  cb.on_progress = [&progress](const corpus::fuzz::FuzzSummary& s) {
    progress.Update(s.mutants, true);
  };
  auto s = corpus::fuzz::Fuzz(fo, cb);
  progress.Clear();
  if (!s.ok()) return ReportError("corpus fuzz", s.status());
  const double rate = s->seconds > 0 ? static_cast<double>(s->mutants) / s->seconds : 0;
  std::printf(
      "%llu passed, %llu failed, %llu declared (%llu mutants of %zu seeds in %.1f s, "
      "%.1f mutants/s, %zu divergence classes)",
      static_cast<unsigned long long>(s->passed), static_cast<unsigned long long>(s->failed),
      static_cast<unsigned long long>(s->declared), static_cast<unsigned long long>(s->mutants),
      s->seeds, s->seconds, rate, s->classes.size());
  // Seeds left out are said, so that a narrowed run is never read as a whole one.
  if (s->seeds_left_out != 0)
    std::printf("; %zu seeds left out by --only/--skip/--supports", s->seeds_left_out);
  std::printf("\n");
  if (s->failed != 0) SetExitCode(kExitBadInput);
}

}  // namespace

void AddCorpusFuzzCommand(CLI::App* corpus) {
  auto o = std::make_shared<FuzzCliOptions>();
  CLI::App* fuzz = corpus->add_subcommand(
      "fuzz",
      "Differential fuzzing: seeded mutants of the corpus cases of one format (and of "
      "--seeds files) are decoded by the oracle and by the command, which runs as corpus "
      "check runs it; each new class of divergence is minimized and saved in --out with "
      "a .txt explaining it. Under --as MODE that reference's known bugs are declared "
      "(built in; --no-builtin-declared, --declared FILE). Prints `N passed, N failed, N "
      "declared`; exit 1 if any divergence is not declared. A mutant is a function of (--seed, its "
      "index).");
  fuzz->add_option("--impl", o->impl,
                   "decoder command; {file} is replaced by the input's path, e.g. "
                   "'memprof-oracle corpus decode {file}' (with --batch: no {file})")
      ->required();
  fuzz->add_flag("--exact-errors", o->exact_errors,
                 "compare a rejection's whole error object (check, offset, bit), as the "
                 "oracle words it, not only its code");
  fuzz->add_flag("--batch", o->batch,
                 "run one process of the command for every input: it reads one path per "
                 "line on stdin and prints each stream followed by the end line "
                 "{\"kind\":\"batch_end\",\"exit\":N} (SCHEMA.md), e.g. "
                 "'memprof-oracle corpus decode --batch'");
  fuzz->add_option("--format", o->format,
                   "memtrace or ring (default: the format --as judges; memtrace for strict)")
      ->check(CLI::IsMember({"memtrace", "ring"}));
  AddVerdictsOption(fuzz, &o->verdicts);
  fuzz->add_option_function<std::uint64_t>(
          "--seed",
          [o](std::uint64_t v) {
            o->seed = v;
            o->seed_given = true;
          },
          "run seed (default: from the clock, printed)")
      ->check(UnsignedIn());
  fuzz->add_option("--max-seconds", o->max_seconds, "stop after this long (0.01 to 86400)")
      ->check(SecondsIn(0.01, 86400.0))
      ->capture_default_str();
  fuzz->add_option("--max-mutants", o->max_mutants, "stop after this many mutants (1 to 10^9)")
      ->check(UnsignedIn(1, 1000000000))
      ->capture_default_str();
  fuzz->add_option("--first-index", o->first_index,
                   "index of the first mutant (with --max-mutants 1: replay one)")
      ->check(UnsignedIn());
  fuzz->add_option(
      "--seeds", o->seeds,
      "more seed files or folders, searched recursively for files of the format (a corpus "
      "folder, with the files corpus add put there, works as is)");
  fuzz->add_option("--only", o->only,
                   "fuzz only seeds matching one of these patterns (repeatable, "
                   "comma-separated): a substring of memtrace/CASE, ring/CASE or a --seeds "
                   "file's path, or tag:NAME (the tags corpus check selects on)")
      ->delimiter(',');
  fuzz->add_option("--skip", o->skip, "leave out seeds matching one of these patterns (as --only)")
      ->delimiter(',');
  fuzz->add_option("--supports", o->supports,
                   "what the decoder reads, as corpus check --supports: seeds of other "
                   "versions are left out, so that their mutants do not count for it")
      ->delimiter(',');
  fuzz->add_option(
      "--out", o->out,
      "folder for reproducers (created if needed); numbered after those already there, "
      "never replacing a file");
  fuzz->add_option("--timeout", o->timeout, "seconds per run of the command (0.01 to 3600)")
      ->check(SecondsIn(0.01, 3600.0))
      ->capture_default_str();
  fuzz->add_option("--max-output-mib", o->max_output_mib,
                   "output per run beyond which it fails unparsed, in MiB (1 to 65536)")
      ->check(UnsignedIn(1, 65536))
      ->capture_default_str();
  fuzz->add_option("--max-minimize-tests", o->max_minimize_tests,
                   "runs spent minimizing each new divergence (0 to 100000)")
      ->check(UnsignedIn(0, 100000))
      ->capture_default_str();
  fuzz->add_option("--minimize-seconds", o->minimize_seconds,
                   "time spent minimizing each new divergence (0 to 3600); only the first "
                   "mutant of a class is minimized")
      ->check(SecondsIn(0.0, 3600.0))
      ->capture_default_str();
  fuzz->add_option("--jobs,-j", o->jobs,
                   "mutants judged at once, each worker with its own run of the command (with "
                   "--batch, its own process), 1 to 256; the summary and the classes are the "
                   "same whatever the number (default: the number of cores)")
      ->check(UnsignedIn(1, 256));
  fuzz->add_option("--declared", o->declared,
                   "more declared differences, added to the built-in ones: one glob over the "
                   "divergence signature per line, `# why` after it, optionally `as=MODE,...` "
                   "before it (core/corpus/fuzz/declared.h)");
  fuzz->add_flag("--no-builtin-declared", o->no_builtin_declared,
                 "do not apply the built-in declared differences: by default --as MODE "
                 "declares that reference's known bugs (core/corpus/fuzz/known_peer_bugs.txt, "
                 "the rules tagged as=MODE; none under strict)");
  fuzz->callback([o] { RunFuzz(*o); });
}

}  // namespace mpo::tools
