#include "core/corpus/json_diff.h"

#include <utility>
#include <vector>

#include "core/corpus/json_limits.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

std::string Escape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

constexpr std::size_t kShort = 200;

// One compact line; invalid UTF-8 from the parser's input is replaced, never thrown on.
std::string DumpJson(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
constexpr const char* kTooDeep = "(nested too deeply to print)";

// Appends `j` to `out`, stopping soon after `out` reaches kShort characters (a preview
// of a 64 MiB document costs no more than one of a number) and below kMaxJsonDepth
// levels (the recursion is bounded whatever built the document).
void Preview(const json& j, std::size_t depth, std::string& out) {
  if (out.size() > kShort) return;
  if (!j.is_structured()) {
    out += DumpJson(j);
    return;
  }
  if (depth > kMaxJsonDepth) {
    out += "...";
    return;
  }
  out += j.is_array() ? '[' : '{';
  bool first = true;
  for (auto it = j.begin(); it != j.end() && out.size() <= kShort; ++it) {
    if (!first) out += ',';
    first = false;
    if (j.is_object()) out += DumpJson(it.key()) + ":";
    Preview(it.value(), depth + 1, out);
  }
  out += j.is_array() ? ']' : '}';
}

std::string Short(const json& j) {
  std::string s;
  Preview(j, 1, s);
  if (s.size() > kShort) s = s.substr(0, kShort - 3) + "...";
  return s;
}

bool NumbersEqual(const json& a, const json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    if (a.is_number_unsigned() && b.is_number_unsigned())
      return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    // At least one is signed: compare through the sign first.
    const bool a_neg = !a.is_number_unsigned() && a.get<std::int64_t>() < 0;
    const bool b_neg = !b.is_number_unsigned() && b.get<std::int64_t>() < 0;
    if (a_neg != b_neg) return false;
    if (a_neg) return a.get<std::int64_t>() == b.get<std::int64_t>();
    return a.get<std::uint64_t>() == b.get<std::uint64_t>();
  }
  return a.get<double>() == b.get<double>();
}

std::optional<JsonDifference> Diff(const json& e, const json& g, const std::string& path,
                                   std::size_t depth) {
  auto differ = [&] { return JsonDifference{path, Short(e), Short(g)}; };
  // The recursion is bounded: values this deep are not compared but reported.
  if (depth > kMaxJsonDepth && (e.is_structured() || g.is_structured()))
    return JsonDifference{path, kTooDeep, kTooDeep};
  if (e.is_number() && g.is_number()) {
    if (NumbersEqual(e, g)) return std::nullopt;
    return differ();
  }
  if (e.type() != g.type()) return differ();
  if (e.is_object()) {
    for (auto it = e.begin(); it != e.end(); ++it) {
      const std::string sub = path + "/" + Escape(it.key());
      auto found = g.find(it.key());
      if (found == g.end()) return JsonDifference{sub, Short(it.value()), "(absent)"};
      if (auto d = Diff(it.value(), *found, sub, depth + 1)) return d;
    }
    for (auto it = g.begin(); it != g.end(); ++it) {
      if (!e.contains(it.key()))
        return JsonDifference{path + "/" + Escape(it.key()), "(absent)", Short(it.value())};
    }
    return std::nullopt;
  }
  if (e.is_array()) {
    const std::size_t n = std::min(e.size(), g.size());
    for (std::size_t i = 0; i < n; ++i)
      if (auto d = Diff(e[i], g[i], path + "/" + std::to_string(i), depth + 1)) return d;
    if (e.size() != g.size()) {
      const std::string sub = path + "/" + std::to_string(n);
      return e.size() > n ? JsonDifference{sub, Short(e[n]), "(absent: array ends)"}
                          : JsonDifference{sub, "(absent: array ends)", Short(g[n])};
    }
    return std::nullopt;
  }
  if (e == g) return std::nullopt;
  return differ();
}

}  // namespace

std::optional<JsonDifference> FirstDifference(const json& expected, const json& got) {
  return Diff(expected, got, "", 1);
}

}  // namespace mpo::corpus
