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

// The decoder accepts requests of up to 1e6 draws or 1e8 expected samples (seconds
// each): the fuzzer skips those, as its time is better spent on many small inputs.
bool Expensive(std::string_view request) {
  const auto r = nlohmann::json::parse(request, nullptr, /*allow_exceptions=*/false);
  if (!r.is_object()) return false;
  const auto count = r.find("count");
  if (count != r.end() && count->is_number_unsigned() && count->get<std::uint64_t>() > 4096)
    return true;
  const auto lengths = r.find("lengths");
  const auto lambda = r.find("lambda");
  if (lengths == r.end() || !lengths->is_array()) return false;
  if (lengths->size() > 4096) return true;
  const double l = lambda != r.end() && lambda->is_number() ? lambda->get<double>() : 1.0;
  double work = 0;
  for (const auto& n : *lengths)
    if (n.is_number_unsigned()) work += static_cast<double>(n.get<std::uint64_t>()) * l;
  return !(work <= 1e5);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::corpus;
  if (size < 2) return 0;
  const std::span<const std::uint8_t> body(data + 2, size - 2);
  mpo::Result<Decoded> d = mpo::Status(mpo::ErrorCode::kInternal, "unset");
  switch (data[0] % 3) {
    case 0: d = DecodeMemtrace(body); break;
    case 1: d = DecodeRing(body, kReleases[data[1] % 6]); break;
    default: {
      const std::string_view request(reinterpret_cast<const char*>(body.data()), body.size());
      if (Expensive(request)) return 0;
      d = DecodeSampler(request);
      break;
    }
  }
  if (!d.ok()) {
    if (d.status().ok()) __builtin_trap();
    return 0;
  }
  if (DumpJson(d->json).empty()) __builtin_trap();
  return 0;
}
