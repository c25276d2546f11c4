// Progress for long operations, on stderr, only when stderr is a terminal and only once
// the operation has run for ~2 s: short runs and redirected output stay silent.
//
// MPO_PROGRESS_AFTER_SECONDS overrides the 2 s (tests set 0 to see it at once).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace mpo::tools {

class Progress {
 public:
  // `what` names the operation ("corpus check"); `unit` what is counted ("cases",
  // "bytes": shown in MiB). `total` 0 means unknown (a count without a percentage).
  Progress(std::string what, std::string unit, std::uint64_t total);
  ~Progress();  // clears the line if one was shown
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Cheap enough to call per event: looks at the clock on the first call and every 4096
  // after it (every call when `force`, for slow steps such as one corpus case).
  void Update(std::uint64_t done, bool force = false);
  // The total once it is known (a first pass counted it); 0 means unknown.
  void SetTotal(std::uint64_t total) { total_ = total; }
  // Takes the line away before other output is printed to the same terminal.
  void Clear();

 private:
  void Show(std::uint64_t done);

  std::string what_, unit_;
  std::uint64_t total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_shown_;
  std::chrono::duration<double> delay_;
  std::uint64_t calls_ = 0;
  bool shown_ = false;
};

}  // namespace mpo::tools
