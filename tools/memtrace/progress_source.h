// A ByteSource that reports how far into the file its reads have got, for commands whose
// decoder takes no progress callback (folded stacks, the report's flame pass): the
// furthest byte read is as good a measure of a streaming decode as any.
#pragma once

#include <cstdint>
#include <span>

#include "core/memtrace/byte_io.h"
#include "tools/progress.h"

namespace mpo::tools {

class ProgressSource : public memtrace::ByteSource {
 public:
  // `progress` counts bytes of `inner`, from `base` (a later pass over the same file
  // continues the count); `inner` and `progress` must outlive this source.
  ProgressSource(memtrace::ByteSource& inner, Progress& progress, std::uint64_t base = 0)
      : inner_(inner), progress_(progress), base_(base) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override;
  std::uint64_t size() const override { return inner_.size(); }

 private:
  memtrace::ByteSource& inner_;
  Progress& progress_;
  std::uint64_t base_;
};

}  // namespace mpo::tools
