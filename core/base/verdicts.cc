#include "core/base/verdicts.h"

#include <array>
#include <cstddef>
#include <string>

namespace mpo {
namespace {

constexpr MemtraceRules kMemtrace023Rules{
    .min_version = 1,
    .max_version = 2,
    .versions_reader = "memtrace 0.2.3",
    .mixed_versions = true,
    .domain_streams_every_version = false,
    .info_packet_within_buffer = true,
    .skip_truncated_last_packet = true,
    .body_within_buffer = true,
};

// HEAD refuses only versions above its own, and has no v1/v2 special case.
constexpr MemtraceRules kMemtraceHeadRules{
    .min_version = 0,
    .max_version = 3,
    .versions_reader = "memtrace HEAD",
    .mixed_versions = true,
    .domain_streams_every_version = true,
    .info_packet_within_buffer = true,
    .skip_truncated_last_packet = true,
    .body_within_buffer = true,
};

constexpr RingRules kOcaml53Rules{
    .lenient_metadata = true,
    .lost_words_as_c_int = true,
    .extra_alloc_buckets_dropped = true,
    .unterminated_name_refused = true,
    .nameless_custom_dropped = true,
    .message_within_tail = false,
    .tail_within_lap = false,
};

// 5.0.0, 5.1.1 and 5.2.0 read rings with 5.3's consumer code for every class of
// VERDICTS.md, as far as their runtimes' own rings show (conformance/releases/); 5.0.0's
// binding alone returns a poll's count through Int_val (n >> 2 once OCaml reads it). Their other
// difference (the data of a 2-word ring_stop, read from stale buffer memory) is declared, not
// copied.
constexpr RingRules kOcaml51Rules = kOcaml53Rules;
constexpr RingRules kOcaml50Rules = [] {
  RingRules r = kOcaml53Rules;
  r.poll_count_as_int_val = true;
  return r;
}();

// Rows in enumerator order. A mode that does not judge a format reads it by kStrict's
// rules (the value-initialised half of its VerdictRules).
constexpr std::array<VerdictMode, 7> kModes = {{
    {.id = Verdicts::kStrict,
     .name = "strict",
     .reference = "",
     .judges = "every format",
     .gives = "refuses every malformation the oracle detects, with a typed error naming the "
              "check and the byte offset",
     .memtrace = true,
     .ring = true,
     .sampler = true,
     .rules = {}},
    {.id = Verdicts::kMemtrace023,
     .name = "memtrace-0.2.3",
     .reference = "janestreet/memtrace 0.2.3's reader",
     .judges = "memtrace traces v1, v2",
     .gives = "the verdict of janestreet/memtrace 0.2.3's reader (`Trace.Reader.iter`, as "
              "`dump_trace` runs it)",
     .memtrace = true,
     .ring = false,
     .sampler = false,
     .rules = {.memtrace = kMemtrace023Rules, .ring = {}}},
    {.id = Verdicts::kMemtraceHead,
     .name = "memtrace-head",
     .reference = "janestreet/memtrace HEAD (a88470c)'s reader",
     .judges = "memtrace traces v0 to v3",
     .gives = "the verdict of memtrace HEAD (a88470c)'s reader",
     .memtrace = true,
     .ring = false,
     .sampler = false,
     .rules = {.memtrace = kMemtraceHeadRules, .ring = {}}},
    {.id = Verdicts::kOcaml50,
     .name = "ocaml-5.0",
     .reference = "OCaml 5.0.0's runtime_events consumer",
     .judges = "ring files",
     .gives = "the events OCaml 5.0.0's consumer delivers and the count its `read_poll` "
              "returns (a quarter); malformed files as `ocaml-5.3`",
     .memtrace = false,
     .ring = true,
     .sampler = false,
     .rules = {.memtrace = {}, .ring = kOcaml50Rules}},
    {.id = Verdicts::kOcaml51,
     .name = "ocaml-5.1",
     .reference = "OCaml 5.1.1's runtime_events consumer",
     .judges = "ring files",
     .gives = "the events OCaml 5.1.1's consumer delivers; malformed files as `ocaml-5.3`",
     .memtrace = false,
     .ring = true,
     .sampler = false,
     .rules = {.memtrace = {}, .ring = kOcaml51Rules}},
    {.id = Verdicts::kOcaml52,
     .name = "ocaml-5.2",
     .reference = "OCaml 5.2.0's runtime_events consumer",
     .judges = "ring files",
     .gives = "the events OCaml 5.2.0's consumer delivers; malformed files as `ocaml-5.3`",
     .memtrace = false,
     .ring = true,
     .sampler = false,
     .rules = {.memtrace = {}, .ring = kOcaml51Rules}},
    {.id = Verdicts::kOcaml53,
     .name = "ocaml-5.3",
     .reference = "OCaml 5.3's runtime_events consumer",
     .judges = "ring files",
     .gives = "the verdict of OCaml 5.3's runtime_events consumer (7b7e917)",
     .memtrace = false,
     .ring = true,
     .sampler = false,
     .rules = {.memtrace = {}, .ring = kOcaml53Rules}},
}};

constexpr bool InEnumeratorOrder() {
  for (std::size_t i = 0; i < kModes.size(); ++i)
    if (static_cast<std::size_t>(kModes[i].id) != i) return false;
  return true;
}
static_assert(InEnumeratorOrder(), "kModes[i] must be the row of enumerator i");

constexpr std::array<Verdicts, kModes.size()> Ids() {
  std::array<Verdicts, kModes.size()> ids{};
  for (std::size_t i = 0; i < kModes.size(); ++i) ids[i] = kModes[i].id;
  return ids;
}
constexpr std::array<Verdicts, kModes.size()> kAll = Ids();

}  // namespace

std::span<const VerdictMode> VerdictModes() { return kModes; }

const VerdictMode& ModeOf(Verdicts v) { return kModes.at(static_cast<std::size_t>(v)); }

const VerdictRules& RulesOf(Verdicts v) { return ModeOf(v).rules; }

std::string_view VerdictsName(Verdicts v) { return ModeOf(v).name; }

std::optional<Verdicts> ParseVerdicts(std::string_view name) {
  for (const VerdictMode& m : kModes)
    if (m.name == name) return m.id;
  return std::nullopt;
}

std::span<const Verdicts> AllVerdicts() { return kAll; }

bool VerdictsJudge(Verdicts v, VerdictFormat format) {
  const VerdictMode& m = ModeOf(v);
  switch (format) {
    case VerdictFormat::kMemtrace: return m.memtrace;
    case VerdictFormat::kRing: return m.ring;
    case VerdictFormat::kSampler: return m.sampler;
  }
  return false;
}

std::string_view VerdictsNames() {
  static const std::string names = [] {
    std::string s;
    for (const VerdictMode& m : kModes) {
      if (!s.empty()) s += ", ";
      s += m.name;
    }
    return s;
  }();
  return names;
}

}  // namespace mpo
