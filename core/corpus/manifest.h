// MANIFEST.json (SCHEMA.md), read strictly: every problem is a typed error naming the
// member, never an exception.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/base/view_json.h"

namespace mpo::corpus {

// A corpus and the streams in it share their schema number.
inline constexpr int kManifestSchema = view_json::kViewSchema;

inline constexpr const char* kSchema1Message =
    "corpus schema 1: regenerate it with `memprof-oracle corpus gen DIR`";

struct DeclaredEntry {
  std::string reference;  // what the reference does
  std::string why;        // why the oracle does not
};

struct ManifestCase {
  std::string name;
  std::string file;            // relative to the corpus directory
  std::string expected_jsonl;  // likewise: the strict verdict's stream
  // Optional members: a mode's stream where it differs from the strict one, and the
  // modes whose reference's behaviour the oracle deliberately does not copy on this case.
  std::map<Verdicts, std::string> expected_as;
  std::map<Verdicts, DeclaredEntry> declared;
  // Its "tags" member, or where a manifest has none, tags.h's DeriveTags of its name,
  // file, "expects_error" (when present) and declared entries.
  std::vector<std::string> tags;
};

// The cases of a manifest. kCorrupt (field "MANIFEST.json: <member>") for a document
// that does not parse, a missing member or one of the wrong type, and a case path that
// is absolute or climbs out of the corpus with ".."; kUnsupportedVersion for a schema
// other than kManifestSchema: a corpus of schema 1 (or without a schema, as early ones
// were) gets kSchema1Message, since regenerating it is all it takes. "tags", when
// present, must be an array of non-empty strings without ',' or spaces.
Result<std::vector<ManifestCase>> ParseManifest(std::string_view text);

}  // namespace mpo::corpus
