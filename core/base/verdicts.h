// Verdict modes: whose verdict the oracle gives on malformed input (conformance/VERDICTS.md).
//
// kStrict (the default) rejects every malformation the oracle can detect. The other modes
// give a real implementation's verdict where that verdict is well defined (same
// accept/reject, same events before the error), so that an implementer can test against
// either; where the reference crashes, hangs or reads out of bounds, every mode keeps the
// oracle's clean error and the corpus declares the difference.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mpo {

enum class Verdicts : std::uint8_t {
  kStrict,
  kMemtrace023,   // janestreet/memtrace 0.2.3's reader: traces v1 and v2
  kMemtraceHead,  // janestreet/memtrace HEAD (a88470c)'s reader: traces v1 to v3
  kOcaml53,       // OCaml 5.3's runtime_events consumer: ring files
};

// What a mode judges; kStrict judges every format.
enum class VerdictFormat : std::uint8_t { kMemtrace, kRing, kSampler };

// "strict", "memtrace-0.2.3", "memtrace-head", "ocaml-5.3".
std::string_view VerdictsName(Verdicts v);
std::optional<Verdicts> ParseVerdicts(std::string_view name);
// Every mode, kStrict first.
std::span<const Verdicts> AllVerdicts();
// Whether `v` has a verdict of its own on inputs of `format` (kStrict: every format).
bool VerdictsJudge(Verdicts v, VerdictFormat format);
// "strict, memtrace-0.2.3, ..." for usage messages.
std::string_view VerdictsNames();

}  // namespace mpo
