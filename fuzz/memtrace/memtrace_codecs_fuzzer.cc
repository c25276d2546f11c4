// The location and backtrace decoders over arbitrary bytes. The first byte picks the
// decoder and, for backtraces, the codeword count and common prefix.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/location_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memtrace;
  if (size < 3) return 0;
  const std::uint8_t mode = data[0];
  const std::uint32_t count = data[1] | (std::uint32_t{data[2]} << 8);
  std::span<const std::uint8_t> rest(data + 3, size - 3);
  if (mode & 1) {
    LocationReader r;
    ByteReader in(rest, 0);
    std::vector<Location> locs;
    OcamlInt code;
    // Several events in a row share the MTF state.
    for (int i = 0; i < 64 && in.ok() && in.remaining() > 0; ++i) r.Get(in, &code, &locs);
    if (!in.ok() && in.status().ok()) __builtin_trap();
  } else {
    BacktraceReader r;
    ByteReader in(rest, 0);
    OcamlInt common = mode >> 1;
    for (int i = 0; i < 16 && in.ok() && in.remaining() > 0; ++i) {
      auto bt = r.Get(in, count % 512, common);
      common = static_cast<OcamlInt>(bt.size()) / 2;
      (void)r.Check(CacheVerifier{static_cast<std::uint16_t>(count), 0, 0});
    }
    ByteReader skip(rest, 0);
    BacktraceReader::Skip(skip, count);
  }
  return 0;
}
