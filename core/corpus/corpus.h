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
#include "core/corpus/run_command.h"

namespace mpo::corpus {

struct GenerateSummary {
  std::size_t memtrace = 0, ring = 0, sampler = 0;
  std::uint64_t bytes = 0;  // every file written
};

// Writes the corpus into `dir` (created if needed; files of a previous run are
// overwritten). Deterministic: the same call writes the same bytes.
Result<GenerateSummary> Generate(const std::string& dir);

struct CheckOptions {
  // A shell command; every "{file}" is replaced by the case file's path (shell-quoted).
  std::string impl;
  double timeout_seconds = 20;
  std::string only;  // run only cases whose name contains this ("" = all)
  // Output beyond this fails the case unparsed ("output exceeds ..."); the command is
  // stopped there, so memory stays bounded whatever it prints.
  std::size_t max_output_bytes = kDefaultMaxOutput;
};

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string reason;  // why it failed: the first difference, the exit status, ...
};

struct CheckSummary {
  std::vector<CaseResult> cases;
  std::size_t passed = 0, failed = 0;
};

// Runs the check; `on_case` is called after each case (for a streaming report).
Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case = {});

}  // namespace mpo::corpus
