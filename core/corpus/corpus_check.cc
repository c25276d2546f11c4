// corpus check: every case's decoder run, its JSON Lines compared with the expected stream.
#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "core/base/stream_digest.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/impl_runner.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/kit_guard.h"
#include "core/corpus/manifest.h"
#include "core/corpus/ordered_parallel.h"
#include "core/corpus/read_file.h"
#include "core/corpus/tags.h"
#include "core/io/input_file.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;

std::string MiB(std::size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                : std::to_string(bytes) + " bytes";
}

struct CaseVerdict {
  std::string reason;  // "" = passed
  std::string stderr_tail;
};

// The expected stream of case `c` under `options`, relative to the corpus.
const std::string& ExpectedPath(const ManifestCase& c, const CheckOptions& options) {
  const auto as = c.expected_as.find(options.verdicts);
  return as == c.expected_as.end() ? c.expected_jsonl : as->second;
}

// Digests of the expected files as they were before any implementation ran: an
// implementation can write to the corpus, so what is read later is trusted only if it
// is still the same.
class ExpectedDigests {
 public:
  ExpectedDigests() : key_(StreamDigest::RandomKey()) {}
  // Records `path`'s digest (once); its read errors are the check's.
  Status Record(const fs::path& path) {
    if (digests_.count(path.string()) != 0) return Status::Ok();
    auto text = ReadWholeFile(path.string(), kExpectedStreamFile);
    if (!text.ok()) return text.status();
    digests_.emplace(path.string(), Of(*text));
    return Status::Ok();
  }
  bool Same(const fs::path& path, const std::string& text) const {
    const auto it = digests_.find(path.string());
    return it != digests_.end() && it->second == Of(text);
  }
  // The files that now differ from their digests (or cannot be read).
  std::vector<std::string> Changed() const {
    std::vector<std::string> changed;
    for (const auto& [path, digest] : digests_) {
      auto text = ReadWholeFile(path, kExpectedStreamFile);
      if (!text.ok() || !(Of(*text) == digest)) changed.push_back(path);
    }
    return changed;
  }

 private:
  StreamDigest Of(const std::string& text) const {
    StreamDigest d(key_);
    d.Update({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    return d;
  }
  StreamDigest::Key key_;
  std::map<std::string, StreamDigest> digests_;
};

// The case's verdict; the command's stream is compared whatever its exit status, since the
// first wrong record is where a decoder that gave up went wrong.
Result<CaseVerdict> RunCase(const fs::path& root, const ManifestCase& c,
                            const CheckOptions& options, const std::vector<IgnoredField>& ignored,
                            const ExpectedDigests& digests, ImplRunner& runner) {
  const std::string file = (root / c.file).string();
  // The case file itself: the implementation must get a regular file.
  auto in = io::OpenInput(file);
  if (!in.ok()) return in.status();
  const std::string& expected_path = ExpectedPath(c, options);
  auto expected_text = ReadWholeFile((root / expected_path).string(), kExpectedStreamFile);
  if (!expected_text.ok()) return expected_text.status();
  if (!digests.Same(root / expected_path, *expected_text))
    return CaseVerdict{"expected file " + expected_path +
                           " changed during the run (an implementation wrote to the corpus); "
                           "not judged",
                       {}};
  auto expected = ParseExpectedStream(*expected_text);
  if (!expected.ok())
    return CaseVerdict{
        "expected file " + expected_path + " is not usable: " + expected.status().ToString(), {}};
  auto run = runner.Run(file);
  if (!run.ok()) return run.status();
  CaseVerdict v;
  if (run->out_truncated) {
    v.reason = "output exceeds the " + MiB(options.max_output_bytes) +
               " limit (--max-output-mib raises it); not parsed";
  } else {
    std::string status = DescribeBrokenRun(*run, runner.command());
    if (status.empty() && run->exit_code != 0 &&
        !(run->exit_code == 1 && expected->expects_error)) {
      // Exit 1 is the program's answer to a rejected input: allowed where the input is one.
      status = "exit code " + std::to_string(run->exit_code) +
               (expected->expects_error ? " where the input is rejected (0 or 1 allowed)"
                                        : " where the input is accepted");
    }
    const CompareMode mode = options.verdicts != Verdicts::kStrict ? CompareMode::kVerdict
                             : options.exact_errors                ? CompareMode::kExact
                                                                   : CompareMode::kStrict;
    const std::string diff = CompareStream(*expected, run->out, mode, ignored);
    if (status.empty())
      v.reason = diff;
    else
      v.reason = status + "; " + (diff.empty() ? "the stream printed matches" : diff);
  }
  if (!v.reason.empty()) v.stderr_tail = StderrTail(*run);
  return v;
}

bool Selected(const ManifestCase& c, const CheckOptions& o) {
  auto any = [&](const std::vector<std::string>& patterns) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return MatchesPattern(c.name, c.tags, p); });
  };
  return (o.only.empty() || any(o.only)) && !any(o.skip);
}

