#include "core/corpus/fuzz/judge.h"

#include <algorithm>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>

#include "core/base/text_sink.h"
#include "core/corpus/decode.h"
#include "core/corpus/impl_runner.h"
#include "core/corpus/json_limits.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/kit_guard.h"
#include "core/memtrace/byte_io.h"
#include "core/ring/event_names.h"

namespace mpo::corpus::fuzz {
namespace {

constexpr int kMaxSignal = 64;  // Linux's highest signal number

// Not through io::AtomicOutput: the path is a scratch file in the fuzzer's own mkdtemp
// folder (removed on exit and on termination signals), rewritten for every mutant, where
// an fsync and a rename each time would cost more than judging the mutant.
Status WriteInput(std::span<const std::uint8_t> bytes, const std::string& path) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return Status(ErrorCode::kIo, "cannot write the fuzzer's input").WithField(path);
  return Status::Ok();
}

struct OracleRun {
  std::string text;  // its JSON Lines
  Status ended_with;
};

OracleRun RunOracle(std::span<const std::uint8_t> bytes, const std::string& path, FuzzFormat format,
                    Verdicts verdicts) {
  StringTextSink sink;
  OracleRun run;
  if (format == FuzzFormat::kMemtrace) {
    auto source = memtrace::MemorySource(bytes);
    run.ended_with = DecodeMemtrace(*source, DecodeForm::kJsonLines, sink, verdicts);
  } else {
    const auto version = ring::OcamlVersionOfFileName(path).value_or(ring::kDefaultOcamlVersion);
    run.ended_with = DecodeRing(bytes, version, DecodeForm::kJsonLines, sink, verdicts);
  }
  run.text = std::move(sink.text);
  return run;
}

// The implementation's own verdict, read from its end line: accept or reject, never its
// error's wording, which is its own (and may hold offsets that differ with every input).
std::string ImplVerdict(std::string_view out) {
  while (!out.empty() && out.back() == '\n') out.remove_suffix(1);
  if (out.empty()) return "no-end-line";
  const auto nl = out.rfind('\n');
  const std::string_view last = nl == std::string_view::npos ? out : out.substr(nl + 1);
  auto j = ParseJsonBounded(last);
  if (!j.ok()) return "bad-output";
  if (!j->is_object() || !j->contains("kind") || (*j)["kind"] != "end_of_stream" ||
      !j->contains("error"))
    return "no-end-line";
  return (*j)["error"].is_null() ? "accept" : "reject";
}

// Where two streams with the same verdict part, for the signature: the JSON pointer of
// the first difference with array indices as '#' ("/info/pid", "/backtrace/#"), since
// one cause (say a field printed unsigned) shows at that place whatever the input; or
// "lines" when one stream has a record where the other ends.
std::string DifferencePlace(const std::string& difference) {
  const std::string at = ": at ";
  const std::size_t from = difference.find(at);
  if (from == std::string::npos) return "lines";
  const std::size_t begin = from + at.size();
  const std::string path = difference.substr(begin, difference.find(": ", begin) - begin);
  std::string out;
  for (std::size_t i = 0; i < path.size();) {
    const std::size_t end = std::min(path.find('/', i + 1), path.size());
    const std::string segment = path.substr(i, end - i);
    const bool index =
        segment.size() > 1 && segment.find_first_not_of("0123456789", 1) == std::string::npos;
    out += index ? "/#" : segment;
    i = end;
  }
  return out;
}

// The oracle's check with each number as '#': "ring 1: alloc event" and "ring 0: alloc
// event" are one check, met in another domain's ring.
std::string NumbersAsHash(const std::string& check) {
  std::string out;
  for (std::size_t i = 0; i < check.size(); ++i) {
    const bool digit = check[i] >= '0' && check[i] <= '9';
    if (!digit)
      out += check[i];
    else if (i == 0 || !(check[i - 1] >= '0' && check[i - 1] <= '9'))
      out += '#';
  }
  return out;
}

// A reference mode compares verdicts and records, not the wording of errors; strict mode
// a rejection's error code (the whole error with exact_errors).
CompareMode CompareModeOf(const ImplConfig& impl) {
  if (impl.verdicts != Verdicts::kStrict) return CompareMode::kVerdict;
  return impl.exact_errors ? CompareMode::kExact : CompareMode::kStrict;
}

Judgement JudgeOutputs(const OracleRun& oracle, const CommandOutcome& run, const ImplConfig& impl) {
  Judgement j;
  j.oracle = oracle.ended_with.ok() ? "accept"
                                    : "reject(" + NumbersAsHash(oracle.ended_with.field()) + ")";
  const std::string oracle_class = j.oracle;
  if (!oracle.ended_with.ok()) j.oracle += ": " + oracle.ended_with.message();
  auto expected = ParseExpectedStream(oracle.text);
  if (!expected.ok()) {
    // The oracle's own stream must always parse; if it does not, that is its bug, and
    // the fuzzer reports it like any other divergence.
    j.signature = "oracle=bad-stream";
    j.difference = expected.status().ToString();
    return j;
  }
  if (run.out_truncated) {
    j.impl = "output-cap";
    j.difference = "output exceeds the " + std::to_string(impl.max_output_bytes) + " byte limit";
  } else if (run.supervisor_died) {
    j.impl = "killed-supervisor";
    j.difference = DescribeBrokenRun(run, RunnerCommand(impl));
  } else if (run.timed_out) {
    j.impl = "timeout";
    j.difference = DescribeBrokenRun(run, RunnerCommand(impl));
  } else if (!run.protocol_error.empty() && run.signal == 0) {
    j.impl = "batch-protocol";
    j.difference = DescribeBrokenRun(run, RunnerCommand(impl));
  } else if (run.signal != 0) {
    j.impl = "signal-" + std::to_string(run.signal);
    j.difference = "killed by signal " + std::to_string(run.signal);
  } else if (run.exit_code > 128 && run.exit_code <= 128 + kMaxSignal) {
    // A shell that does not exec its last command reports the command's death by signal
    // N as exit 128 + N; a declared rule should not depend on which shell ran it.
    j.impl = "signal-" + std::to_string(run.exit_code - 128);
    j.difference = "exit code " + std::to_string(run.exit_code) + " (signal " +
                   std::to_string(run.exit_code - 128) + " under the shell)";
  } else if (run.exit_code != 0 && !(run.exit_code == 1 && expected->expects_error)) {
    j.impl = "exit-" + std::to_string(run.exit_code);
    // The stream up to where it gave up shows the first wrong record, as corpus check
    // reports it.
    const std::string diff = CompareStream(*expected, run.out, CompareModeOf(impl));
    j.difference = "exit code " + std::to_string(run.exit_code) + "; " +
                   (diff.empty() ? "the stream printed matches" : diff);
  } else {
    j.impl = ImplVerdict(run.out);
    j.difference = CompareStream(*expected, run.out, CompareModeOf(impl));
  }
  j.agree = j.difference.empty();
  if (j.agree) return j;
  j.impl_stderr = StderrTail(run);
  // The class is the verdicts and, where they agree, the member where the streams part:
  // never a byte position or the implementation's wording, so that one cause is one class.
  j.signature = "oracle=" + oracle_class + " impl=" + j.impl;
  const bool same_verdict = (j.impl == "accept" && oracle.ended_with.ok()) ||
                            (j.impl == "reject" && !oracle.ended_with.ok());
  if (same_verdict) j.signature += " differs=" + DifferencePlace(j.difference);
  return j;
}

}  // namespace

ImplCommand RunnerCommand(const ImplConfig& impl) {
  return {impl.command, impl.batch, impl.timeout_seconds, impl.max_output_bytes};
}

Result<Judgement> Judge(std::span<const std::uint8_t> bytes, const std::string& path,
                        FuzzFormat format, const ImplConfig& impl, ImplRunner& runner) {
  if (Status s = WriteInput(bytes, path); !s.ok()) return s;
  return GuardKit("corpus fuzz", [&]() -> Result<Judgement> {
    const OracleRun oracle = RunOracle(bytes, path, format, impl.verdicts);
    auto run = runner.Run(path);
    if (!run.ok()) return run.status();
    return JudgeOutputs(oracle, *run, impl);
  });
}

}  // namespace mpo::corpus::fuzz
