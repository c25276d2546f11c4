#include "core/memtrace/report/page_text.h"

#include "core/base/json_text.h"

namespace mpo::memtrace::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // U+2026

// The length of the well-formed UTF-8 character at the start of `s`, or 0.
std::size_t CharLength(std::string_view s) {
  const auto lead = static_cast<unsigned char>(s[0]);
  const std::size_t n = lead < 0x80                   ? 1
                        : lead >= 0xC2 && lead < 0xE0 ? 2
                        : lead >= 0xE0 && lead < 0xF0 ? 3
                        : lead >= 0xF0 && lead < 0xF5 ? 4
                                                      : 0;
  if (n == 0 || n > s.size()) return 0;
  return json_text::IsValidUtf8(s.substr(0, n)) ? n : 0;
}

}  // namespace

std::string PageText(std::string_view bytes) {
  // Whole if it fits, else cut to leave room for the ellipsis.
  std::size_t whole = 0;
  for (std::size_t i = 0; i < bytes.size() && whole <= kPageNameBytes;) {
    const std::size_t n = CharLength(bytes.substr(i));
    whole += n == 0 ? kReplacement.size() : n;
    i += n == 0 ? 1 : n;
  }
  const bool cut = whole > kPageNameBytes;
  const std::size_t room = cut ? kPageNameBytes - kEllipsis.size() : kPageNameBytes;
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = CharLength(bytes.substr(i));
    const std::string_view piece = n == 0 ? kReplacement : bytes.substr(i, n);
    if (out.size() + piece.size() > room) break;
    out += piece;
    i += n == 0 ? 1 : n;
  }
  if (cut) out += kEllipsis;
  return out;
}

}  // namespace mpo::memtrace::report
