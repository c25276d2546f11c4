// `corpus check`'s JSON handling over arbitrary bytes: the input is split at its first
// NUL into an "expected" and a "got" document, each parsed with the kit's bounded
// parser and compared both ways; the first also goes through the manifest reader.
// Must never crash or overflow the stack; equality must be symmetric and reflexive.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/corpus/json_diff.h"
#include "core/corpus/json_limits.h"
#include "core/corpus/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::corpus;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = all.find('\0');
  const std::string_view first = all.substr(0, cut);
  const std::string_view second = cut == std::string_view::npos ? all : all.substr(cut + 1);
  (void)ParseManifest(first);
  auto a = ParseJsonBounded(first, kMaxJsonDepth, 1 << 16);
  auto b = ParseJsonBounded(second, kMaxJsonDepth, 1 << 16);
  if ((!a.ok() && a.status().ok()) || (!b.ok() && b.status().ok())) __builtin_trap();
  if (a.ok() && FirstDifference(*a, *a).has_value()) __builtin_trap();
  if (a.ok() && b.ok()) {
    const bool ab = FirstDifference(*a, *b).has_value();
    const bool ba = FirstDifference(*b, *a).has_value();
    if (ab != ba) __builtin_trap();
  }
  return 0;
}
