// Source locations as memtrace records them (mirrors Location_codec.Location).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

struct Location {
  std::string filename;
  OcamlInt line = 0;
  OcamlInt start_char = 0;
  OcamlInt end_char = 0;
  std::string defname;

  friend bool operator==(const Location&, const Location&) = default;
};

// memtrace's placeholder for locations too large to encode: `??@<unknown>:1:1-1`.
inline Location UnknownLocation() { return Location{"<unknown>", 1, 1, 1, "??"}; }

// "defname@filename:line:start-end", memtrace's Location.to_string: the one text form of
// a frame (the dumps, stats, diff and the decoded view all render frames through it).
std::string LocationToString(const Location& loc);
// The same text appended to `out`, from the fields (no Location needed).
void AppendLocationText(std::string& out, std::string_view defname, std::string_view filename,
                        OcamlInt line, OcamlInt start_char, OcamlInt end_char);

}  // namespace mpo::memtrace
