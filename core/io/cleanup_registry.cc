#include "core/io/cleanup_registry.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

namespace mpo::io {
namespace {

constexpr int kSlots = 64;

// A slot is claimed with a compare-and-swap, so a registering thread and a handler never
// use the same slot at once: the handler only reads a slot it moved from kArmed to kBusy.
enum SlotState : int { kFree = 0, kBusy = 1, kArmed = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  CleanupKind kind = CleanupKind::kFile;
  pid_t owner = 0;
  char path[PATH_MAX] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free flag");

Slot g_slots[kSlots];

constexpr int kTerminationSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                       SIGALRM, SIGUSR1, SIGUSR2, SIGPIPE};

// The kernel's record of one directory entry (getdents64 is the async-signal-safe way to
// list a directory: opendir allocates).
struct DirEntry64 {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

bool IsDotOrDotDot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

// Removes what directory `dir` holds, `depth` folders deep at most. Entries are removed
// while the listing is read, which may skip some: passes repeat while one removes any.
void RemoveContents(int dir, int depth) {
  alignas(8) char buf[2048];
  for (int pass = 0; pass < 8; ++pass) {
    bool removed = false;
    if (::lseek(dir, 0, SEEK_SET) != 0) return;
    while (true) {
      const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* e = reinterpret_cast<const DirEntry64*>(buf + at);
        at += e->reclen;
        if (IsDotOrDotDot(e->name)) continue;
        if (::unlinkat(dir, e->name, 0) == 0) {
          removed = true;
          continue;
        }
        if (depth <= 0) continue;
        const int sub = ::openat(dir, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        RemoveContents(sub, depth - 1);
        ::close(sub);
        if (::unlinkat(dir, e->name, AT_REMOVEDIR) == 0) removed = true;
      }
    }
    if (!removed) return;
  }
}

void RemovePath(const Slot& s) {
  if (s.kind == CleanupKind::kFile) {
    ::unlink(s.path);
    return;
  }
  const int dir = ::open(s.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir >= 0) {
    RemoveContents(dir, 6);
    ::close(dir);
  }
  ::rmdir(s.path);
}

void RemoveRegistered() {
  const pid_t self = ::getpid();
  for (Slot& s : g_slots) {
    int armed = kArmed;
    if (!s.state.compare_exchange_strong(armed, kBusy)) continue;
    if (s.owner == self) RemovePath(s);
    // Left busy: the process is ending, and a later signal must not remove it again.
  }
}

void OnTerminationSignal(int sig) {
  const int saved_errno = errno;
  RemoveRegistered();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  // Raised while blocked (this handler runs with it blocked), delivered once unblocked:
  // the default action then ends the process with this signal as its status.
  ::raise(sig);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  errno = saved_errno;
}

void OnFileSizeLimit(int) {}

sigset_t TerminationSet() {
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : kTerminationSignals) sigaddset(&set, sig);
  return set;
}

}  // namespace

void InstallSignalPolicy() {
  static std::atomic<bool> installed{false};
  if (installed.exchange(true)) return;
  struct sigaction sa {};
  sa.sa_handler = OnTerminationSignal;
  sa.sa_mask = TerminationSet();  // one clean-up at a time in a thread
  sa.sa_flags = 0;
  for (const int sig : kTerminationSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if (old.sa_handler == SIG_IGN && sig != SIGPIPE) continue;
    ::sigaction(sig, &sa, nullptr);
  }
  struct sigaction fsz {};
  fsz.sa_handler = OnFileSizeLimit;
  sigemptyset(&fsz.sa_mask);
  fsz.sa_flags = SA_RESTART;
  ::sigaction(SIGXFSZ, &fsz, nullptr);
}

ScopedCleanup::ScopedCleanup(const std::string& path, CleanupKind kind) {
  if (path.empty() || path.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    int free = kFree;
    if (!s.state.compare_exchange_strong(free, kBusy)) continue;
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.kind = kind;
    s.owner = ::getpid();
    s.state.store(kArmed, std::memory_order_release);
    slot_ = i;
    return;
  }
}

ScopedCleanup::ScopedCleanup(ScopedCleanup&& other) noexcept
    : slot_(std::exchange(other.slot_, -1)) {}

ScopedCleanup& ScopedCleanup::operator=(ScopedCleanup&& other) noexcept {
  if (this != &other) {
    Release();
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

void ScopedCleanup::Release() {
  if (slot_ < 0) return;
  int armed = kArmed;
  // Fails only if a handler took the slot: the process is ending, leave it to it.
  g_slots[slot_].state.compare_exchange_strong(armed, kFree);
  slot_ = -1;
}

TerminationSignalsBlocked::TerminationSignalsBlocked() {
  const sigset_t set = TerminationSet();
  ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

TerminationSignalsBlocked::~TerminationSignalsBlocked() {
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace mpo::io
