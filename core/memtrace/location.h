// Source locations as memtrace records them (mirrors Location_codec.Location).
#pragma once

#include <cstdint>
#include <string>

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

// "defname@filename:line:start-end", memtrace's Location.to_string.
std::string LocationToString(const Location& loc);

}  // namespace mpo::memtrace
