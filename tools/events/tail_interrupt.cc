#include "tools/events/tail_interrupt.h"

#include <cerrno>
#include <cmath>
#include <ctime>

namespace mpo::tools {
namespace {

// Written by the signal handler: only a lock-free atomic type is safe there.
volatile sig_atomic_t interrupted = 0;

void OnInterrupt(int sig) {
  if (interrupted == 0) interrupted = sig;
}

}  // namespace

InterruptGuard::InterruptGuard(Signals signals) {
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: a sleep or a blocking wait returns with EINTR, so the loop sees the
  // flag at once rather than after its pause.
  sa.sa_flags = 0;
  const int stop[] = {SIGINT, SIGTERM, SIGHUP};
  const int n = signals == kStopRequests ? 3 : 1;
  for (int i = 0; i < n; ++i) {
    if (sigaction(stop[i], &sa, &previous_[count_]) == 0) signals_[count_++] = stop[i];
  }
}

InterruptGuard::~InterruptGuard() {
  for (int i = count_ - 1; i >= 0; --i) sigaction(signals_[i], &previous_[i], nullptr);
}

bool Interrupted() { return interrupted != 0; }

int InterruptSignal() { return interrupted; }

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
