#include "core/corpus/manifest.h"

#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "core/corpus/json_limits.h"

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
    out.push_back({name->get<std::string>(), std::move(*file), std::move(*expected)});
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
