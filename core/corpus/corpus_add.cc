// corpus add: an implementer's own files become cases, written through corpus gen's
// path for one case (write_case.h), and MANIFEST.json is rewritten with them.
#include <algorithm>
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/base/version.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/json_limits.h"
#include "core/corpus/manifest.h"
#include "core/corpus/read_file.h"
#include "core/corpus/write_case.h"
#include "core/ring/event_names.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Pending {
  CaseKind kind;
  std::string name;       // "user_<stem>"
  std::string file_name;  // "user_<file name>"
  std::string bytes;
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Status Refuse(const std::string& path, const std::string& why) {
  return Status(ErrorCode::kInvalidArgument, why).WithField(path);
}

// Everything about one file that can be known before writing: its kind, its case name
// and its bytes. A refusal names the file.
Result<Pending> Prepare(const std::string& path) {
  const std::string base = fs::path(path).filename().string();
  if (base.empty() || base == "." || base == "..") return Refuse(path, "names no file");
  if (std::any_of(base.begin(), base.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return Refuse(path, "its name has control characters");
  std::string_view stem = base;
  Pending p;
  if (EndsWith(base, ".ctf")) {
    p.kind = CaseKind::kMemtrace;
    stem.remove_suffix(4);
  } else if (EndsWith(base, ".sampler.json")) {
    p.kind = CaseKind::kSampler;
    stem.remove_suffix(13);
  } else if (EndsWith(base, ".events")) {
    // A ring cannot say which release's event numbering it uses: its name must.
    const std::string_view release = ring::OcamlReleaseOfFileName(base);
    if (release.empty())
      return Refuse(path,
                    "a ring must be named NAME.ocaml-5.N.events, 5.N the OCaml release that "
                    "wrote it (its event names depend on it): rename or link it so");
    if (!ring::ParseOcamlVersion(release))
      return Refuse(path, "unknown OCaml release " + std::string(release) + " (5.0 to 5.5)");
    p.kind = CaseKind::kRing;
    stem.remove_suffix(std::string_view(".ocaml-.events").size() + release.size());
  } else {
    return Refuse(path, "unknown case kind (expected *.ctf, *.ocaml-5.N.events or *.sampler.json)");
  }
  if (stem.empty()) return Refuse(path, "its name is only a suffix");
  p.name = "user_" + std::string(stem);
  p.file_name = "user_" + base;
  // kIo / kResourceExhausted naming the path; a trace is copied whole, up to 1 GiB.
  static constexpr FileBudget kTraceCaseFile{"trace case", std::uint64_t{1} << 30};
  auto bytes = ReadWholeFile(path, p.kind == CaseKind::kSampler ? kSamplerCaseFile
                                   : p.kind == CaseKind::kRing  ? kRingCaseFile
                                                                : kTraceCaseFile);
  if (!bytes.ok()) return bytes.status();
  p.bytes = std::move(*bytes);
  return p;
}

bool HasTag(const json& entry, std::string_view tag) {
  const auto tags = entry.find("tags");
  if (tags == entry.end() || !tags->is_array()) return false;
  return std::any_of(tags->begin(), tags->end(),
                     [&](const json& t) { return t.is_string() && t.get<std::string>() == tag; });
}

// The manifest to add to: the corpus's own, checked as corpus check reads it, or a new one.
Result<json> LoadManifest(const fs::path& root) {
  const fs::path path = root / "MANIFEST.json";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec)))
    return json{{"schema", kManifestSchema},
                {"generator", "memprof-oracle corpus add"},
                {"oracle_version", VersionLine()},
                {"cases", json::array()}};
  auto text = ReadWholeFile(path.string(), kManifestFile);
  if (!text.ok()) return text.status();
  if (auto cases = ParseManifest(*text); !cases.ok()) return cases.status();
  auto doc = ParseJsonBounded(*text);
  if (!doc.ok()) return Status(doc.status()).WithField("MANIFEST.json");
  return std::move(*doc);
}

