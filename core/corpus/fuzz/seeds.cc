#include "core/corpus/fuzz/seeds.h"

#include <algorithm>
#include <filesystem>
#include <span>

#include "core/corpus/cases.h"
#include "core/corpus/decode.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/read_file.h"
#include "core/ring/event_names.h"

namespace mpo::corpus::fuzz {
namespace {

namespace fs = std::filesystem;

// The suffix a file of this format needs, from its name; "" when it is of another kind.
std::string SuffixOf(const std::string& name, FuzzFormat format) {
  auto kind = KindOfPath(name);
  if (!kind.ok()) return {};
  if (format == FuzzFormat::kMemtrace) return *kind == CaseKind::kMemtrace ? ".ctf" : "";
  if (*kind != CaseKind::kRing) return {};
  return ".ocaml-" + std::string(ring::OcamlReleaseOfFileName(name)) + ".events";
}

// Whether the mode's reference reads this seed at all: a ring mode's consumer (named
// ocaml-5.N) names events as its release does, and a memtrace reference that reads fewer
// versions than this reader (0.2.3: v1 and v2) gets seeds of those only (a v3 seed would
// only ever test that it is refused; mutants still reach v3 through header edits).
bool Judged(const std::string& suffix, std::span<const std::uint8_t> bytes, Verdicts verdicts) {
  const VerdictMode& mode = ModeOf(verdicts);
  if (mode.reference.empty()) return true;
  if (suffix.ends_with(".events")) return suffix == "." + std::string(mode.name) + ".events";
  const MemtraceRules& rules = mode.rules.memtrace;
  if (rules.max_version >= MemtraceRules{}.max_version) return true;
  const auto packets = WalkPackets(bytes);
  return packets.empty() || packets.front().version <= rules.max_version;
}

Status AddFiles(const std::string& path, FuzzFormat format, Verdicts verdicts,
                std::vector<SeedInput>& seeds) {
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_directory(path, ec)) {
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path().string());
    if (ec) return Status(ErrorCode::kIo, "cannot list: " + ec.message()).WithField(path);
  } else if (fs::exists(path, ec)) {
    files.push_back(path);
  } else {
    return Status(ErrorCode::kIo, "no such file or folder").WithField(path);
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    const std::string suffix = SuffixOf(f, format);
    if (suffix.empty()) continue;
    auto bytes = ReadWholeFile(f, FileBudget{"fuzz seed", kMaxSeedBytes});
    if (!bytes.ok()) return bytes.status();
    std::vector<std::uint8_t> data(bytes->begin(), bytes->end());
    if (Judged(suffix, data, verdicts)) seeds.push_back({f, suffix, std::move(data)});
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<SeedInput>> LoadSeeds(FuzzFormat format, Verdicts verdicts,
                                         const std::vector<std::string>& paths,
                                         const std::string& scratch_dir) {
  auto cases = format == FuzzFormat::kMemtrace ? MemtraceCases() : RingCases(scratch_dir);
  if (!cases.ok()) return cases.status();
  std::vector<SeedInput> seeds;
  for (CaseInput& c : *cases) {
    const std::string suffix = SuffixOf(c.file_name, format);
    if (suffix.empty() || !Judged(suffix, c.bytes, verdicts)) continue;
    seeds.push_back({c.name, suffix, std::move(c.bytes)});
  }
  for (const std::string& p : paths)
    if (Status s = AddFiles(p, format, verdicts, seeds); !s.ok()) return s;
  if (seeds.empty())
    return Status(ErrorCode::kInvalidArgument, "no seed of this format").WithField("--seeds");
  return seeds;
}

}  // namespace mpo::corpus::fuzz
