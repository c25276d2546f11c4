// The members every schema 2 stream shares (core/corpus/SCHEMA.md): the typed error
// object and the trailer line, written the same way by the memtrace, ring and sampler
// views.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::view_json {

// {"code":"corrupt","check":"packet header: magic","offset":1234|null[,"bit":3]}
// (`check` is the status's field; `bit` only when the status has a bit offset).
void AppendError(std::string& out, const Status& s);

// The last line of a stream: {"kind":"end_of_stream","error":null|ERROR,"records":N}\n.
void AppendEndLine(std::string& out, const Status& s, std::uint64_t records);

}  // namespace mpo::view_json
