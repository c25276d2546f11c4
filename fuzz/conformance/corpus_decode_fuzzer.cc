// `corpus decode` over arbitrary bytes, in all three formats: the first byte picks the
// format (memtrace, ring, sampler request), for rings the second the OCaml release.
// Must never crash, hang or throw; a failure must be a non-OK Status, and every decode
// must serialise.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/corpus/decode.h"

namespace {

constexpr const char* kReleases[] = {"5.0", "5.1", "5.2", "5.3", "5.4", "5.5"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::corpus;
  if (size < 2) return 0;
  const std::span<const std::uint8_t> body(data + 2, size - 2);
  mpo::Result<Decoded> d = mpo::Status(mpo::ErrorCode::kInternal, "unset");
  switch (data[0] % 3) {
    case 0: d = DecodeMemtrace(body); break;
    case 1: d = DecodeRing(body, kReleases[data[1] % 6]); break;
    default:
      d = DecodeSampler(
          std::string_view(reinterpret_cast<const char*>(body.data()), body.size()));
      break;
  }
  if (!d.ok()) {
    if (d.status().ok()) __builtin_trap();
    return 0;
  }
  if (DumpJson(d->json).empty()) __builtin_trap();
  return 0;
}
