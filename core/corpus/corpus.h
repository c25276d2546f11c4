// The conformance corpus on disk: `Generate` writes it, `Check` runs another
// implementation's decoder on every case and compares its JSON with the expected one.
//
// Layout (SCHEMA.md): DIR/MANIFEST.json lists the cases; each case is
// DIR/<kind>/<file> plus <file>.expected.json and <file>.expected.txt.
// Failure: typed errors for I/O and a malformed manifest; an implementation that fails
// on a case (crash, non-zero exit, timeout, bad JSON, different JSON) fails that case only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"

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