// Every "tag:NAME" pattern must name a tag some case has: a typo would select nothing
// (or skip nothing) silently.
Status CheckTagPatterns(const std::vector<ManifestCase>& cases, const CheckOptions& o) {
  std::set<std::string> known;
  for (const ManifestCase& c : cases) known.insert(c.tags.begin(), c.tags.end());
  for (const auto* patterns : {&o.only, &o.skip}) {
    for (const std::string& p : *patterns) {
      if (p.rfind("tag:", 0) != 0 || known.count(p.substr(4)) != 0) continue;
      std::string list;
      for (const std::string& t : known) list += (list.empty() ? "" : ", ") + t;
      return Status(ErrorCode::kInvalidArgument,
                    "no case has the tag \"" + p.substr(4) + "\" (tags: " + list + ")")
          .WithField(patterns == &o.only ? "--only" : "--skip");
    }
  }
  return Status::Ok();
}

Result<CheckSummary> CheckUnguarded(const std::string& dir, const CheckOptions& options,
                                    const std::function<void(const CaseResult&)>& on_case) {
  const ImplCommand impl{options.impl, options.batch, options.timeout_seconds,
                         options.max_output_bytes};
  MPO_RETURN_IF_ERROR(ValidateImplCommand(impl));
  std::vector<IgnoredField> ignored;
  for (const std::string& p : options.ignore_fields) {
    auto f = ParseIgnoredField(p);
    if (!f.ok()) return f.status();
    ignored.push_back(std::move(*f));
  }
  auto supports = ParseSupports(options.supports);
  if (!supports.ok()) return supports.status();
  const fs::path root(dir);
  auto manifest_text = ReadWholeFile((root / "MANIFEST.json").string(), kManifestFile);
  if (!manifest_text.ok()) return manifest_text.status();
  auto manifest = ParseManifest(*manifest_text);
  if (!manifest.ok()) return manifest.status();
  MPO_RETURN_IF_ERROR(CheckTagPatterns(*manifest, options));
  // Every expected file the run will read, as it is before any implementation runs.
  ExpectedDigests digests;
  for (const ManifestCase& c : *manifest)
    if (Selected(c, options)) MPO_RETURN_IF_ERROR(digests.Record(root / ExpectedPath(c, options)));
  // The selected cases, each judged without running or to be run.
  std::vector<CaseResult> results;
  std::vector<const ManifestCase*> to_run;  // by index into results; null: judged already
  for (const ManifestCase& c : *manifest) {
    if (!Selected(c, options)) continue;
    CaseResult r{c.name, false, {}, CaseOutcome::kFailed, {}};
    auto kind = KindOfPath(c.file);
    const auto declared = c.declared.find(options.verdicts);
    const ManifestCase* run = nullptr;
    if (!supports->Covers(c.tags)) {
      r.outcome = CaseOutcome::kUnsupported;
    } else if (kind.ok() && !VerdictsJudge(options.verdicts, FormatOfKind(*kind))) {
      r.outcome = CaseOutcome::kNotJudged;
    } else if (declared != c.declared.end()) {
      r.outcome = CaseOutcome::kDeclared;
      r.reason = declared->second.reference + "; " + declared->second.why;
    } else {
      run = &c;
    }
    results.push_back(std::move(r));
    to_run.push_back(run);
  }
  // One runner per worker: in batch mode, one process of the implementation each.
  const std::size_t jobs = std::max<std::size_t>(1, options.jobs);
  std::deque<ImplRunner> runners;  // never moved: a batch session owns a process
  for (std::size_t w = 0; w < std::min(jobs, results.size()); ++w) runners.emplace_back(impl);
  CheckSummary summary;
  Status failure = Status::Ok();
  RunOrdered<Result<CaseVerdict>>(
      results.size(), jobs,
      [&](std::size_t worker, std::size_t i) -> Result<CaseVerdict> {
        if (to_run[i] == nullptr) return CaseVerdict{};
        return GuardKit("corpus check", [&] {
          return RunCase(root, *to_run[i], options, ignored, digests, runners[worker]);
        });
      },
      [&](std::size_t i, Result<CaseVerdict> verdict) {
        if (!verdict.ok()) {
          failure = verdict.status();
          return false;
        }
        CaseResult& r = results[i];
        if (to_run[i] != nullptr) {
          r.passed = verdict->reason.empty();
          r.reason = std::move(verdict->reason);
          r.stderr_tail = std::move(verdict->stderr_tail);
          r.outcome = r.passed ? CaseOutcome::kPassed : CaseOutcome::kFailed;
        }
        switch (r.outcome) {
          case CaseOutcome::kPassed: ++summary.passed; break;
          case CaseOutcome::kFailed: ++summary.failed; break;
          case CaseOutcome::kDeclared: ++summary.declared; break;
          case CaseOutcome::kNotJudged: ++summary.not_judged; break;
          case CaseOutcome::kUnsupported: ++summary.unsupported; break;
        }
        if (on_case) on_case(r);
        summary.cases.push_back(std::move(r));
        return true;
      });
  MPO_RETURN_IF_ERROR(failure);
  summary.changed_files = digests.Changed();
  return summary;
}

}  // namespace

Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case) {
  return GuardKit("corpus check", [&] { return CheckUnguarded(dir, options, on_case); });
}

}  // namespace mpo::corpus
