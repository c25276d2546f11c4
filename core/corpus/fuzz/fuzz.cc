#include "core/corpus/fuzz/fuzz.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <optional>
#include <span>

#include "core/corpus/fuzz/minimize.h"
#include "core/corpus/fuzz/seeds.h"
#include "core/corpus/ordered_parallel.h"
#include "core/corpus/run_command.h"
#include "core/io/cleanup_registry.h"
#include "core/io/output_file.h"

namespace mpo::corpus::fuzz {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A private temporary folder, removed with everything in it when this goes away.
class TempDir {
 public:
  static Result<TempDir> Create() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                       "/memprof-oracle-fuzz-XXXXXX";
    // Registered at once: a signal that ends the run removes the folder too.
    io::TerminationSignalsBlocked blocked;
    if (::mkdtemp(tmpl.data()) == nullptr)
      return Status(ErrorCode::kIo, "cannot create a temporary folder").WithField(tmpl);
    return TempDir(tmpl);
  }
  TempDir(TempDir&& o) noexcept : path_(std::move(o.path_)), cleanup_(std::move(o.cleanup_)) {
    o.path_.clear();
  }
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path)
      : path_(std::move(path)), cleanup_(path_, io::CleanupKind::kTree) {}
  std::string path_;
  io::ScopedCleanup cleanup_;
};

// A reproducer is a new file: an earlier run's, or anything planted at its name (a
// symlink), is never replaced or written through.
Status WriteFile(const std::string& path, std::span<const std::uint8_t> bytes) {
  auto out = io::AtomicOutput::Create(path);
  if (!out.ok()) return out.status();
  (void)out->Write(bytes);
  return out->CommitNew();
}

// The first N such that nothing in `dir` is named divergence-M... for any M >= N: a run
// numbers its reproducers after those of earlier runs in the same folder.
std::uint64_t FirstFreeIndex(const std::string& dir) {
  std::uint64_t next = 1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    constexpr std::string_view kPrefix = "divergence-";
    if (name.rfind(kPrefix, 0) != 0) continue;
    std::uint64_t n = 0;
    std::size_t i = kPrefix.size();
    for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && n < (1ull << 60); ++i)
      n = n * 10 + static_cast<std::uint64_t>(name[i] - '0');
    if (i > kPrefix.size()) next = std::max(next, n + 1);
  }
  return next;
}

std::size_t ChangedBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  const std::size_t common = std::min(a.size(), b.size());
  std::size_t n = std::max(a.size(), b.size()) - common;
  for (std::size_t i = 0; i < common; ++i) n += a[i] != b[i] ? 1 : 0;
  return n;
}

const char* FormatName(FuzzFormat f) { return f == FuzzFormat::kRing ? "ring" : "memtrace"; }

// The same seeds make the same mutants: a replay needs every --seeds path, in order, and
// the same selection of seeds.
std::string SeedsOptions(const std::vector<std::string>& paths, const SeedSelection& sel) {
  std::string out;
  for (const std::string& p : paths) out += " --seeds " + ShellQuote(p);
  for (const auto& [option, list] :
       {std::pair{" --only ", &sel.only}, std::pair{" --skip ", &sel.skip},
        std::pair{" --supports ", &sel.supports}})
    for (const std::string& item : *list) out += option + ShellQuote(item);
  return out;
}

std::string Report(const DivergenceClass& d, const FuzzOptions& o, const std::string& seed_name) {
  std::string t;
  auto line = [&t](const std::string& key, const std::string& value) {
    t += key + ": " + value + "\n";
  };
  line("signature", d.signature);
  line("run seed", std::to_string(o.seed));
  line("mutant index", std::to_string(d.first_index));
  line("seed input", seed_name);
  line("mutator chain", d.chain);
  line("mutant bytes", std::to_string(d.mutant_bytes));
  line("minimized bytes", std::to_string(d.minimized_bytes) + " (" +
                              std::to_string(d.minimize_tests) + " minimization tests)");
  line("bytes changed from the seed", std::to_string(d.changed_bytes));
  line("oracle verdict", d.oracle);
  line("impl outcome", d.impl);
  line("first difference", d.difference);
  line("verdict mode", std::string(VerdictsName(o.impl.verdicts)));
  line("impl command", o.impl.command);
  line("replay", "memprof-oracle corpus fuzz --impl " + ShellQuote(o.impl.command) +
                     (o.impl.batch ? " --batch" : "") +
                     (o.impl.exact_errors ? " --exact-errors" : "") + " --format " +
                     FormatName(o.format) + " --as " + std::string(VerdictsName(o.impl.verdicts)) +
                     " --seed " + std::to_string(o.seed) + " --first-index " +
                     std::to_string(d.first_index) + " --max-mutants 1" +
                     SeedsOptions(o.seed_paths, o.selection));
  // Last, since it runs to several lines: what the implementation said on the minimized
  // input, indented.
  if (!d.impl_stderr.empty()) {
    t += "impl stderr:\n";
    std::size_t pos = 0;
    while (pos <= d.impl_stderr.size()) {
      const std::size_t nl = std::min(d.impl_stderr.find('\n', pos), d.impl_stderr.size());
      t += "  " + d.impl_stderr.substr(pos, nl - pos) + "\n";
      pos = nl + 1;
    }
  }
  return t;
}

