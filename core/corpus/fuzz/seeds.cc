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

// Whether the mode's reference reads this seed at all: OCaml 5.3's consumer names events
// as 5.3 does, and memtrace 0.2.3 reads formats v1 and v2 only (a v3 seed would only ever
// test that it is refused; mutants of v1/v2 seeds still reach v3 through header edits).
bool Judged(const std::string& suffix, std::span<const std::uint8_t> bytes, Verdicts verdicts) {
  if (verdicts == Verdicts::kOcaml53) return suffix == ".ocaml-5.3.events";
  if (verdicts == Verdicts::kMemtrace023) {
    const auto packets = WalkPackets(bytes);
    return packets.empty() || packets.front().version <= 2;
  }
  return true;
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
