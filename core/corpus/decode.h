// The reference decode of one corpus case: what `corpus decode FILE` prints and what
// another implementation's decoder must print (schema: SCHEMA.md).
//
// The case kind comes from the file name:
//   *.ctf                  memtrace trace
//   *.ocaml-5.N.events     runtime events ring, names of OCaml release 5.N
//   *.sampler.json         sampler vector request
// Decoding errors of the input are part of the decode (an "error" member), not a failure
// of this function; it fails only when the file cannot be read or its kind is unknown.
// Threading: no shared state.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace mpo::corpus {

enum class CaseKind : std::uint8_t { kMemtrace, kRing, kSampler };

struct Decoded {  // NOLINT(bugprone-exception-escape): json members may throw on OOM only
  nlohmann::json json;
  std::string text;  // the human-readable form (dump_trace / re_dump lines / draws)
};

// The kind named by `path`'s suffix; kInvalidArgument for other names.
Result<CaseKind> KindOfPath(std::string_view path);
const char* KindName(CaseKind k);  // "memtrace", "ring", "sampler"

Result<Decoded> DecodeMemtrace(std::span<const std::uint8_t> bytes);
// `ocaml_version` is "5.0" .. "5.5".
Result<Decoded> DecodeRing(std::span<const std::uint8_t> bytes, std::string_view ocaml_version);
Result<Decoded> DecodeSampler(std::string_view request_json);

// Reads `path` and dispatches on its kind.
Result<Decoded> DecodeFile(const std::string& path);

// The typed error of a decode: {"code","check","offset"[,"bit"]}.
nlohmann::json ErrorJson(const Status& s);

// One line of canonical JSON (sorted keys, invalid UTF-8 replaced).
std::string DumpJson(const nlohmann::json& j, int indent = -1);

}  // namespace mpo::corpus
