#include "tools/help_format.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace mpo::tools {

std::size_t HelpWidth() {
  if (const char* columns = std::getenv("COLUMNS")) {
    std::size_t n = 0;
    const char* end = columns + std::strlen(columns);
    const auto r = std::from_chars(columns, end, n);
    if (r.ec == std::errc() && r.ptr == end && n >= 20 && n <= 1000) return n;
  }
  struct winsize ws {};
  if (::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
      ws.ws_col >= 20) {
    return ws.ws_col;
  }
  return 80;
}

namespace {

void WrapLine(std::string_view line, std::size_t width, std::size_t column, std::string& out) {
  if (line.size() <= width) {
    out.append(line);
    return;
  }
  std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string_view::npos) lead = 0;
  // CLI11 pads the name to `column` and starts the description there.
  const bool two_columns = lead > 0 && line.size() > column && column > 0 &&
                           line[column - 1] == ' ' && line[column] != ' ';
  std::size_t hang = two_columns ? column : lead;
  if (hang + 20 > width) hang = lead < width / 2 ? lead : 0;
  std::size_t start = 0;   // of what is still to print
  std::size_t indent = 0;  // of the line being built (the first keeps its own)
  bool first = true;
  while (start < line.size()) {
    const std::size_t room = width - indent;
    std::string_view rest = line.substr(start);
    if (rest.size() <= room) {
      out.append(indent, ' ').append(rest);
      return;
    }
    // The last space at which the line fits; else the first space after (a long word).
    std::size_t cut = rest.rfind(' ', room);
    const std::size_t floor = first ? hang : 0;  // never break inside the name column
    if (cut == std::string_view::npos || cut <= floor) {
      cut = rest.find(' ', room);
      if (cut == std::string_view::npos) {
        out.append(indent, ' ').append(rest);
        return;
      }
    }
    std::string_view piece = rest.substr(0, cut);
    while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
    out.append(indent, ' ').append(piece).append("\n");
    start += cut;
    while (start < line.size() && line[start] == ' ') ++start;
    indent = hang;
    first = false;
  }
}

}  // namespace

std::string WrapHelp(std::string_view text, std::size_t width, std::size_t column) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    WrapLine(text.substr(0, nl), width, column, out);
    if (nl == std::string_view::npos) break;
    out.push_back('\n');
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string WrappingFormatter::make_help(const CLI::App* app, std::string name,
                                         CLI::AppFormatMode mode) const {
  return WrapHelp(CLI::Formatter::make_help(app, std::move(name), mode), width_,
                  get_column_width());
}

}  // namespace mpo::tools
