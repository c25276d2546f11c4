// What every schema 2 stream shares (core/corpus/SCHEMA.md): the schema number, the
// header's opening members, the typed error object and the trailer line, written the
// same way by the memtrace, ring and sampler views.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/json_writer.h"
#include "core/base/status.h"

namespace mpo::view_json {

// The version of the decoded views' JSON Lines (core/corpus/SCHEMA.md); the corpus
// MANIFEST carries it too, and the OCaml adapters in conformance/peers print it.
inline constexpr int kViewSchema = 2;

// Opens a stream's header line: {"schema":2,"format":"<format>" and leaves the object
// open for the view's own members.
void BeginHeader(JsonWriter& w, std::string_view format);

// {"code":"corrupt","check":"packet header: magic","offset":1234|null[,"bit":3]}
// (`check` is the status's field; `bit` only when the status has a bit offset).
void WriteError(JsonWriter& w, const Status& s);
void AppendError(std::string& out, const Status& s);

// The last line of a stream: {"kind":"end_of_stream","error":null|ERROR,"records":N}\n.
void WriteEndLine(JsonWriter& w, const Status& s, std::uint64_t records);
void AppendEndLine(std::string& out, const Status& s, std::uint64_t records);

}  // namespace mpo::view_json
