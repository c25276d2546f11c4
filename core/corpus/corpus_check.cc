// corpus check: every case's decoder run, its JSON Lines compared with the expected stream.
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/manifest.h"
#include "core/corpus/read_file.h"
#include "core/corpus/run_command.h"
#include "core/io/input_file.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;

std::string MiB(std::size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                : std::to_string(bytes) + " bytes";
}

// The verdict on one case; `reason` empty means it passed.
Result<std::string> RunCase(const fs::path& root, const ManifestCase& c,
                            const CheckOptions& options) {
  const std::string file = (root / c.file).string();
  // The case file itself: the implementation must get a regular file.
  auto in = io::OpenInput(file);
  if (!in.ok()) return in.status();
  const auto as = c.expected_as.find(options.verdicts);
  const std::string& expected_path = as == c.expected_as.end() ? c.expected_jsonl : as->second;
  auto expected_text = ReadWholeFile((root / expected_path).string());
  if (!expected_text.ok()) return expected_text.status();
  auto expected = ParseExpectedStream(*expected_text);
  if (!expected.ok())
    return "expected file " + expected_path + " is not usable: " + expected.status().ToString();
  auto run = RunCommand(SubstituteFile(options.impl, file), options.timeout_seconds,
                        options.max_output_bytes);
  if (!run.ok()) return run.status();
  if (run->out_truncated)
    return "output exceeds the " + MiB(options.max_output_bytes) +
           " limit (--max-output-mib raises it); not parsed";
  if (run->timed_out) return "timed out after " + std::to_string(options.timeout_seconds) + " s";
  if (run->signal != 0) return "killed by signal " + std::to_string(run->signal);
  // Exit 1 is the program's answer to a rejected input: allowed where the input is one.
  const bool allowed_exit = run->exit_code == 0 || (run->exit_code == 1 && expected->expects_error);
  if (!allowed_exit) return "exit code " + std::to_string(run->exit_code);
  return CompareStream(
      *expected, run->out,
      options.verdicts == Verdicts::kStrict ? CompareMode::kExact : CompareMode::kVerdict);
}

Result<CheckSummary> CheckUnguarded(const std::string& dir, const CheckOptions& options,
                                    const std::function<void(const CaseResult&)>& on_case) {
  if (options.impl.find("{file}") == std::string::npos)
    return Status(ErrorCode::kInvalidArgument, "the command has no {file} placeholder")
        .WithField("--impl");
  if (options.max_output_bytes == 0)
    return Status(ErrorCode::kInvalidArgument, "the output limit must be positive")
        .WithField("--max-output-mib");
  const fs::path root(dir);
  auto manifest_text = ReadWholeFile((root / "MANIFEST.json").string());
  if (!manifest_text.ok()) return manifest_text.status();
  auto manifest = ParseManifest(*manifest_text);
  if (!manifest.ok()) return manifest.status();
  CheckSummary summary;
  for (const ManifestCase& c : *manifest) {
    if (!options.only.empty() && c.name.find(options.only) == std::string::npos) continue;
    CaseResult r{c.name, false, {}, CaseOutcome::kFailed};
    auto kind = KindOfPath(c.file);
    const auto declared = c.declared.find(options.verdicts);
    if (kind.ok() && !VerdictsJudge(options.verdicts, FormatOfKind(*kind))) {
      r.outcome = CaseOutcome::kNotJudged;
      ++summary.not_judged;
    } else if (declared != c.declared.end()) {
      r.outcome = CaseOutcome::kDeclared;
      r.reason = declared->second.reference + "; " + declared->second.why;
      ++summary.declared;
    } else {
      auto reason = RunCase(root, c, options);
      if (!reason.ok()) return reason.status();
      r.passed = reason->empty();
      r.reason = std::move(*reason);
      r.outcome = r.passed ? CaseOutcome::kPassed : CaseOutcome::kFailed;
      (r.passed ? summary.passed : summary.failed)++;
    }
    if (on_case) on_case(r);
    summary.cases.push_back(std::move(r));
  }
  return summary;
}

}  // namespace

// nlohmann::json throws on misuse and on memory exhaustion; neither may leave the kit.
Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case) {
  try {
    return CheckUnguarded(dir, options, on_case);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("corpus check");
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField("corpus check");
  }
}

}  // namespace mpo::corpus
