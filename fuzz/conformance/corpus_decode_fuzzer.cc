// `corpus decode` over arbitrary bytes, in all three formats: the first byte picks the
// format (memtrace, ring, sampler request), for rings the second the OCaml release.
// Must never crash, hang or throw; every decode must be a complete schema 2 stream whose
// end line agrees with the returned status.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/corpus/decode.h"
#include "core/corpus/jsonl_diff.h"

namespace {

// Streams longer than this are not parsed back (the parse would dominate the run).
constexpr std::size_t kMaxChecked = std::size_t{1} << 20;

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
  mpo::StringTextSink out;
  mpo::Status s;
  switch (data[0] % 3) {
    case 0: {
      auto source = mpo::memtrace::MemorySource(body);
      s = DecodeMemtrace(*source, DecodeForm::kJsonLines, out);
      break;
    }
    case 1:
      s = DecodeRing(body, static_cast<mpo::ring::OcamlVersion>(data[1] % 6),
                     DecodeForm::kJsonLines, out);
      break;
    default: {
      const std::string_view request(reinterpret_cast<const char*>(body.data()), body.size());
      if (Expensive(request)) return 0;
      s = DecodeSampler(request, DecodeForm::kJsonLines, out);
      break;
    }
  }
  if (out.text.size() > kMaxChecked) return 0;
  auto stream = ParseExpectedStream(out.text);
  if (!stream.ok() || stream->expects_error == s.ok()) __builtin_trap();
  return 0;
}
