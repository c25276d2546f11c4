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

constexpr std::size_t kLinePreview = 200;

// A line as printed, cut to kLinePreview characters, control characters shown as '?'
// (it may not be JSON): what stands where a record is missing or extra.
std::string PreviewLine(std::string_view line) {
  std::string out(line.substr(0, kLinePreview));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (line.size() > kLinePreview) out.replace(kLinePreview - 3, 3, "...");
  return out;
}

std::string PreviewJson(const json& j) {
  return PreviewLine(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

// Removes the member at tokens[i..] (an array element becomes null, keeping the
// indices of the others).
void Remove(json& j, const std::vector<std::string>& tokens, std::size_t i) {
  const std::string& t = tokens[i];
  const bool last = i + 1 == tokens.size();
  if (j.is_object()) {
    const auto it = j.find(t);
    if (it == j.end()) return;
    if (last)
      j.erase(it);
    else
      Remove(*it, tokens, i + 1);
    return;
  }
  if (!j.is_array()) return;
  auto visit = [&](json& element) {
    if (last)
      element = nullptr;
    else
      Remove(element, tokens, i + 1);
  };
  if (t == "#") {
    for (json& element : j) visit(element);
    return;
  }
  if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos ||
      (t.size() > 1 && t[0] == '0'))
    return;
  const std::size_t index = std::stoull(t);
  if (index < j.size()) visit(j[index]);
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

// One comparison: the mode, the members left out, the output's parser.
class Comparer {
 public:
  Comparer(const ExpectedStream& expected, std::string_view got, CompareMode mode,
           std::span<const IgnoredField> ignored)
      : expected_(expected),
        got_(got),
        mode_(mode),
        ignored_(ignored),
        parser_(std::max(4 * expected.values, kMinValueBudget)) {}

  std::string Run();

 private:
  // A line without the ignored members.
  json Filtered(const json& j) const {
    json copy = j;
    for (const IgnoredField& f : ignored_) Remove(copy, f.tokens, 0);
    return copy;
  }
  // Byte-identical lines are equal values, whatever members are left out.
  bool SameText(std::size_t expected_index, std::string_view line) const {
    return expected_index < expected_.size() && expected_.text(expected_index) == line;
  }
  std::string Diff(std::size_t line, const json& want, const json& got) const {
    if (ignored_.empty()) return Difference(line, want, got);
    return Difference(line, Filtered(want), Filtered(got));
  }
  std::string ErrorDiff(std::size_t n, const json& last) const;
  std::string Incomplete(std::size_t n, const std::optional<json>& last, std::string why);
  std::string Verdict(std::size_t n, const json& last);

  const ExpectedStream& expected_;
  std::string_view got_;
  CompareMode mode_;
  std::span<const IgnoredField> ignored_;
  OutputParser parser_;
};

// The end lines' errors of a rejected input (kExact, kStrict): the whole object, or its
// code only.
std::string Comparer::ErrorDiff(std::size_t n, const json& last) const {
  const json want_line = Filtered(expected_.back()), got_line = Filtered(last);
  const json& want = want_line.at("error");
  const auto error = got_line.find("error");
  if (error == got_line.end())
    return "line " + std::to_string(n) + ": at /error: expected " + PreviewJson(want) +
           ", got (absent)";
  if (mode_ == CompareMode::kExact || !want.is_object() || !error->is_object())
    return Difference(n, want, *error, "/error");
  const auto want_code = want.find("code"), got_code = error->find("code");
  if (want_code == want.end()) return {};
  if (got_code == error->end())
    return "line " + std::to_string(n) + ": at /error/code: expected " + PreviewJson(*want_code) +
           ", got (absent)";
  return Difference(n, *want_code, *got_code, "/error/code");
}

// A stream without its end line: the first difference among the lines it printed (the
// bug that stopped it is usually there), then why it is incomplete.
std::string Comparer::Incomplete(std::size_t n, const std::optional<json>& last, std::string why) {
  const std::size_t m = expected_.size();
  // Records before an expected error are free, and a verdict skips packets: the header
  // is all that lines up for sure then.
  const bool records = !expected_.expects_error && mode_ != CompareMode::kVerdict;
  const std::size_t upto = std::min(records ? m - 1 : std::size_t{1}, last ? n : n - 1);
  Lines lines(got_);
  std::string_view line;
  for (std::size_t k = 1; k <= upto; ++k) {
    lines.Next(line);
    std::string bad;
    const auto v = k == n ? last : parser_.Parse(line, k, bad);
    if (!v) return bad.append("; ").append(why);
    if (auto d = Diff(k, expected_.line(k - 1), *v); !d.empty()) return d.append("; ").append(why);
  }
  return why;
}

// CompareMode::kVerdict, once the output's end line (line `n`, `last`) is known good.
std::string Comparer::Verdict(std::size_t n, const json& last) {
  Lines lines(got_);
  std::string why;
  std::size_t k = 0;  // the output line read last
  std::string_view line;
  // The output's next line that is neither a skipped packet nor its end line; nullptr
  // (not parsed) when its text is the expected line `e`'s, which is no skipped packet.
  auto next_got = [&](std::size_t e) -> std::optional<json> {
    while (k + 1 < n) {
      lines.Next(line);
      ++k;
      if (SameText(e, line)) return json();
      auto v = parser_.Parse(line, k, why);
      if (!v) return std::nullopt;
      if (k == 1 || !IsSkippedPacket(*v)) return v;
    }
    return std::nullopt;
  };
  const std::size_t m = expected_.size();
  for (std::size_t e = 0; e + 1 < m; ++e) {
    // Only a line naming the kind can be one (and only such a line needs parsing here).
    if (e > 0 && expected_.text(e).find("skipped_packet") != std::string_view::npos &&
        IsSkippedPacket(expected_.line(e)))
      continue;
    auto v = next_got(e);
    if (!v) {
      if (!why.empty()) return why;
      return "line " + std::to_string(n) + ": expected the record " +
             PreviewJson(expected_.line(e)) + " (or the header), got the end line";
    }
    if (SameText(e, line)) continue;
    if (auto d = Diff(k, expected_.line(e), *v); !d.empty()) return d;
  }
  if (auto v = next_got(m))
    return "line " + std::to_string(k) + ": expected the end line, got a record " +
           PreviewLine(line);
  if (!why.empty()) return why;
  const bool want_error = expected_.expects_error;
  const bool got_error = !last.at("error").is_null();
  if (want_error == got_error) return {};
  return "line " + std::to_string(n) + ": at /error: expected " +
         (want_error ? "a rejection " + PreviewJson(expected_.back().at("error"))
                     : std::string("null (the input is accepted)")) +
         ", got " +
         (got_error ? "a rejection " + PreviewJson(last.at("error")) : "null (accepted)");
}

std::string Comparer::Run() {
  Lines lines(got_);
  const std::size_t n = lines.Count(), m = expected_.size();
  if (n == 0) return "incomplete stream: no output (no end line {\"kind\":\"end_of_stream\",...})";
  std::string why;
  // The end line first: without it the decoder did not finish, whatever it printed.
  const auto last = parser_.Parse(lines.Last(), n, why);
  if (!last) {
    if (why.rfind("output holds more than", 0) == 0) return why;
    return Incomplete(n, last, why);
  }
  if (!IsEndLine(*last))
    return Incomplete(n, last,
                      "incomplete stream: line " + std::to_string(n) +
                          ", the last, is not the end line {\"kind\":\"end_of_stream\",...}");
  if (mode_ == CompareMode::kVerdict) return Verdict(n, *last);
  if (expected_.expects_error) {
    std::string_view first;
    lines.Next(first);
    const auto header = n == 1 ? last : parser_.Parse(first, 1, why);
    if (!header) return why;
    if (auto d = Diff(1, expected_.front(), *header); !d.empty()) return d;
    return ErrorDiff(n, *last);
  }
  // A difference in the number of lines shows as the first line that differs: the
  // shorter stream has its end line where the other has a record.
  const std::string counts =
      n == m ? std::string()
             : " (expected " + std::to_string(m) + " lines, got " + std::to_string(n) + ")";
  std::string_view line;
  for (std::size_t k = 1; k <= std::min(n, m); ++k) {
    lines.Next(line);
    if (k < n && SameText(k - 1, line)) continue;
    const auto v = k == n ? last : parser_.Parse(line, k, why);
    if (!v) return why;
    if (auto d = Diff(k, expected_.line(k - 1), *v); !d.empty()) {
      if (n == m) return d;
      return d + counts + "; line " + std::to_string(k) +
             " printed: " + PreviewLine(k == n ? lines.Last() : line);
    }
  }
  if (n == m) return {};
  // Every common line matched: one stream goes on after an end line.
  const std::size_t k = std::min(n, m) + 1;
  std::string extra;
  if (n > m && lines.Next(line))
    extra = "; line " + std::to_string(k) + " printed: " + PreviewLine(line);
  return "line " + std::to_string(k) + ": expected " +
         (n > m ? "no more lines (the end line was line " + std::to_string(m) + ")"
                : "more lines") +
         counts + extra;
}

}  // namespace

Result<IgnoredField> ParseIgnoredField(std::string_view pointer) {
  auto bad = [&](const std::string& why) {
    return Status(ErrorCode::kInvalidArgument,
                  "\"" + std::string(pointer) + "\" is not a JSON Pointer: " + why)
        .WithField("--ignore-fields");
  };
  if (pointer.empty() || pointer[0] != '/') return bad("it must start with '/' (e.g. /info/pid)");
  IgnoredField f{std::string(pointer), {}};
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      f.tokens.push_back(std::move(token));
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1'))
        return bad("'~' must be followed by 0 or 1");
      token += pointer[++i] == '0' ? '~' : '/';
    } else {
      token += pointer[i];
    }
  }
  return f;
}

const json& ExpectedStream::line(std::size_t k) const {
  std::optional<json>& slot = parsed_[k];
  if (!slot) {
    // ParseExpectedStream checked every line; only memory can fail here.
    auto v = ParseJsonBounded(texts_[k]);
    slot = v.ok() ? std::move(*v) : json();
  }
  return *slot;
}

Result<ExpectedStream> ParseExpectedStream(std::string_view text) {
  ExpectedStream e;
  Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    auto values = CountJsonValues(line);
    if (!values.ok())
      return Status(values.status().code(),
                    "line " + std::to_string(e.size() + 1) + ": " + values.status().message());
    e.values += *values;
    e.texts_.emplace_back(line);
  }
  e.parsed_.resize(e.texts_.size());
  if (e.size() == 0 || !IsEndLine(e.back()))
    return Status(ErrorCode::kCorrupt,
                  "its last line is not an end line {\"kind\":\"end_of_stream\",...}");
  e.expects_error = !e.back().at("error").is_null();
  return e;
}

std::string CompareStream(const ExpectedStream& expected, std::string_view got, CompareMode mode,
                          std::span<const IgnoredField> ignored) {
  return Comparer(expected, got, mode, ignored).Run();
}

}  // namespace mpo::corpus
