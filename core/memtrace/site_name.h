// How `memtrace stats` and `memtrace diff` name an allocation site (one location code):
// its frames as memtrace prints them, space-separated; "$CODE" for a code whose location
// event holds no frame; "<undefined CODE>" for a code no location event defined.
#pragma once

#include <string>

#include "core/base/status.h"
#include "core/memtrace/ocaml_int.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace {

// kResourceExhausted when materialising the frames passes the reader's location budget.
Result<std::string> SiteName(const TraceReader& reader, OcamlInt code);

}  // namespace mpo::memtrace
