// MANIFEST.json (SCHEMA.md), read strictly: every problem is a typed error naming the
// member, never an exception.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::corpus {

inline constexpr int kManifestSchema = 1;

struct ManifestCase {
  std::string name;
  std::string file;           // relative to the corpus directory
  std::string expected_json;  // likewise
};

// The cases of a manifest. kCorrupt (field "MANIFEST.json: <member>") for a document
// that does not parse, a missing member or one of the wrong type, and a case path that
// is absolute or climbs out of the corpus with ".."; kUnsupportedVersion for a schema
// other than kManifestSchema.
Result<std::vector<ManifestCase>> ParseManifest(std::string_view text);

}  // namespace mpo::corpus
