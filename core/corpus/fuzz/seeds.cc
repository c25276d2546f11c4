#include "core/corpus/fuzz/seeds.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <span>

#include "core/base/text_sink.h"
#include "core/corpus/cases.h"
#include "core/corpus/decode.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/read_file.h"
#include "core/corpus/tags.h"
#include "core/memtrace/byte_io.h"
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

// A seed before selection: what --only/--skip match and the tags it gets.
struct Candidate {
  SeedInput input;
  std::string match_name;  // "memtrace/CASE", "ring/CASE" or the file's path
  std::string tag_name, tag_file;
  bool declared = false;
};

Status AddFiles(const std::string& path, FuzzFormat format, Verdicts verdicts,
                std::vector<Candidate>& seeds) {
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
  const std::string kind = format == FuzzFormat::kMemtrace ? "memtrace/" : "ring/";
  for (const std::string& f : files) {
    const std::string suffix = SuffixOf(f, format);
    if (suffix.empty()) continue;
    auto bytes = ReadWholeFile(f, FileBudget{"fuzz seed", kMaxSeedBytes});
    if (!bytes.ok()) return bytes.status();
    std::vector<std::uint8_t> data(bytes->begin(), bytes->end());
    if (!Judged(suffix, data, verdicts)) continue;
    const std::string base = fs::path(f).filename().string();
    seeds.push_back({{f, suffix, std::move(data)}, f, kind + base, base, false});
  }
  return Status::Ok();
}

// The oracle's strict verdict on a seed.
bool Rejected(const SeedInput& s, FuzzFormat format) {
  struct Discard : TextSink {
    void Write(std::string_view) override {}
  } sink;
  if (format == FuzzFormat::kMemtrace) {
    auto source = memtrace::MemorySource(s.bytes);
    return !DecodeMemtrace(*source, DecodeForm::kJsonLines, sink).ok();
  }
  const auto version = ring::OcamlVersionOfFileName(s.suffix).value_or(ring::kDefaultOcamlVersion);
  return !DecodeRing(s.bytes, version, DecodeForm::kJsonLines, sink).ok();
}

std::vector<std::string> TagsOf(const Candidate& c, FuzzFormat format, bool verdict) {
  std::optional<bool> rejected;
  if (verdict) rejected = Rejected(c.input, format);
  std::vector<std::string> tags = DeriveTags(c.tag_name, c.tag_file, rejected, c.declared);
  // A file's name need not state its version; its first packet does.
  if (format == FuzzFormat::kMemtrace && VersionTag(tags).empty()) {
    const auto packets = WalkPackets(c.input.bytes);
    if (!packets.empty() && packets.front().version >= 1 && packets.front().version <= 3)
      tags.insert(tags.begin() + 1, "v" + std::to_string(packets.front().version));
  }
  return tags;
}

Result<SeedSet> Select(std::vector<Candidate> candidates, FuzzFormat format,
                       const SeedSelection& sel) {
  SeedSet out;
  if (sel.empty()) {
    for (Candidate& c : candidates) out.seeds.push_back(std::move(c.input));
    return out;
  }
  auto supports = ParseSupports(sel.supports);
  if (!supports.ok()) return supports.status();
  const bool patterns = !sel.only.empty() || !sel.skip.empty();
  std::vector<std::vector<std::string>> tags;
  std::set<std::string> known;
  for (const Candidate& c : candidates) {
    tags.push_back(TagsOf(c, format, patterns));
    known.insert(tags.back().begin(), tags.back().end());
  }
  // A tag no seed has would select (or skip) nothing without a word: refused.
  for (const auto* list : {&sel.only, &sel.skip}) {
    for (const std::string& p : *list) {
      if (p.rfind("tag:", 0) != 0 || known.count(p.substr(4)) != 0) continue;
      std::string names;
      for (const std::string& t : known) names += (names.empty() ? "" : ", ") + t;
      return Status(ErrorCode::kInvalidArgument,
                    "no seed has the tag \"" + p.substr(4) + "\" (tags: " + names + ")")
          .WithField(list == &sel.only ? "--only" : "--skip");
    }
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto any = [&](const std::vector<std::string>& list) {
      return std::any_of(list.begin(), list.end(), [&](const std::string& p) {
        return MatchesPattern(candidates[i].match_name, tags[i], p);
      });
    };
    const bool keep =
        (sel.only.empty() || any(sel.only)) && !any(sel.skip) && supports->Covers(tags[i]);
    if (keep)
      out.seeds.push_back(std::move(candidates[i].input));
    else
      ++out.left_out;
  }
  if (out.seeds.empty())
    return Status(ErrorCode::kInvalidArgument,
                  "--only, --skip and --supports leave no seed of this format (" +
                      std::to_string(out.left_out) + " left out)")
        .WithField("--seeds");
  return out;
}

}  // namespace

Result<SeedSet> LoadSeeds(FuzzFormat format, Verdicts verdicts,
                          const std::vector<std::string>& paths, const std::string& scratch_dir,
                          const SeedSelection& selection) {
  auto cases = format == FuzzFormat::kMemtrace ? MemtraceCases() : RingCases(scratch_dir);
  if (!cases.ok()) return cases.status();
  const std::string kind = format == FuzzFormat::kMemtrace ? "memtrace/" : "ring/";
  std::vector<Candidate> seeds;
  for (CaseInput& c : *cases) {
    const std::string suffix = SuffixOf(c.file_name, format);
    if (suffix.empty() || !Judged(suffix, c.bytes, verdicts)) continue;
    seeds.push_back({{c.name, suffix, std::move(c.bytes)},
                     kind + c.name,
                     kind + c.name,
                     kind + c.file_name,
                     !c.declared.empty()});
  }
  for (const std::string& p : paths)
    if (Status s = AddFiles(p, format, verdicts, seeds); !s.ok()) return s;
  if (seeds.empty())
    return Status(ErrorCode::kInvalidArgument, "no seed of this format").WithField("--seeds");
  return Select(std::move(seeds), format, selection);
}

}  // namespace mpo::corpus::fuzz