class Fuzzer {
 public:
  Fuzzer(const FuzzOptions& o, const FuzzCallbacks& cb, SeedSet seeds, std::string tmp,
         std::uint64_t first_saved)
      : o_(o),
        cb_(cb),
        seeds_(std::move(seeds.seeds)),
        left_out_(seeds.left_out),
        tmp_(std::move(tmp)),
        declared_(RulesFor(o.declared, VerdictsName(o.impl.verdicts))),
        runner_(RunnerCommand(o.impl)),
        next_saved_(first_saved) {}

  Result<FuzzSummary> Run() {
    summary_.seeds = seeds_.size();
    summary_.seeds_left_out = left_out_;
    start_ = Clock::now();
    deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(o_.max_seconds));
    // Mutant k is a function of the run's seed and k alone, so workers judge mutants in
    // any order and the summary, taken in index order, is the same for every --jobs.
    // Minimization runs on this thread, with a runner of its own, while workers go on.
    const std::size_t jobs = std::max<std::size_t>(1, o_.jobs);
    std::deque<ImplRunner> runners;  // never moved: a batch session owns a process
    for (std::size_t w = 0; w < jobs; ++w) runners.emplace_back(RunnerCommand(o_.impl));
    Status failure = Status::Ok();
    RunOrdered<std::optional<Judged>>(
        o_.max_mutants, jobs,
        [&](std::size_t worker, std::size_t k) -> std::optional<Judged> {
          if (Clock::now() >= deadline_) return std::nullopt;
          Mutant m = MakeMutant(seeds_, o_.format, o_.seed, o_.first_index + k);
          const std::string stem = worker == 0 ? "input" : "input-" + std::to_string(worker);
          auto j =
              Judge(m.bytes, InputPath(stem, seeds_[m.seed]), o_.format, o_.impl, runners[worker]);
          return Judged{std::move(m), std::move(j)};
        },
        [&](std::size_t k, std::optional<Judged> r) {
          if (!r) return false;  // past the deadline
          failure = Classify(o_.first_index + k, *r);
          if (!failure.ok()) return false;
          summary_.seconds = Seconds();
          if (cb_.on_progress) cb_.on_progress(summary_);
          return true;
        });
    MPO_RETURN_IF_ERROR(failure);
    summary_.seconds = Seconds();
    return summary_;
  }

 private:
  struct Judged {
    Mutant mutant;
    Result<Judgement> judgement;
  };

  double Seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  std::string InputPath(const std::string& stem, const SeedInput& seed) const {
    return tmp_ + "/" + stem + seed.suffix;
  }

  // Counts mutant `index` into the summary; a new class is minimized and saved.
  Status Classify(std::uint64_t index, const Judged& r) {
    const Mutant& m = r.mutant;
    const SeedInput& seed = seeds_[m.seed];
    const Result<Judgement>& j = r.judgement;
    if (!j.ok()) return j.status();
    ++summary_.mutants;
    if (j->agree) {
      ++summary_.passed;
      return Status::Ok();
    }
    for (DivergenceClass& d : summary_.classes) {
      if (d.signature != j->signature) continue;
      ++d.count;
      ++(d.declared ? summary_.declared : summary_.failed);
      return Status::Ok();
    }
    DivergenceClass d;
    d.signature = j->signature;
    d.first_index = index;
    d.count = 1;
    d.chain = ChainText(m.chain);
    d.oracle = j->oracle;
    d.impl = j->impl;
    d.difference = j->difference;
    d.impl_stderr = j->impl_stderr;
    d.mutant_bytes = d.minimized_bytes = m.bytes.size();
    if (const DeclaredRule* rule = MatchDeclared(declared_, d.signature)) {
      d.declared = true;
      d.why = rule->why;
      ++summary_.declared;
    } else {
      ++summary_.failed;
      if (Status s = MinimizeAndSave(m, seed, d); !s.ok()) return s;
    }
    summary_.classes.push_back(d);
    if (cb_.on_new_class) cb_.on_new_class(d);
    return Status::Ok();
  }

  Status MinimizeAndSave(const Mutant& m, const SeedInput& seed, DivergenceClass& d) {
    Status failure;
    const std::string path = InputPath("minimizing", seed);
    const Clock::time_point until =
        std::min(deadline_, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(o_.minimize_seconds)));
    auto keeps = [&](std::span<const std::uint8_t> candidate) {
      // Past the budget every candidate is refused: the run's time bound holds, and one
      // class does not eat the time of the mutants after it.
      if (!failure.ok() || Clock::now() >= until) return false;
      auto j = Judge(candidate, path, o_.format, o_.impl, runner_);
      if (!j.ok()) {
        failure = j.status();
        return false;
      }
      if (j->signature != d.signature) return false;
      d.difference = j->difference;
      d.impl_stderr = j->impl_stderr;
      d.oracle = j->oracle;
      d.impl = j->impl;
      return true;
    };
    MinimizeResult r = Minimize(m.bytes, seed.bytes, o_.format, keeps, o_.max_minimize_tests);
    if (!failure.ok()) return failure;
    d.minimized_bytes = r.bytes.size();
    d.changed_bytes = ChangedBytes(r.bytes, seed.bytes);
    d.minimize_tests = r.tests;
    if (o_.out_dir.empty()) return Status::Ok();
    const std::string stem =
        (fs::path(o_.out_dir) / ("divergence-" + std::to_string(next_saved_++))).string();
    if (Status s = WriteFile(stem + seed.suffix, r.bytes); !s.ok()) return s;
    if (Status s = WriteFile(stem + ".mutant" + seed.suffix, m.bytes); !s.ok()) return s;
    d.saved = stem + seed.suffix;
    const std::string text = Report(d, o_, seed.name);
    return WriteFile(stem + ".txt",
                     {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  }

  const FuzzOptions& o_;
  const FuzzCallbacks& cb_;
  std::vector<SeedInput> seeds_;
  std::size_t left_out_;
  std::string tmp_;
  std::vector<DeclaredRule> declared_;  // the rules of o_.impl.verdicts' mode
  ImplRunner runner_;                   // minimization's
  std::uint64_t next_saved_;            // the number of the next reproducer saved
  FuzzSummary summary_;
  Clock::time_point start_, deadline_;
};

}  // namespace

