#include "tools/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace mpo::tools {
namespace {

double DelaySeconds() {
  const char* s = std::getenv("MPO_PROGRESS_AFTER_SECONDS");
  if (s == nullptr || *s == '\0') return 2.0;
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  return (*end == '\0' && v >= 0 && v < 1e6) ? v : 2.0;
}

}  // namespace

Progress::Progress(std::string what, std::string unit, std::uint64_t total)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      tty_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_shown_(start_),
      delay_(DelaySeconds()) {}

Progress::~Progress() { Clear(); }

void Progress::Clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

void Progress::Update(std::uint64_t done, bool force) {
  if (!tty_ || (!force && (calls_++ & 0xfff) != 0)) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < delay_) return;
  // At most ten refreshes a second: a terminal is slower than a decoder.
  if (shown_ && now - last_shown_ < std::chrono::milliseconds(100)) return;
  last_shown_ = now;
  Show(done);
}

void Progress::Show(std::uint64_t done) {
  const double seconds = std::chrono::duration<double>(last_shown_ - start_).count();
  const bool mib = unit_ == "bytes";
  const double scale = mib ? 1.0 / (1 << 20) : 1.0;
  const char* unit = mib ? "MiB" : unit_.c_str();
  const int digits = mib ? 1 : 0;  // a trace of a few MiB still shows it moving
  if (total_ > 0) {
    const double pct = 100.0 * static_cast<double>(done) / static_cast<double>(total_);
    std::fprintf(stderr, "\r\033[K%s: %.*f/%.*f %s (%.0f%%), %.0f s", what_.c_str(), digits,
                 static_cast<double>(done) * scale, digits, static_cast<double>(total_) * scale,
                 unit, pct, seconds);
  } else {
    std::fprintf(stderr, "\r\033[K%s: %.*f %s, %.0f s", what_.c_str(), digits,
                 static_cast<double>(done) * scale, unit, seconds);
  }
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace mpo::tools
