// How many bytes one kind of input may bring into memory. A whole-file read, a gzip
// inflation and a read of stdin stop at the budget with a typed error naming it, so that
// a huge (or decompression-bomb) input is refused instead of exhausting memory.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::io {

struct FileBudget {
  const char* kind;  // what the bytes are, as a message names them ("ring case")
  std::uint64_t max_bytes;
};

// kResourceExhausted (field: `path`): "<kind> is larger than the limit of N bytes".
Status OverBudget(const FileBudget& budget, const std::string& path);

}  // namespace mpo::io
