// --help text wrapped to the terminal: CLI11 prints each description on one line, which
// ran to several hundred characters. Continuation lines hang under the description
// column, so a listing stays two columns.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace mpo::tools {

// The width help is wrapped to: $COLUMNS when it is a number from 20 to 1000, else the
// terminal's width when stdout is one, else 80.
std::size_t HelpWidth();

// `text` with every line longer than `width` broken at spaces. A line whose description
// starts at `column` (CLI11's name column) continues there; any other line continues at
// its own indent. A word longer than the room left stays whole.
std::string WrapHelp(std::string_view text, std::size_t width, std::size_t column);

// CLI11's formatter, wrapping its output to `width`.
class WrappingFormatter : public CLI::Formatter {
 public:
  explicit WrappingFormatter(std::size_t width) : width_(width) {}
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;

 private:
  std::size_t width_;
};

}  // namespace mpo::tools
