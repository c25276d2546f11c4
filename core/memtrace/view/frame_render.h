// The one renderer of memtrace frames, in the two forms the program prints: memtrace's
// text `defname@file:line:start-end` (LocationToString) and schema 2's FRAME object
// {"filename":S,"line":N,"start_char":N,"end_char":N,"defname":S} (core/corpus/SCHEMA.md).
// Frames come either materialised (Location) or as the reader stores them (CompactFrame,
// strings interned), without copying their strings.
#pragma once

#include <string>
#include <string_view>

#include "core/base/json_writer.h"
#include "core/memtrace/location.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace::view {

// A frame's fields, borrowed.
struct FrameRef {
  std::string_view filename;
  std::string_view defname;
  OcamlInt line = 0;
  OcamlInt start_char = 0;
  OcamlInt end_char = 0;
};

FrameRef RefOf(const Location& l);
FrameRef RefOf(const CompactFrame& f, const StringInterner& strings);

// `defname@file:line:start-end`, byte for byte memtrace's Location.to_string.
void AppendFrameText(std::string& out, const FrameRef& f);
// The FRAME object; names that are not valid UTF-8 are written as {"hex":...}.
void WriteFrameJson(JsonWriter& w, const FrameRef& f);

}  // namespace mpo::memtrace::view
