// The conformance corpus on disk: `Generate` writes it, `Check` runs another
// implementation's decoder on every case and compares its JSON Lines with the expected
// stream (jsonl_diff.h).
//
// Layout (SCHEMA.md, schema 2): DIR/MANIFEST.json lists the cases; each case is
// DIR/<kind>/<file> plus <file>.expected.jsonl and <file>.expected.txt.
// Failure: typed errors for I/O (kIo: a missing, unreadable or non-regular manifest,
// case or expected file) and a malformed manifest (kCorrupt, kUnsupportedVersion, with
// the member as field; a schema 1 corpus gets manifest.h's kSchema1Message); never an
// exception. An implementation that fails on a case (crash, wrong exit code, time-out,
// too much output, bad or too deeply nested JSON, an incomplete or different stream)
// fails that case only, as does an expected file that does not parse. A case passes
// only if the command exited 0 (or 1, the exit code of a rejected input, where the
// expected stream ends with an error) and printed the expected stream.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {

struct GenerateSummary {
  std::size_t memtrace = 0, ring = 0, sampler = 0;
  std::uint64_t bytes = 0;  // every file written
};

// Writes the corpus into `dir` (created if needed; files of a previous run are
// overwritten). Deterministic: the same call writes the same bytes.
// `on_case` is called after each case is written (for progress).
Result<GenerateSummary> Generate(const std::string& dir,
                                 const std::function<void(std::size_t written)>& on_case = {});

struct CheckOptions {
  // A shell command; every "{file}" is replaced by the case file's path (shell-quoted).
  std::string impl;
  double timeout_seconds = 20;
  std::string only;  // run only cases whose name contains this ("" = all)
  // Output beyond this fails the case unparsed ("output exceeds ..."); the command is
  // stopped there, so memory stays bounded whatever it prints.
  std::size_t max_output_bytes = kDefaultMaxOutput;
  // Whose verdicts the implementation is held to. A reference mode uses the case's
  // stream for that mode where it has one, compares verdicts (jsonl_diff.h
  // CompareMode::kVerdict), skips cases of formats the mode does not judge and reports
  // the case's declared difference for that mode instead of running it.
  Verdicts verdicts = Verdicts::kStrict;
};

enum class CaseOutcome : std::uint8_t { kPassed, kFailed, kDeclared, kNotJudged };

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string reason;  // why it failed: the first difference, the exit status, ...
  // kDeclared: `reason` is "<reference>: <why>"; kNotJudged: the mode does not judge
  // the case's format (neither is run nor counted as passed or failed).
  CaseOutcome outcome = CaseOutcome::kFailed;
};

struct CheckSummary {
  std::vector<CaseResult> cases;
  std::size_t passed = 0, failed = 0, declared = 0, not_judged = 0;
};

// Runs the check; `on_case` is called after each case (for a streaming report).
Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case = {});

}  // namespace mpo::corpus
