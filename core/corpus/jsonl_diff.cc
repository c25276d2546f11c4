#include "core/corpus/jsonl_diff.h"

#include <algorithm>
#include <optional>

#include "core/corpus/json_diff.h"
#include "core/corpus/json_limits.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

constexpr std::size_t kMinValueBudget = std::size_t{1} << 20;

// The lines of a stream: split at '\n', a final '\n' ending the last line rather than
// starting an empty one. Walked in place, never copied (an output may hold millions).
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  std::size_t Count() const {
    if (text_.empty()) return 0;
    const auto n = static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n'));
    return text_.back() == '\n' ? n : n + 1;
  }
  // The next line, or false at the end.
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return true;
  }
  std::string_view Last() const {
    std::string_view t = text_;
    if (!t.empty() && t.back() == '\n') t.remove_suffix(1);
    const auto at = t.rfind('\n');
    return at == std::string_view::npos ? t : t.substr(at + 1);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Its own kind (a ring's phase-end record is "end"), with "error" and "records".
bool IsEndLine(const json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  return kind != j.end() && *kind == "end_of_stream" && j.contains("error") &&
         j.contains("records");
}

std::string Difference(std::size_t line, const json& expected, const json& got,
                       const std::string& prefix = "") {
  // A record of another kind differs first of all in its kind (the members are walked
  // in sorted order, which would name some other member first).
  if (expected.is_object() && got.is_object() && expected.contains("kind") &&
      got.contains("kind") && expected["kind"] != got["kind"])
    return Difference(line, expected["kind"], got["kind"], prefix + "/kind");
  auto d = FirstDifference(expected, got);
  if (!d) return {};
  const std::string path = prefix + d->path;
  return "line " + std::to_string(line) + ": at " + (path.empty() ? "(root)" : path) +
         ": expected " + d->expected + ", got " + d->got;
}

// Parses the output's lines against one budget of values for the whole output.
class OutputParser {
 public:
  explicit OutputParser(std::size_t budget) : budget_(budget) {}
  // The value of line `number`, or the reason it cannot be compared in `why`.
  std::optional<json> Parse(std::string_view line, std::size_t number, std::string& why) {
    auto v = ParseJsonBounded(line, kMaxJsonDepth, budget_ - used_);
    if (!v.ok() && v.status().code() == ErrorCode::kResourceExhausted) {
      why = "output holds more than " + std::to_string(budget_) +
            " JSON values (4 times the expected stream's, at least 2^20); not compared";
      return std::nullopt;
    }
    if (!v.ok()) {
      why = "output line " + std::to_string(number) + " is not JSON: " + v.status().message();
      return std::nullopt;
    }
    used_ += CountValues(*v);
    return std::move(*v);
  }

 private:
  std::size_t budget_, used_ = 0;
};

bool IsSkippedPacket(const json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  return kind != j.end() && *kind == "skipped_packet";
}

// CompareMode::kVerdict, once the output's end line (line `n`, `last`) is known good.
std::string CompareVerdict(const ExpectedStream& expected, Lines& lines, std::size_t n,
                           const json& last, OutputParser& parser) {
  std::string why;
  std::size_t k = 0;  // the output line read last
  std::string_view line;
  // The output's next line that is neither a skipped packet nor its end line.
  auto next_got = [&]() -> std::optional<json> {
    while (k + 1 < n) {
      lines.Next(line);
      ++k;
      auto v = parser.Parse(line, k, why);
      if (!v) return std::nullopt;
      if (k == 1 || !IsSkippedPacket(*v)) return v;
    }
    return std::nullopt;
  };
  const std::size_t m = expected.lines.size();
  for (std::size_t e = 0; e + 1 < m; ++e) {
    const json& want = expected.lines[e];
    if (e > 0 && IsSkippedPacket(want)) continue;
    auto v = next_got();
    if (!v) {
      if (!why.empty()) return why;
      return "line " + std::to_string(n) + ": expected the record " + want.dump() +
             " (or the header) before the end line";
    }
    if (auto d = Difference(k, want, *v); !d.empty()) return d;
  }
  if (auto v = next_got())
    return "line " + std::to_string(k) + ": expected the end line, got a record " + v->dump();
  if (!why.empty()) return why;
  const bool want_error = expected.expects_error;
  const bool got_error = !last.at("error").is_null();
  if (want_error == got_error) return {};
  return "line " + std::to_string(n) + ": at /error: expected " +
         (want_error ? "a rejection " + expected.lines.back()["error"].dump()
                     : std::string("null (the input is accepted)")) +
         ", got " + (got_error ? "a rejection " + last.at("error").dump() : "null (accepted)");
}

}  // namespace

Result<ExpectedStream> ParseExpectedStream(std::string_view text) {
  ExpectedStream e;
  Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    auto v = ParseJsonBounded(line);
    if (!v.ok())
      return Status(v.status().code(),
                    "line " + std::to_string(e.lines.size() + 1) + ": " + v.status().message());
    e.values += CountValues(*v);
    e.lines.push_back(std::move(*v));
  }
  if (e.lines.empty() || !IsEndLine(e.lines.back()))
    return Status(ErrorCode::kCorrupt,
                  "its last line is not an end line {\"kind\":\"end_of_stream\",...}");
  e.expects_error = !e.lines.back()["error"].is_null();
  return e;
}

std::string CompareStream(const ExpectedStream& expected, std::string_view got, CompareMode mode) {
  OutputParser parser(std::max(4 * expected.values, kMinValueBudget));
  Lines lines(got);
  const std::size_t n = lines.Count(), m = expected.lines.size();
  if (n == 0) return "incomplete stream: no output (no end line {\"kind\":\"end_of_stream\",...})";
  std::string why;
  // The end line first: without it the decoder did not finish, whatever it printed.
  const auto last = parser.Parse(lines.Last(), n, why);
  if (!last) return why;
  if (!IsEndLine(*last))
    return "incomplete stream: line " + std::to_string(n) +
           ", the last, is not the end line {\"kind\":\"end_of_stream\",...}";
  if (mode == CompareMode::kVerdict) return CompareVerdict(expected, lines, n, *last, parser);
  if (expected.expects_error) {
    std::string_view first;
    lines.Next(first);
    const auto header = n == 1 ? last : parser.Parse(first, 1, why);
    if (!header) return why;
    if (auto d = Difference(1, expected.lines.front(), *header); !d.empty()) return d;
    const auto error = last->find("error");
    if (error == last->end())
      return "line " + std::to_string(n) + ": at /error: expected " +
             expected.lines.back()["error"].dump() + ", got (absent)";
    return Difference(n, expected.lines.back()["error"], *error, "/error");
  }
  // A difference in the number of lines shows as the first line that differs: the
  // shorter stream has its end line where the other has a record.
  const std::string counts =
      n == m ? std::string()
             : " (expected " + std::to_string(m) + " lines, got " + std::to_string(n) + ")";
  std::string_view line;
  for (std::size_t k = 1; k <= std::min(n, m); ++k) {
    lines.Next(line);
    const auto v = k == n ? last : parser.Parse(line, k, why);
    if (!v) return why;
    if (auto d = Difference(k, expected.lines[k - 1], *v); !d.empty()) return d + counts;
  }
  if (n == m) return {};
  // Every common line matched: one stream goes on after an end line.
  const std::size_t k = std::min(n, m) + 1;
  return "line " + std::to_string(k) + ": expected " +
         (n > m ? "no more lines (the end line was line " + std::to_string(m) + ")"
                : "more lines") +
         counts;
}

}  // namespace mpo::corpus