Result<FuzzSummary> Fuzz(const FuzzOptions& options, const FuzzCallbacks& callbacks) {
  MPO_RETURN_IF_ERROR(ValidateImplCommand(RunnerCommand(options.impl)));
  if (!(options.minimize_seconds >= 0))
    return Status(ErrorCode::kInvalidArgument, "the minimization budget must not be negative")
        .WithField("--minimize-seconds");
  const VerdictFormat vf =
      options.format == FuzzFormat::kRing ? VerdictFormat::kRing : VerdictFormat::kMemtrace;
  if (!VerdictsJudge(options.impl.verdicts, vf))
    return Status(ErrorCode::kInvalidArgument, std::string(VerdictsName(options.impl.verdicts)) +
                                                   " has no verdict on " +
                                                   FormatName(options.format) + " inputs")
        .WithField("--as");
  auto tmp = TempDir::Create();
  if (!tmp.ok()) return tmp.status();
  const std::string scratch = tmp->path() + "/cases";
  std::error_code ec;
  fs::create_directory(scratch, ec);
  if (ec) return Status(ErrorCode::kIo, "cannot create " + ec.message()).WithField(scratch);
  auto seeds = LoadSeeds(options.format, options.impl.verdicts, options.seed_paths, scratch,
                         options.selection);
  if (!seeds.ok()) return seeds.status();
  if (!options.out_dir.empty()) {
    fs::create_directories(options.out_dir, ec);
    if (ec)
      return Status(ErrorCode::kIo, "cannot create: " + ec.message()).WithField(options.out_dir);
  }
  const std::uint64_t first_saved = options.out_dir.empty() ? 1 : FirstFreeIndex(options.out_dir);
  Fuzzer f(options, callbacks, std::move(*seeds), tmp->path(), first_saved);
  return f.Run();
}

}  // namespace mpo::corpus::fuzz
