// SIGINT as a request to stop following, not a kill: while an InterruptGuard lives,
// SIGINT (and, if asked, SIGTERM and SIGHUP) sets a process-wide flag (and interrupts sleeps)
// instead of ending the process, so `events tail` and `events record` can finish their output and
// say why they stopped.
//
//   InterruptGuard guard;               // handler installed
//   while (!Interrupted()) { ...; InterruptibleSleep(100); }
//                                       // previous disposition restored at scope end
//
// The flag is never cleared: once the user asked to stop, every later loop stops too.
// Guards nest (each restores what it found). Single-threaded use.
#pragma once

#include <signal.h>

namespace mpo::tools {

class InterruptGuard {
 public:
  // kStopRequests also takes SIGTERM and SIGHUP as requests to stop (`events record`,
  // which passes them on to its program and still exports its ring).
  enum Signals { kInterruptOnly, kStopRequests };
  explicit InterruptGuard(Signals signals = kInterruptOnly);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  static constexpr int kMax = 3;
  int count_ = 0;
  int signals_[kMax] = {};
  struct sigaction previous_[kMax] {};
};

// True once a signal a guard takes arrived while it was installed.
bool Interrupted();
// Which one came first (SIGINT, SIGTERM or SIGHUP); 0 if none.
int InterruptSignal();

// Sleeps `ms` milliseconds on the monotonic clock; returns early when interrupted.
void InterruptibleSleep(double ms);

}  // namespace mpo::tools
