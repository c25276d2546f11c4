// A case's tags (SCHEMA.md "Tags"): what `corpus check --only/--skip tag:NAME` select on
// and `--supports` matches. Derived here, in one place, from the case's name and file:
// corpus gen writes them into MANIFEST.json, and a manifest without them gets the same.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::corpus {

// The tags of a case, in this order: its format ("memtrace", "ring", "sampler"); its
// version ("v1".."v3" for a trace, from the name's prefix; "ocaml-5.N" for a ring, from
// its file name); "accepted" or "rejected" when `expects_error` is known; its malformation
// class, each of "bad", "truncated", "corrupt", "declared" that is a word of its name
// ("declared" also when `declared` is set); then feature tags, from words of its name
// (kFeatureTags). `name` is "<kind>/<case>", `file` the case file's path.
std::vector<std::string> DeriveTags(std::string_view name, std::string_view file,
                                    std::optional<bool> expects_error, bool declared);

// Format and version tags of a tag list ("" when it has none).
std::string FormatTag(const std::vector<std::string>& tags);
std::string VersionTag(const std::vector<std::string>& tags);

// Whether a case (or fuzz seed) named `name` with `tags` matches a selection pattern of
// `--only`/`--skip`: "tag:NAME" when NAME is one of its tags, otherwise a substring of
// its name.
bool MatchesPattern(std::string_view name, const std::vector<std::string>& tags,
                    std::string_view pattern);

// What an implementation declares it reads (`corpus check --supports`): items
// "FORMAT" (every version) or "FORMAT-VERSION" ("memtrace-v1", "ring-ocaml-5.3").
struct Supports {
  struct Item {
    std::string format, version;  // version "" = every version
  };
  std::vector<Item> items;  // empty: everything
  bool Covers(const std::vector<std::string>& tags) const;
};

// kInvalidArgument naming the item for an unknown format or a version that format does
// not have.
Result<Supports> ParseSupports(const std::vector<std::string>& items);

}  // namespace mpo::corpus
