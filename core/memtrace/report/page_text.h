// How the report page shows a name (a frame, a site, the executable): as text, never as
// the {"hex":...} object the JSON views use for bytes that are not UTF-8. A byte that does
// not start a well-formed UTF-8 sequence becomes U+FFFD, as a UTF-8 terminal or browser
// shows the text view's raw bytes; a name longer than kPageNameBytes is cut at a character
// boundary and ends in "…". So every name in the page is at most kPageNameBytes of UTF-8,
// which bounds the page's size (README: "Exit codes, outputs and limits").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mpo::memtrace::report {

inline constexpr std::size_t kPageNameBytes = 256;

std::string PageText(std::string_view bytes);

}  // namespace mpo::memtrace::report
