// Verdict modes: whose verdict the oracle gives on malformed input (conformance/VERDICTS.md).
//
// kStrict (the default) rejects every malformation the oracle can detect. The other modes
// give a real implementation's verdict where that verdict is well defined (same
// accept/reject, same events before the error), so that an implementer can test against
// either; where the reference crashes, hangs or reads out of bounds, every mode keeps the
// oracle's clean error and the corpus declares the difference.
//
// The modes are one table (VerdictModes(), verdicts.cc): a row names the mode, the
// reference it follows, what it judges, and its rules: one named field per behaviour in
// which it departs from kStrict. The decoders take the rules (memtrace::ReaderOptions,
// ring::CursorOptions), never a mode; `--as` and its help, and the list of modes in
// conformance/VERDICTS.md (checked by verdicts_test), come from the table.
//
// Adding a mode: an enumerator below, a row in verdicts.cc with its rules (a new kind of
// departure is a new rules field, defaulting to kStrict's behaviour, tested where its
// decoder reads it), the row's line in VERDICTS.md's list, and the corpus's declared
// differences for it (CaseInput::declared).
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
  kOcaml50,       // OCaml 5.0.0's runtime_events consumer: ring files
  kOcaml51,       // OCaml 5.1.1's
  kOcaml52,       // OCaml 5.2.0's
  kOcaml53,       // OCaml 5.3's runtime_events consumer: ring files
};

// What a mode judges; kStrict judges every format.
enum class VerdictFormat : std::uint8_t { kMemtrace, kRing, kSampler };

// How a memtrace reader departs from kStrict. Value-initialised: kStrict's rules.
struct MemtraceRules {
  // Packet format versions read at all (others: kUnsupportedVersion), and who reads them,
  // for that error ("memtrace 0.2.3 reads v001 and v002").
  std::uint8_t min_version = 1;
  std::uint8_t max_version = 3;
  std::string_view versions_reader = "this reader";
  // A packet of another format version than the trace info's is read, not refused.
  bool mixed_versions = false;
  // v0 to v2 traces are read with v3's per-domain streams (no v1/v2 stream rules).
  bool domain_streams_every_version = false;
  // A trace info packet over memtrace's 32 KiB read buffer is refused.
  bool info_packet_within_buffer = false;
  // A truncated last packet is skipped (with a warning), not refused.
  bool skip_truncated_last_packet = false;
  // A packet body over memtrace's 32 KiB read buffer is refused (the reference misreads
  // it: a declared difference).
  bool body_within_buffer = false;
};

// How the ring cursor departs from kStrict. Value-initialised: kStrict's rules.
struct RingRules {
  // The metadata header is checked as OCaml 5.3's consumer checks it: each domain is
  // placed when a poll reaches it, not the whole file at open (ring/placement.h).
  bool lenient_metadata = false;
  // Lost words are delivered through a C int (the low 32 bits, sign-extended).
  bool lost_words_as_c_int = false;
  // An alloc event of more than 20 buckets delivers the first 20 (not refused).
  bool extra_alloc_buckets_dropped = false;
  // A unit, int or span user event whose name fills its 128-byte slot is refused.
  bool unterminated_name_refused = false;
  // A custom (or unknown-type) user event with an empty name is dropped unread.
  bool nameless_custom_dropped = false;
  // A message must end at or before the tail; the tail at most one lap ahead of the head
  // (ring_protocol.h ReadRules).
  bool message_within_tail = true;
  bool tail_within_lap = true;
  // A poll returns the count of events it consumed as OCaml 5.0.0's binding hands it
  // over: `CAMLreturn(Int_val(n))` returns the untagged n >> 1 as an OCaml value, which
  // OCaml reads back as the int n >> 2 (so a poll of 1 to 3 events reads as 0, and a
  // program polling until 0 stops there).
  bool poll_count_as_int_val = false;
};

struct VerdictRules {
  MemtraceRules memtrace;
  RingRules ring;
};

// One row of the table.
struct VerdictMode {
  Verdicts id;
  std::string_view name;         // the `--as` value: "memtrace-0.2.3"
  std::string_view reference;    // the implementation it follows; empty for kStrict
  std::string_view judges;       // the inputs it has a verdict of its own on, in words
  std::string_view gives;        // one line: what it gives (help, VERDICTS.md)
  bool memtrace, ring, sampler;  // the formats it judges (VerdictsJudge)
  VerdictRules rules;
};

// Every mode, kStrict first, in enumerator order.
std::span<const VerdictMode> VerdictModes();
const VerdictMode& ModeOf(Verdicts v);
const VerdictRules& RulesOf(Verdicts v);

// "strict", "memtrace-0.2.3", "memtrace-head", "ocaml-5.0", ..., "ocaml-5.3".
std::string_view VerdictsName(Verdicts v);
std::optional<Verdicts> ParseVerdicts(std::string_view name);
// Every mode, kStrict first.
std::span<const Verdicts> AllVerdicts();
// Whether `v` has a verdict of its own on inputs of `format` (kStrict: every format).
bool VerdictsJudge(Verdicts v, VerdictFormat format);
// "strict, memtrace-0.2.3, ..." for usage messages.
std::string_view VerdictsNames();

}  // namespace mpo
