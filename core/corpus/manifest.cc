#include "core/corpus/manifest.h"

#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/corpus/json_limits.h"
#include "core/corpus/tags.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

Status Bad(const std::string& member, const std::string& what) {
  return Status(ErrorCode::kCorrupt, what).WithField("MANIFEST.json: " + member);
}

// A case path must stay inside the corpus directory.
bool InsideCorpus(const std::string& rel) {
  const std::filesystem::path p(rel);
  if (rel.empty() || p.is_absolute()) return false;
  for (const auto& part : p)
    if (part == "..") return false;
  return true;
}

Result<std::string> PathMember(const json& c, const std::string& where, const char* key) {
  const auto it = c.find(key);
  if (it == c.end() || !it->is_string()) return Bad(where + "." + key, "must be a string");
  std::string s = it->get<std::string>();
  if (!InsideCorpus(s))
    return Bad(where + "." + key, "\"" + s + "\" is not a relative path inside the corpus");
  return s;
}

// A member keyed by verdict mode ("memtrace-0.2.3": ...); absent is empty.
Result<std::vector<std::pair<Verdicts, const json*>>> ModeMap(const json& c,
                                                              const std::string& where,
                                                              const char* key) {
  std::vector<std::pair<Verdicts, const json*>> out;
  const auto it = c.find(key);
  if (it == c.end()) return out;
  if (!it->is_object()) return Bad(where + "." + key, "must be an object keyed by verdict mode");
  for (const auto& [mode, value] : it->items()) {
    const auto v = ParseVerdicts(mode);
    if (!v || *v == Verdicts::kStrict) {
      std::string member = where;
      member += '.';
      member += key;
      member += '.';
      member += mode;
      return Bad(member, "is not a reference verdict mode (" + std::string(VerdictsNames()) + ")");
    }
    out.emplace_back(*v, &value);
  }
  return out;
}

Status ParseModeMembers(const json& c, const std::string& where, ManifestCase& out) {
  auto expected_as = ModeMap(c, where, "expected_as");
  if (!expected_as.ok()) return expected_as.status();
  for (const auto& [mode, value] : *expected_as) {
    const std::string member = "expected_as." + std::string(VerdictsName(mode));
    auto path = PathMember(json{{member, *value}}, where, member.c_str());
    if (!path.ok()) return path.status();
    out.expected_as[mode] = std::move(*path);
  }
  auto declared = ModeMap(c, where, "declared");
  if (!declared.ok()) return declared.status();
  for (const auto& [mode, value] : *declared) {
    const std::string member = where + ".declared." + std::string(VerdictsName(mode));
    if (!value->is_object()) return Bad(member, "must be an object {\"reference\",\"why\"}");
    DeclaredEntry entry;
    for (auto [key, dest] : {std::pair{"reference", &entry.reference}, {"why", &entry.why}}) {
      const auto s = value->find(key);
      if (s == value->end() || !s->is_string()) return Bad(member + "." + key, "must be a string");
      *dest = s->get<std::string>();
    }
    out.declared[mode] = std::move(entry);
  }
  return Status::Ok();
}

// The optional "tags" member, or the tags derived from the case.
Status ParseTags(const json& c, const std::string& where, ManifestCase& out) {
  const auto it = c.find("tags");
  if (it == c.end()) {
    const auto e = c.find("expects_error");
    std::optional<bool> expects_error;
    if (e != c.end() && e->is_boolean()) expects_error = e->get<bool>();
    out.tags = DeriveTags(out.name, out.file, expects_error, !out.declared.empty());
    return Status::Ok();
  }
  if (!it->is_array()) return Bad(where + ".tags", "must be an array of strings");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& t = (*it)[i];
    const std::string member = where + ".tags[" + std::to_string(i) + "]";
    if (!t.is_string()) return Bad(member, "must be a string");
    const std::string tag = t.get<std::string>();
    if (tag.empty() || tag.find_first_of(", \t\n") != std::string::npos)
      return Bad(member, "\"" + tag + "\" is not a tag (non-empty, no ',' or spaces)");
    out.tags.push_back(tag);
  }
  return Status::Ok();
}

Result<std::vector<ManifestCase>> Parse(std::string_view text) {
  auto doc = ParseJsonBounded(text);
  if (!doc.ok()) return Status(doc.status()).WithField("MANIFEST.json");
  const json& m = *doc;
  if (!m.is_object()) return Bad("(root)", "is not a JSON object");
  const auto schema = m.find("schema");
  if (schema == m.end() || (schema->is_number_integer() && schema->get<std::int64_t>() == 1))
    return Status(ErrorCode::kUnsupportedVersion, kSchema1Message)
        .WithField("MANIFEST.json: schema");
  if (!schema->is_number_integer()) return Bad("schema", "must be an integer");
  if (schema->get<std::int64_t>() != kManifestSchema)
    return Status(ErrorCode::kUnsupportedVersion,
                  "schema " + schema->dump() + " is not " + std::to_string(kManifestSchema))
        .WithField("MANIFEST.json: schema");
  const auto cases = m.find("cases");
  if (cases == m.end() || !cases->is_array()) return Bad("cases", "must be an array");
  std::vector<ManifestCase> out;
  out.reserve(cases->size());
  for (std::size_t i = 0; i < cases->size(); ++i) {
    const json& c = (*cases)[i];
    const std::string where = "cases[" + std::to_string(i) + "]";
    if (!c.is_object()) return Bad(where, "is not an object");
    const auto name = c.find("name");
    if (name == c.end() || !name->is_string()) return Bad(where + ".name", "must be a string");
    auto file = PathMember(c, where, "file");
    if (!file.ok()) return file.status();
    auto expected = PathMember(c, where, "expected_jsonl");
    if (!expected.ok()) return expected.status();
    ManifestCase mc{name->get<std::string>(), std::move(*file), std::move(*expected), {}, {}, {}};
    MPO_RETURN_IF_ERROR(ParseModeMembers(c, where, mc));
    MPO_RETURN_IF_ERROR(ParseTags(c, where, mc));
    out.push_back(std::move(mc));
  }
  return out;
}

}  // namespace

Result<std::vector<ManifestCase>> ParseManifest(std::string_view text) {
  try {
    return Parse(text);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("MANIFEST.json");
  } catch (const nlohmann::json::exception& e) {
    return Bad("(root)", e.what());
  }
}

}  // namespace mpo::corpus
