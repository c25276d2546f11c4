// Reading a shared file mapping that another process may shrink. On Linux a load from
// a page beyond the end of the file raises SIGBUS, which kills the reader. A
// FaultGuard registers a read-only mapping with a process-wide SIGBUS handler: a fault
// inside a registered range maps a zero page over the vanished page (so the load
// completes and reads zeros) and marks the guard as faulted; the reader then checks
// faulted() and reports a typed error instead of using what it read. Faults outside
// every registered range go to the previous handler (or kill the process as before).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/base/status.h"

namespace mpo::ring {

class FaultGuard {
 public:
  FaultGuard() = default;
  FaultGuard(FaultGuard&& other) noexcept;
  FaultGuard& operator=(FaultGuard&& other) noexcept;
  FaultGuard(const FaultGuard&) = delete;
  FaultGuard& operator=(const FaultGuard&) = delete;
  ~FaultGuard();  // unregisters; call before unmapping

  // Guards [data, data + size). Installs the handler on first use. kResourceExhausted
  // if too many mappings are guarded at once, kIo if the handler cannot be installed.
  static Result<FaultGuard> Register(const void* data, std::size_t size);

  // True once a load in the range has hit a page that no longer exists in the file.
  // Set by the faulting thread itself, so a check after the load sees it.
  bool faulted() const;

  // Unregisters now. Idempotent.
  void Reset();

 private:
  int slot_ = -1;
};

}  // namespace mpo::ring
