// One input judged by both sides: the oracle's stream (in process, corpus::DecodeMemtrace
// or DecodeRing under a verdict mode) and the implementation's (run exactly as
// `corpus check` runs it: run_command.h's time limit, output cap and process group),
// compared as `corpus check --as MODE` compares them (jsonl_diff.h: records and error
// codes in strict mode, the whole error too with exact_errors, verdicts and records in a
// reference mode).
//
// A divergence gets a signature naming its class, stable across inputs so that the
// fuzzer can count classes, minimize keeping the class, and match declared differences:
//   oracle=accept|reject(CHECK) impl=OUTCOME[ differs=PLACE]
// CHECK is the oracle's error "check" (the failing field, e.g. "packet header: magic"),
// each number in it as '#' ("ring #: alloc event");
// OUTCOME is accept, reject (never the implementation's wording, its own and perhaps
// naming offsets), timeout, signal-N (also for exit 128 + N, a shell's report of a
// signal), exit-N, output-cap, no-end-line, bad-output, killed-supervisor or
// batch-protocol. `differs` is added when the verdicts agree but the streams do not:
// PLACE is the first difference's JSON pointer with array indices as '#' (e.g.
// /info/pid, /error/code), or "lines" where one stream ends before the other. No byte
// position is part of it: one cause at any offset is one class.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/corpus/fuzz/mutate.h"
#include "core/corpus/impl_runner.h"

namespace mpo::corpus::fuzz {

struct ImplConfig {
  std::string command;  // with {file}, replaced by the shell-quoted input path
  bool batch = false;   // the command reads paths on stdin instead (batch_session.h)
  // Strict mode compares a rejection by its error code, as corpus check does; this
  // compares the whole error object (CompareMode::kExact).
  bool exact_errors = false;
  double timeout_seconds = 20;
  std::size_t max_output_bytes = std::size_t{64} << 20;
  Verdicts verdicts = Verdicts::kStrict;
};

struct Judgement {
  bool agree = false;
  std::string signature;    // empty when they agree
  std::string oracle;       // the oracle's verdict: "accept" or "reject(CHECK): message"
  std::string impl;         // the implementation's outcome
  std::string difference;   // corpus check's reason (first difference), empty on agreement
  std::string impl_stderr;  // the end of its stderr (impl_runner.h StderrTail) on divergence
};

// Writes `bytes` to `path` (whose suffix names the format, e.g. ".ctf"), decodes it with
// the oracle and runs the implementation on it. kIo when the file cannot be written or
// the command cannot be started; a failing implementation is a Judgement, never an error.
// `runner` runs `impl`'s command (RunnerCommand(impl)), held across calls so that a batch
// process serves every input.
Result<Judgement> Judge(std::span<const std::uint8_t> bytes, const std::string& path,
                        FuzzFormat format, const ImplConfig& impl, ImplRunner& runner);

// The runner's view of `impl`.
ImplCommand RunnerCommand(const ImplConfig& impl);

}  // namespace mpo::corpus::fuzz