Result<std::vector<AddedCase>> AddUnguarded(const std::string& dir,
                                            const std::vector<std::string>& files) {
  if (files.empty())
    return Status(ErrorCode::kInvalidArgument, "no file to add").WithField("corpus add");
  // All or nothing: every file is read and every name settled before anything is written.
  std::vector<Pending> pending;
  std::set<std::string> names;
  for (const std::string& f : files) {
    auto p = Prepare(f);
    if (!p.ok()) return p.status();
    if (!names.insert(p->file_name).second)
      return Refuse(f, "a file of the same name is already given");
    pending.push_back(std::move(*p));
  }
  const fs::path root(dir);
  if (std::error_code ec; fs::exists(root, ec) && !fs::is_directory(root, ec))
    return Status(ErrorCode::kIo, "is not a directory").WithField(dir);
  auto manifest = LoadManifest(root);
  if (!manifest.ok()) return manifest.status();
  json& cases = (*manifest)["cases"];
  // Where each new case goes: over the entry of an earlier `corpus add` of the same file,
  // never over any other case.
  std::vector<std::optional<std::size_t>> slot;
  for (const Pending& p : pending) {
    const std::string kind = KindName(p.kind);
    const std::string rel = kind + "/" + p.file_name, name = kind + "/" + p.name;
    std::optional<std::size_t> at;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const json& c = cases[i];
      const bool same_file = c.value("file", "") == rel, same_name = c.value("name", "") == name;
      if (!same_file && !same_name) continue;
      if (!same_file || !same_name || !HasTag(c, "user"))
        return Status(ErrorCode::kInvalidArgument, "would replace case " + c.value("name", "?") +
                                                       ", which corpus add did not add")
            .WithField(rel);
      at = i;
    }
    slot.push_back(at);
  }

  MPO_RETURN_IF_ERROR(MakeCorpusDirectory(root));
  std::vector<AddedCase> added;
  std::vector<std::string> stale;  // mode streams of replaced entries no longer written
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const Pending& p = pending[i];
    MPO_RETURN_IF_ERROR(MakeCorpusDirectory(root / KindName(p.kind)));
    std::uint64_t written = 0;
    auto entry = WriteCase(root,
                           {KindName(p.kind),
                            p.name,
                            p.file_name,
                            "added by corpus add from " + fs::path(files[i]).filename().string(),
                            p.bytes,
                            {},
                            /*user=*/true},
                           written);
    if (!entry.ok()) return entry.status();
    added.push_back({(*entry)["name"].get<std::string>(), slot[i].has_value(),
                     (*entry)["expects_error"].get<bool>()});
    if (slot[i]) {
      json& old = cases[*slot[i]];
      if (const auto as = old.find("expected_as"); as != old.end() && as->is_object())
        for (const auto& [mode, path] : as->items())
          if (path.is_string() &&
              path.get<std::string>().starts_with(old.value("file", "") + ".") &&
              !entry->value("expected_as", json::object()).contains(mode))
            stale.push_back(path.get<std::string>());
      old = std::move(*entry);
    } else {
      cases.push_back(std::move(*entry));
    }
  }
  const std::string text = manifest->dump(1, ' ', false, json::error_handler_t::replace) + "\n";
  MPO_RETURN_IF_ERROR(WriteFileAtomically(root / "MANIFEST.json", text));
  for (const std::string& rel : stale) {
    std::error_code ec;
    fs::remove(root / rel, ec);  // best effort: an orphan stream is harmless
  }
  return added;
}

}  // namespace

Result<std::vector<AddedCase>> Add(const std::string& dir, const std::vector<std::string>& files) {
  try {
    return AddUnguarded(dir, files);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("corpus add");
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kCorrupt, std::string("JSON: ") + e.what()).WithField("MANIFEST.json");
  }
}

}  // namespace mpo::corpus
