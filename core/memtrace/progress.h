// Progress of one pass over a trace, reported to progress bars by the dumps, the analysis
// and folded alike.
#pragma once

#include <cstdint>
#include <functional>

namespace mpo::memtrace {

// Called now and then with (bytes decoded so far, file size).
using ProgressFn = std::function<void(std::uint64_t, std::uint64_t)>;

}  // namespace mpo::memtrace
