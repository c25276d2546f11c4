// SIGINT as a request to stop following, not a kill: while an InterruptGuard lives,
// SIGINT sets a process-wide flag (and interrupts sleeps) instead of ending the process,
// so `events tail` and `events record` can finish their output and say why they stopped.
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
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  bool installed_ = false;
  struct sigaction previous_ {};
};

// True once SIGINT arrived while a guard was installed.
bool Interrupted();

// Sleeps `ms` milliseconds on the monotonic clock; returns early when interrupted.
void InterruptibleSleep(double ms);

}  // namespace mpo::tools
