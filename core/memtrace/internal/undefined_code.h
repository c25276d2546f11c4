// Test support: traces whose backtraces use a location code no location event defines
// (the writer never produces one), for the tests of the undefined-code policy in every
// command.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace::testing {

// `trace` with the location event of `code` renamed to another code: its backtraces then
// use `code`, which nothing defines. `code` must be defined in `trace`, and its 8 bytes
// must appear nowhere before its location event (true of any large, distinctive code).
// Empty when the code's bytes are not found.
std::vector<std::uint8_t> WithUndefinedCode(std::vector<std::uint8_t> trace, OcamlInt code);

// The byte offset of the first event whose backtrace uses `code` (0 when none does).
std::uint64_t FirstUseOffset(const std::vector<std::uint8_t>& trace, OcamlInt code);

}  // namespace mpo::memtrace::testing
