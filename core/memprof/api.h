// The vocabulary a user of the memprof engine sees: what a callback receives and
// returns (Gc.Memprof.allocation, the tracker record, the 'minor/'major user data) and
// the "exception" a callback can raise.
//
// User data is a 64-bit value chosen by the callbacks (a tracer stores an object id in
// it). The engine never interprets it; a runtime may (RuntimeHooks::IsYoungValue and
// Domain::ScanRoots let the simulated runtime treat it as an OCaml value). A callback
// raises an OCaml-style exception by returning CallbackResult::Raise: the engine then
// deletes the entry and hands the exception back to whoever entered it (a poll, an
// allocation, Stop).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace mpo::memprof {

// A block's address in the runtime's word-addressed heap: the word holding its header.
using BlockAddr = std::uint64_t;
// "No block" (OCaml's Val_unit in an entry's block field). No runtime block lives at 0.
inline constexpr BlockAddr kNoBlock = 0;

using UserData = std::uint64_t;

// Gc.Memprof.allocation_source (CAML_MEMPROF_SRC_*).
enum class AllocationSource : std::uint8_t { kNormal = 0, kMarshal = 1, kCustom = 2 };

// Which callback of an entry (CB_*); "minor" and "major" are not distinguished.
enum class CallbackKind : std::uint8_t { kNone = 0, kAlloc = 1, kPromote = 2, kDealloc = 3 };

// An exception raised by a callback, carried back to the engine's caller unchanged.
struct Exception {
  std::uint64_t tag = 0;
  friend bool operator==(const Exception&, const Exception&) = default;
};

// What a callback hands back: Some user data (keep tracking), None (stop tracking), or
// an exception. Deallocation callbacks return unit: only Raise matters for them.
class CallbackResult {
 public:
  static CallbackResult Keep(UserData data) { return CallbackResult(Kind::kKeep, data, {}); }
  static CallbackResult Drop() { return CallbackResult(Kind::kDrop, 0, {}); }
  static CallbackResult Raise(Exception e) { return CallbackResult(Kind::kRaise, 0, e); }

  bool kept() const { return kind_ == Kind::kKeep; }
  bool raised() const { return kind_ == Kind::kRaise; }
  UserData data() const { return data_; }
  Exception exception() const { return exception_; }

 private:
  enum class Kind : std::uint8_t { kKeep, kDrop, kRaise };
  CallbackResult(Kind kind, UserData data, Exception e) : kind_(kind), data_(data), exception_(e) {}
  Kind kind_;
  UserData data_;
  Exception exception_;
};

// Gc.Memprof.allocation, plus where it happened (for tracers writing per-domain traces).
struct AllocationInfo {
  std::uint64_t n_samples = 0;
  std::uint64_t size = 0;  // words, header excluded
  AllocationSource source = AllocationSource::kNormal;
  std::span<const std::uint64_t> callstack;  // innermost frame first; valid during the call
  std::uint32_t domain_id = 0;
  std::uint32_t thread_id = 0;
};

// Gc.Memprof.tracker. An empty std::function behaves as Gc.Memprof.null_tracker's
// field: allocation and promotion return None, deallocation does nothing. Callbacks run
// on the thread that polls (allocation callbacks on the allocating thread), never
// nested; they may call Start, Stop and Discard.
struct Tracker {
  std::function<CallbackResult(const AllocationInfo&)> alloc_minor;
  std::function<CallbackResult(const AllocationInfo&)> alloc_major;
  std::function<CallbackResult(UserData)> promote;
  std::function<CallbackResult(UserData)> dealloc_minor;
  std::function<CallbackResult(UserData)> dealloc_major;
  // Values the callbacks' closures hold. In OCaml the closures are heap blocks reachable
  // from the profile, so the GC keeps what they capture alive (and moves it): the
  // engine hands each to RuntimeHooks-aware root scanning (Domain::ScanRoots) for as
  // long as a table's profile is this one. Read them back through Profile::roots().
  std::vector<UserData> roots;
};

// The outcome of an engine entry point that runs callbacks: an exception or nothing.
using Raised = std::optional<Exception>;

}  // namespace mpo::memprof

#include "core/base/status.h"

namespace mpo::memprof {

// What an entry point returns when it can both fail with a typed error (OCaml's Failure
// or Invalid_argument) and propagate a callback's exception.
struct Outcome {
  Status status;
  Raised raised;
  bool ok() const { return status.ok() && !raised.has_value(); }
};

}  // namespace mpo::memprof
