// Reading a whole corpus file (a case, a manifest, an expected decode) safely: only a
// regular file is opened (a FIFO, directory or device named like a case is a clear
// error, never a hang), read errors are typed, and the size is capped.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::corpus {

// Larger files are refused: the biggest generated case is a few KB, a real trace used
// as a case a few MB.
inline constexpr std::uint64_t kMaxCorpusFileBytes = std::uint64_t{1} << 30;

// The bytes of `path`. kIo (field: the path) if it is missing, not a regular file or
// unreadable; kResourceExhausted if it holds more than `max_bytes`.
Result<std::string> ReadWholeFile(const std::string& path,
                                  std::uint64_t max_bytes = kMaxCorpusFileBytes);

}  // namespace mpo::corpus
