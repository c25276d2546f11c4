#include "core/tracer/frame_locations.h"

#include <array>
#include <string_view>

#include "core/base/splitmix64.h"

namespace mpo::tracer {
namespace {

constexpr std::array<std::string_view, 12> kModules = {
    "list",   "map",   "array", "hashtbl", "buffer",    "bytes",
    "parser", "lexer", "typer", "emit",    "scheduler", "io",
};
constexpr std::array<std::string_view, 10> kVerbs = {
    "map", "fold", "iter", "init", "add", "find", "rebuild", "step", "flush", "visit",
};

memtrace::Location Make(std::uint64_t h) {
  const std::string_view mod = kModules[h % kModules.size()];
  const std::string_view verb = kVerbs[(h >> 8) % kVerbs.size()];
  std::string cap(mod);
  cap[0] = static_cast<char>(cap[0] - 'a' + 'A');
  memtrace::Location loc;
  loc.filename = "src/" + std::string(mod) + ".ml";
  loc.line = static_cast<memtrace::OcamlInt>(1 + (h >> 16) % 1200);
  loc.start_char = static_cast<memtrace::OcamlInt>((h >> 28) % 60);
  loc.end_char = loc.start_char + static_cast<memtrace::OcamlInt>(4 + (h >> 36) % 50);
  loc.defname = cap + "." + std::string(verb) + "_" + std::to_string((h >> 44) % 32);
  return loc;
}

}  // namespace

// NOLINTNEXTLINE(performance-unnecessary-value-param): moved in when the frame is new
void FrameLocations::Define(std::uint64_t frame, std::vector<memtrace::Location> locations) {
  table_.try_emplace(static_cast<memtrace::OcamlInt>(frame), std::move(locations));
}

std::vector<memtrace::Location> FrameLocations::Synthesize(std::uint64_t frame) {
  const std::uint64_t h = SplitMix64Mix(frame + kGoldenGamma);
  std::vector<memtrace::Location> out{Make(h)};
  if (h % 5 == 0) out.push_back(Make(SplitMix64Mix(h)));
  return out;
}

const std::vector<memtrace::Location>* FrameLocations::Lookup(memtrace::OcamlInt code) {
  auto it = table_.find(code);
  if (it == table_.end()) {
    it = table_.emplace(code, Synthesize(static_cast<std::uint64_t>(code))).first;
  }
  return &it->second;
}

}  // namespace mpo::tracer
