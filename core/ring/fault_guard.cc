#include "core/ring/fault_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

namespace mpo::ring {
namespace {

// Lock-free slots, so that the handler can scan them without taking a lock.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};  // 0 while the slot is being filled or emptied
  std::atomic<bool> faulted{false};
};

constexpr int kSlots = 256;
Slot g_slots[kSlots];
struct sigaction g_previous;
std::once_flag g_install_once;
int g_install_errno = 0;

static_assert(std::atomic<std::uintptr_t>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

void ForwardToPrevious(int sig, siginfo_t* info, void* context) {
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) return g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    return g_previous.sa_handler(sig);
  }
  // Default action: restore it; returning re-executes the load, which now kills the
  // process with SIGBUS exactly as without the guard.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(SIGBUS, &dfl, nullptr);
}

void OnSigbus(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (info->si_code == BUS_ADRERR) {
    for (Slot& s : g_slots) {
      const std::uintptr_t end = s.end.load(std::memory_order_acquire);
      if (end == 0 || addr < s.begin.load(std::memory_order_relaxed) || addr >= end) continue;
      const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
      // The page start, reached from the faulting pointer (no integer-to-pointer cast).
      void* at = static_cast<char*>(info->si_addr) - (addr & (page - 1));
      // mmap is a plain system call; it replaces just the vanished page.
      if (::mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
          MAP_FAILED) {
        s.faulted.store(true, std::memory_order_relaxed);
        errno = saved_errno;
        return;
      }
      break;
    }
  }
  errno = saved_errno;
  ForwardToPrevious(sig, info, context);
}

void Install() {
  struct sigaction sa {};
  sa.sa_sigaction = OnSigbus;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(SIGBUS, &sa, &g_previous) != 0) g_install_errno = errno;
}

}  // namespace

FaultGuard::FaultGuard(FaultGuard&& other) noexcept : slot_(std::exchange(other.slot_, -1)) {}

FaultGuard& FaultGuard::operator=(FaultGuard&& other) noexcept {
  if (this != &other) {
    Reset();
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

FaultGuard::~FaultGuard() { Reset(); }

Result<FaultGuard> FaultGuard::Register(const void* data, std::size_t size) {
  std::call_once(g_install_once, Install);
  if (g_install_errno != 0) {
    return Status(ErrorCode::kIo, std::string("cannot install the SIGBUS handler: ") +
                                      std::strerror(g_install_errno))
        .WithField("sigaction");
  }
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
      continue;
    }
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    g_slots[i].faulted.store(false, std::memory_order_relaxed);
    g_slots[i].begin.store(begin, std::memory_order_relaxed);
    g_slots[i].end.store(begin + size, std::memory_order_release);
    FaultGuard g;
    g.slot_ = i;
    return g;
  }
  return Status(ErrorCode::kResourceExhausted,
                "more than " + std::to_string(kSlots) + " ring files mapped at once")
      .WithField("mapped files");
}

bool FaultGuard::faulted() const {
  return slot_ >= 0 && g_slots[slot_].faulted.load(std::memory_order_relaxed);
}

void FaultGuard::Reset() {
  if (slot_ < 0) return;
  Slot& s = g_slots[slot_];
  s.end.store(0, std::memory_order_release);
  s.begin.store(0, std::memory_order_relaxed);
  s.used.store(false, std::memory_order_release);
  slot_ = -1;
}

}  // namespace mpo::ring
