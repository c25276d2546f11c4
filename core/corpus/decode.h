// The reference decode of one corpus case: what `corpus decode FILE` prints and what
// another implementation's decoder must print (schema 2, SCHEMA.md).
//
// The case kind comes from the file name:
//   *.ctf                  memtrace trace
//   *.ocaml-5.N.events     runtime events ring, names of OCaml release 5.N
//   *.sampler.json         sampler vector request
// Each decoder writes one stream to a TextSink as it decodes: the JSON Lines view
// (header, records, end line) or the text form. A rejected input is part of the stream
// (the end line's "error", or an `error:` line in the text form) and is also returned,
// so that callers can set their exit code. Threading: no shared state.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/base/verdicts.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"
#include "core/ring/event_names.h"

namespace mpo::corpus {

enum class CaseKind : std::uint8_t { kMemtrace, kRing, kSampler };
enum class DecodeForm : std::uint8_t { kJsonLines, kText };

// The kind named by `path`'s suffix; kInvalidArgument for other names.
Result<CaseKind> KindOfPath(std::string_view path);
const char* KindName(CaseKind k);  // "memtrace", "ring", "sampler"

// Each returns the decoding status the stream ended with (Ok for an accepted input).
// JSON Lines: exactly memtrace::view::WriteJsonView with default options, which is what
// `memtrace dump --json` prints.
// `verdicts`: whose verdict malformed input gets (core/base/verdicts.h); a mode must
// judge the case's format (VerdictsJudge), which DecodeFile checks.
// `limits`: the reader's budgets (core/memtrace/limits.h), `memtrace dump`'s defaults
// unless a caller raises them for a large trace.
Status DecodeMemtrace(memtrace::ByteSource& source, DecodeForm form, TextSink& out,
                      Verdicts verdicts = Verdicts::kStrict, const memtrace::Limits& limits = {});
// JSON Lines: exactly ring::view::WriteJsonView, which is what `events dump --json` prints.
Status DecodeRing(std::span<const std::uint8_t> bytes, ring::OcamlVersion version, DecodeForm form,
                  TextSink& out, Verdicts verdicts = Verdicts::kStrict);
// A request {"seed","lambda","mode":"geometric","count"} or {..,"mode":"binomial",
// "lengths":[..]}; a malformed or too costly request is the stream's error.
Status DecodeSampler(std::string_view request_json, DecodeForm form, TextSink& out);

struct DecodeOutcome {
  Status ended_with;  // the decoding status the stream ended with (Ok: input accepted)
};

// Opens `path` and writes its stream. Fails, having written nothing, when the file
// cannot be opened, its name names no kind (or an unknown OCaml release), or `verdicts`
// does not judge that kind (kInvalidArgument, field "--as").
Result<DecodeOutcome> DecodeFile(const std::string& path, DecodeForm form, TextSink& out,
                                 Verdicts verdicts = Verdicts::kStrict,
                                 const memtrace::Limits& limits = {});
VerdictFormat FormatOfKind(CaseKind k);

}  // namespace mpo::corpus
