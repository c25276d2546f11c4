// The one way a whole file is read into memory (a case, a manifest, an expected decode, a
// fuzz seed, a declared-differences file): only a regular file is opened (a FIFO,
// directory or device named like a case is a clear error, never a hang), its size is
// checked with fstat before a byte is read, read errors are typed, and each kind of file
// has its own budget, so a 900 MB sparse file given as a sampler request is refused at
// once instead of being read whole.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/io/file_budget.h"

namespace mpo::corpus {

// A kind of file and the most bytes one may hold.
using io::FileBudget;

// A sampler request is one small JSON object.
inline constexpr FileBudget kSamplerCaseFile{"sampler case", std::uint64_t{1} << 20};
// Ring files of the corpus are a few hundred KB; OCaml's largest rings are 64 MB.
inline constexpr FileBudget kRingCaseFile{"ring case", std::uint64_t{256} << 20};
// The decode of the largest real trace (2 MB, 1.4 M events) is 166 MB of JSON lines.
inline constexpr FileBudget kExpectedStreamFile{"expected stream", std::uint64_t{512} << 20};
inline constexpr FileBudget kManifestFile{"manifest", std::uint64_t{64} << 20};
inline constexpr FileBudget kDeclaredFile{"declared differences file", std::uint64_t{1} << 20};

// The bytes of `path`. kIo (field: the path) if it is missing, not a regular file or
// unreadable; io::OverBudget (kResourceExhausted, field: the path) if it
// holds more than budget.max_bytes, found by fstat before reading or, for a file that
// grows while it is read, as soon as the read passes the limit.
Result<std::string> ReadWholeFile(const std::string& path, const FileBudget& budget);

}  // namespace mpo::corpus
