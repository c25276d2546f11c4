// The schema 2 JSON Lines view of a runtime events ring file (core/corpus/SCHEMA.md):
// what `events dump --json` and `corpus decode` print, byte for byte.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/ring/event_names.h"

namespace mpo::ring::view {

// Reads every ring of `file` with one poll of a fresh cursor, names ids with release
// `version`'s tables, and writes the whole stream (header, records, trailer); a decoding
// error ends the stream with the error in the trailer. Returns that decoding status.
Status WriteJsonView(std::span<const std::byte> file, OcamlVersion version, TextSink& out);

}  // namespace mpo::ring::view
