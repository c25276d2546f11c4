// Gzip inflation bounded by a budget, so that a small compressed file that inflates to
// gigabytes (a "gzip bomb") is a typed error naming the budget, never exhausted memory.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/io/file_budget.h"

namespace mpo::io {

// Inflates every gzip member of `compressed` (as gzip -d does for concatenated files).
// Errors (field: `path`): kResourceExhausted (OverBudget) once the output would pass
// budget.max_bytes; kTruncated if the stream ends inside a member; kCorrupt for bad
// compressed data or bytes after the last member that are not another member.
Result<std::vector<std::uint8_t>> Gunzip(std::span<const std::uint8_t> compressed,
                                         const FileBudget& budget, const std::string& path);

}  // namespace mpo::io
