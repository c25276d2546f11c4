#include "tools/memtrace/progress_source.h"

namespace mpo::tools {

Result<std::size_t> ProgressSource::ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) {
  auto n = inner_.ReadAt(offset, out);
  // A read is a packet or a buffer, not an event: each one may look at the clock.
  if (n.ok()) progress_.Update(base_ + offset + *n, true);
  return n;
}

}  // namespace mpo::tools
