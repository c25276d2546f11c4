#include "core/corpus/tags.h"

#include <algorithm>
#include <array>
#include <utility>

namespace mpo::corpus {
namespace {

constexpr std::array<std::string_view, 3> kFormats = {"memtrace", "ring", "sampler"};
constexpr std::array<std::string_view, 4> kClasses = {"bad", "truncated", "corrupt", "declared"};

// A word of a case name (split at '_', '-' and '.') and the feature it marks.
constexpr std::array<std::pair<std::string_view, std::string_view>, 21> kFeatureWords = {{
    {"backtrace", "backtrace"}, {"prefix", "backtrace"},  {"cache", "backtrace"},
    {"location", "location"},   {"mtf", "location"},      {"multidomain", "domains"},
    {"domain", "domains"},      {"domains", "domains"},   {"time", "time"},
    {"times", "time"},          {"wrap", "time"},         {"pid", "pid"},
    {"packet", "packets"},      {"info", "trace_info"},   {"custom", "custom_events"},
    {"user", "user_events"},    {"lost", "lost_events"},  {"metadata", "metadata"},
    {"geometric", "geometric"}, {"binomial", "binomial"}, {"alloc", "alloc"},
}};

bool IsMemtraceVersion(std::string_view v) { return v == "v1" || v == "v2" || v == "v3"; }

bool IsRingVersion(std::string_view v) {
  constexpr std::string_view kPrefix = "ocaml-5.";
  if (v.substr(0, kPrefix.size()) != kPrefix || v.size() == kPrefix.size()) return false;
  const std::string_view minor = v.substr(kPrefix.size());
  return minor.size() <= 3 && minor.find_first_not_of("0123456789") == std::string_view::npos;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (c == '_' || c == '-' || c == '.' || c == '/') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

void Add(std::vector<std::string>& tags, std::string_view tag) {
  if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.emplace_back(tag);
}

}  // namespace

std::vector<std::string> DeriveTags(std::string_view name, std::string_view file,
                                    std::optional<bool> expects_error, bool declared) {
  std::vector<std::string> tags;
  const std::string_view base = file.substr(file.rfind('/') + 1);
  std::string_view stem = name.substr(name.find('/') + 1);
  if (EndsWith(file, ".ctf")) {
    tags.emplace_back("memtrace");
    if (IsMemtraceVersion(stem.substr(0, 2)) && stem.substr(2, 1) == "_")
      tags.emplace_back(stem.substr(0, 2));
  } else if (EndsWith(file, ".events")) {
    tags.emplace_back("ring");
    const auto at = base.find(".ocaml-5.");
    if (at != std::string_view::npos) {
      const std::string_view v = base.substr(at + 1, base.size() - at - 1 - 7);
      if (IsRingVersion(v)) tags.emplace_back(v);
    }
    // The version is a tag of its own, not a feature word.
    stem = stem.substr(0, stem.find(".ocaml-"));
  } else if (EndsWith(file, ".sampler.json")) {
    tags.emplace_back("sampler");
  }
  if (expects_error) tags.emplace_back(*expects_error ? "rejected" : "accepted");
  const std::vector<std::string> words = Words(stem);
  auto has = [&](std::string_view w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  for (std::string_view c : kClasses)
    if (has(c) || (c == "declared" && declared)) Add(tags, c);
  for (const auto& [word, feature] : kFeatureWords)
    if (has(word)) Add(tags, feature);
  // "every" alone would also tag memtrace's mtf_every_slot: the feature is the ring's
  // event names, per release.
  if (!tags.empty() && tags.front() == "ring" && has("every")) Add(tags, "every_event_type");
  return tags;
}

std::string FormatTag(const std::vector<std::string>& tags) {
  for (const std::string& t : tags)
    if (std::find(kFormats.begin(), kFormats.end(), t) != kFormats.end()) return t;
  return {};
}

std::string VersionTag(const std::vector<std::string>& tags) {
  for (const std::string& t : tags)
    if (IsMemtraceVersion(t) || IsRingVersion(t)) return t;
  return {};
}

bool MatchesPattern(std::string_view name, const std::vector<std::string>& tags,
                    std::string_view pattern) {
  constexpr std::string_view kTag = "tag:";
  if (pattern.substr(0, kTag.size()) == kTag)
    return std::find(tags.begin(), tags.end(), pattern.substr(kTag.size())) != tags.end();
  return name.find(pattern) != std::string_view::npos;
}

bool Supports::Covers(const std::vector<std::string>& tags) const {
  if (items.empty()) return true;
  const std::string format = FormatTag(tags), version = VersionTag(tags);
  return std::any_of(items.begin(), items.end(), [&](const Item& i) {
    return i.format == format && (i.version.empty() || i.version == version);
  });
}

Result<Supports> ParseSupports(const std::vector<std::string>& items) {
  Supports s;
  for (const std::string& item : items) {
    const auto dash = item.find('-');
    Supports::Item i{item.substr(0, dash), dash == std::string::npos ? "" : item.substr(dash + 1)};
    auto bad = [&](const std::string& why) {
      std::string message = "\"" + item + "\" ";
      message.append(why).append(
          " (items: memtrace, memtrace-v1..v3, ring, ring-ocaml-5.N, sampler)");
      return Status(ErrorCode::kInvalidArgument, message).WithField("--supports");
    };
    if (std::find(kFormats.begin(), kFormats.end(), i.format) == kFormats.end())
      return bad("names no format");
    if (dash != std::string::npos) {
      const bool known = (i.format == "memtrace" && IsMemtraceVersion(i.version)) ||
                         (i.format == "ring" && IsRingVersion(i.version));
      if (!known) return bad("names no version of " + i.format);
    }
    s.items.push_back(std::move(i));
  }
  return s;
}

}  // namespace mpo::corpus
