// The conformance corpus on disk: `Generate` writes it, `Add` adds one's own files,
// `Check` runs another
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
// expected stream ends with an error) and printed the expected stream. Whatever the
// exit, the stream it printed is compared, and a failure carries its stderr's tail.
// Bad options (an ignored field that is not a JSON Pointer, a --supports item naming
// nothing known, a tag no case has) are kInvalidArgument naming the option.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/corpus/impl_runner.h"

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

struct AddedCase {
  std::string name;       // "<kind>/user_<stem>"
  bool replaced = false;  // it replaced the case an earlier add of that file name made
  bool expects_error = false;
};

// Adds an implementer's own files to the corpus in `dir` (created, with a MANIFEST.json,
// if it does not exist): each is copied to DIR/<kind>/user_<file name>, beside the
// oracle's expected streams, exactly as `Generate` writes a case (a rejected file is a
// case: its stream ends with the error), and listed in MANIFEST.json with its derived
// tags and "user"; the manifest is rewritten atomically. A ring must be named
// *.ocaml-5.N.events (5.0..5.5). The same file name added again replaces the case it
// made, never another one. All or nothing: a file that is not a regular file,
// unreadable, larger than kMaxCorpusFileBytes or of an unknown kind is an error naming
// it (kInvalidArgument, kIo, kResourceExhausted) before anything is written; so is a
// malformed existing manifest (ParseManifest's errors).
Result<std::vector<AddedCase>> Add(const std::string& dir, const std::vector<std::string>& files);

struct CheckOptions {
  // A shell command; every "{file}" is replaced by the case file's path (shell-quoted).
  // With `batch`, one process of it reads the cases' paths on its stdin instead
  // (batch_session.h: the protocol, and what breaking it costs).
  std::string impl;
  bool batch = false;
  double timeout_seconds = 20;
  // Selection: a case runs when it matches one of `only` (every case when empty) and
  // none of `skip`. A pattern is a substring of the case's name, or "tag:NAME" for a
  // case with that tag (MANIFEST.json "tags", tags.h).
  std::vector<std::string> only, skip;
  // What the implementation reads (tags.h ParseSupports: "memtrace-v1", "ring", ...);
  // a case outside it is counted as unsupported and not run. Empty: everything.
  std::vector<std::string> supports;
  // Members the implementation cannot provide, left out on both sides in every line:
  // JSON Pointers, "#" for any array index (jsonl_diff.h IgnoredField).
  std::vector<std::string> ignore_fields;
  // Strict mode compares a rejection by its error code (CompareMode::kStrict); this
  // compares the whole error object, wording and offsets included (kExact).
  bool exact_errors = false;
  // Output beyond this fails the case unparsed ("output exceeds ..."); the command is
  // stopped there, so memory stays bounded whatever it prints.
  std::size_t max_output_bytes = kDefaultMaxOutput;
  // Whose verdicts the implementation is held to. A reference mode uses the case's
  // stream for that mode where it has one, compares verdicts (jsonl_diff.h
  // CompareMode::kVerdict), skips cases of formats the mode does not judge and reports
  // the case's declared difference for that mode instead of running it.
  Verdicts verdicts = Verdicts::kStrict;
  // Cases judged at once, each by its own run of the implementation (in batch mode, its
  // own process); reports come in the corpus's order whatever the number.
  std::size_t jobs = 1;
};

enum class CaseOutcome : std::uint8_t { kPassed, kFailed, kDeclared, kNotJudged, kUnsupported };

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string reason;  // why it failed: the first difference, the exit status, ...
  // kDeclared: `reason` is "<reference>: <why>"; kNotJudged: the mode does not judge
  // the case's format (neither is run nor counted as passed or failed); kUnsupported:
  // outside CheckOptions::supports, not run.
  CaseOutcome outcome = CaseOutcome::kFailed;
  // A failure's stderr: at most its last kStderrLines lines and kStderrBytes bytes,
  // control characters but tabs shown as '?'; "" when it printed none.
  std::string stderr_tail;
};

struct CheckSummary {
  std::vector<CaseResult> cases;
  std::size_t passed = 0, failed = 0, declared = 0, not_judged = 0, unsupported = 0;
  // Expected files that differ at the end from what they were before any implementation
  // ran (an implementation wrote to the corpus): the run's verdicts are void.
  std::vector<std::string> changed_files;
};

// Runs the check; `on_case` is called after each case (for a streaming report).
Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case = {});

}  // namespace mpo::corpus
