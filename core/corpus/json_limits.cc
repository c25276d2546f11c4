#include "core/corpus/json_limits.h"

#include <new>
#include <string>
#include <vector>

namespace mpo::corpus {
namespace {

using nlohmann::json;

// Counts values while checking the syntax, and stops past a limit: the document is
// refused before any of it is built.
class CountingSax : public nlohmann::json_sax<json> {
 public:
  explicit CountingSax(std::size_t limit) : limit_(limit) {}
  bool over() const { return over_; }

  bool null() override { return Count(); }
  bool boolean(bool) override { return Count(); }
  bool number_integer(number_integer_t) override { return Count(); }
  bool number_unsigned(number_unsigned_t) override { return Count(); }
  bool number_float(number_float_t, const string_t&) override { return Count(); }
  bool string(string_t&) override { return Count(); }
  bool binary(binary_t&) override { return Count(); }
  bool start_object(std::size_t) override { return Count(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return Count(); }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_ = e.what();
    error_position_ = position;
    return false;
  }
  // The parser's reason and 1-based byte position, when the syntax is wrong.
  const std::string& error() const { return error_; }
  std::size_t error_position() const { return error_position_; }
  std::size_t count() const { return count_; }

 private:
  bool Count() {
    if (++count_ > limit_) over_ = true;
    return !over_;
  }
  std::size_t limit_, count_ = 0;
  bool over_ = false;
  std::string error_;
  std::size_t error_position_ = 0;
};

Status NotOneDocument(const std::string& what, std::size_t position) {
  // position is 1-based: the byte at which the parser gave up.
  return Status(ErrorCode::kCorrupt, "not one JSON document: " + what)
      .AtOffset(position > 0 ? position - 1 : 0);
}

}  // namespace

std::size_t CountValues(const json& j) {
  std::size_t n = 0;
  std::vector<const json*> stack{&j};
  while (!stack.empty()) {
    const json* v = stack.back();
    stack.pop_back();
    ++n;
    if (v->is_structured())
      for (const json& child : *v) stack.push_back(&child);
  }
  return n;
}

std::size_t NestingDepth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > limit) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

Result<nlohmann::json> ParseJsonBounded(std::string_view text, std::size_t max_depth,
                                        std::size_t max_values) {
  if (NestingDepth(text, max_depth) > max_depth)
    return Status(ErrorCode::kCorrupt,
                  "nested deeper than " + std::to_string(max_depth) + " levels");
  try {
    if (max_values != SIZE_MAX) {
      CountingSax counter(max_values);
      json::sax_parse(text, &counter, json::input_format_t::json, /*strict=*/true);
      if (counter.over())
        return Status(ErrorCode::kResourceExhausted,
                      "holds more than " + std::to_string(max_values) + " values");
    }
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return NotOneDocument(e.what(), e.byte);
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kCorrupt, std::string("not one JSON document: ") + e.what());
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory parsing JSON");
  }
}

Result<std::size_t> CountJsonValues(std::string_view text, std::size_t max_depth) {
  if (NestingDepth(text, max_depth) > max_depth)
    return Status(ErrorCode::kCorrupt,
                  "nested deeper than " + std::to_string(max_depth) + " levels");
  try {
    CountingSax counter(SIZE_MAX);
    if (json::sax_parse(text, &counter, json::input_format_t::json, /*strict=*/true))
      return counter.count();
    return NotOneDocument(counter.error(), counter.error_position());
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kCorrupt, std::string("not one JSON document: ") + e.what());
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory parsing JSON");
  }
}

}  // namespace mpo::corpus
