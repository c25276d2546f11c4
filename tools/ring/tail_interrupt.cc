#include "tools/ring/tail_interrupt.h"

#include <cerrno>
#include <cmath>
#include <ctime>

namespace mpo::tools {
namespace {

// Written by the signal handler: only a lock-free atomic type is safe there.
volatile sig_atomic_t interrupted = 0;

void OnInterrupt(int) { interrupted = 1; }

}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: a sleep or a blocking wait returns with EINTR, so the loop sees the
  // flag at once rather than after its pause.
  sa.sa_flags = 0;
  installed_ = sigaction(SIGINT, &sa, &previous_) == 0;
}

InterruptGuard::~InterruptGuard() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
}

bool Interrupted() { return interrupted != 0; }

void InterruptibleSleep(double ms) {
  if (!(ms > 0)) return;
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  const double whole = std::floor(ms / 1000.0);
  deadline.tv_sec += static_cast<time_t>(whole);
  deadline.tv_nsec += static_cast<long>((ms - whole * 1000.0) * 1e6);
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  // Absolute deadline: an unrelated signal (SIGCHLD) does not lengthen the pause.
  while (!Interrupted()) {
    const int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr);
    if (rc != EINTR) return;
  }
}

}  // namespace mpo::tools
