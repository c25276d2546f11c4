// A profile (Gc.Memprof.t): the configuration every entry sampled under it refers to,
// and its status, the one field domains write concurrently.
//
// Threading: everything but the status is immutable after Start. The status moves
// sampling -> stopped -> discarded, each step by one compare-and-swap so that two
// domains stopping (or discarding) the same profile cannot both succeed. Readers use
// acquire loads; nothing else is published through the status, it only gates actions.
// Written over the sync platform P so that Relacy can check it (models/memprof/).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/status.h"
#include "core/memprof/api.h"
#include "core/sampler/sampling_rate.h"
#include "core/sync/memory_order.h"

namespace mpo::memprof {

enum class ProfileStatusValue : std::uint8_t { kSampling = 0, kStopped = 1, kDiscarded = 2 };

// OCaml's messages, kept byte for byte: tools and tests compare them.
inline constexpr const char* kStartInvalidArgument = "Gc.Memprof.start";
inline constexpr const char* kStartAlreadyStarted = "Gc.Memprof.start: already started.";
inline constexpr const char* kStopNoProfile = "Gc.Memprof.stop: no profile running.";
inline constexpr const char* kDiscardNotStopped = "Gc.Memprof.discard: profile not stopped.";
inline constexpr const char* kDiscardAlreadyDiscarded =
    "Gc.Memprof.discard: profile already discarded.";

// How a status is stored: a fault policy (core/base/faults.h), here rather than in
// faults.h so that the Relacy models need this target alone; models/memprof's mutants of
// it (a plain variable; a check followed by a separate store, as OCaml's discard does)
// must each be caught.
struct StatusNoFaults {
  // The status is an atomic, not a plain variable.
  static constexpr bool kAtomicCell = true;
  // A transition is one compare-and-swap, not a load then a store.
  static constexpr bool kTransitionIsCas = true;
};

template <class P, class Faults = StatusNoFaults>
class ProfileStatus {
 public:
  ProfileStatus() : cell_(Encode(ProfileStatusValue::kSampling)) {}

  ProfileStatusValue Load() const {
    if constexpr (!Faults::kAtomicCell) {
      return Decode(cell_.Load());
    } else {
      return Decode(cell_.Load(sync::MemoryOrder::kAcquire));
    }
  }

  // Moves `from` -> `to`; false (nothing written) when the status was not `from`.
  bool Transition(ProfileStatusValue from, ProfileStatusValue to) {
    if constexpr (!Faults::kAtomicCell) {
      if (Decode(cell_.Load()) != from) return false;
      cell_.Store(Encode(to));
      return true;
    } else if constexpr (Faults::kTransitionIsCas) {
      std::uint8_t expected = Encode(from);
      return cell_.CompareExchange(expected, Encode(to), sync::MemoryOrder::kAcqRel,
                                   sync::MemoryOrder::kAcquire);
    } else {
      if (Decode(cell_.Load(sync::MemoryOrder::kAcquire)) != from) return false;
      cell_.Store(Encode(to), sync::MemoryOrder::kRelease);
      return true;
    }
  }

 private:
  static std::uint8_t Encode(ProfileStatusValue v) { return static_cast<std::uint8_t>(v); }
  static ProfileStatusValue Decode(std::uint8_t v) { return static_cast<ProfileStatusValue>(v); }
  using Cell = std::conditional_t<Faults::kAtomicCell, typename P::template Atomic<std::uint8_t>,
                                  typename P::template Var<std::uint8_t>>;
  Cell cell_;
};

// Validated Gc.Memprof.start arguments: kInvalidArgument "Gc.Memprof.start" for λ
// outside [0, 1], NaN, or a negative callstack size.
struct ProfileParams {
  sampler::SamplingRate rate;
  std::uint32_t callstack_size;
  static Result<ProfileParams> Make(double lambda, std::int64_t callstack_size);
};

inline Result<ProfileParams> ProfileParams::Make(double lambda, std::int64_t callstack_size) {
  // Same test as caml_memprof_start: the size first, then λ (NaN fails the comparison).
  if (callstack_size < 0 || callstack_size > UINT32_MAX || !(lambda >= 0.0 && lambda <= 1.0)) {
    return Status(ErrorCode::kInvalidArgument, kStartInvalidArgument)
        .WithField(callstack_size < 0 ? "callstack_size" : "sampling_rate");
  }
  auto rate = sampler::SamplingRate::FromLambda(lambda);
  if (!rate.ok()) return rate.status();
  return ProfileParams{*rate, static_cast<std::uint32_t>(callstack_size)};
}

// `Faults`: the status's fault policy (StatusNoFaults above).
template <class P, class Faults = StatusNoFaults>
class Profile {
 public:
  Profile(ProfileParams params, Tracker tracker, std::uint64_t id)
      : params_(params), tracker_(std::move(tracker)), id_(id) {}

  const sampler::SamplingRate& rate() const { return params_.rate; }
  double lambda() const { return params_.rate.lambda(); }
  std::uint32_t callstack_size() const { return params_.callstack_size; }
  const Tracker& tracker() const { return tracker_; }
  // The tracker's GC roots; written only by root scanning (stop-the-world).
  std::vector<UserData>& roots() { return tracker_.roots; }
  // A number unique within the engine, for messages and traces.
  std::uint64_t id() const { return id_; }

  ProfileStatusValue status() const { return status_.Load(); }
  bool sampling() const { return status() == ProfileStatusValue::kSampling; }
  bool Transition(ProfileStatusValue from, ProfileStatusValue to) {
    return status_.Transition(from, to);
  }

 private:
  ProfileParams params_;
  Tracker tracker_;
  std::uint64_t id_;
  ProfileStatus<P, Faults> status_;
};

// Profiles live as long as any table or user handle refers to them (OCaml keeps them
// on its heap, reachable from every entries table).
template <class P>
using ProfileRef = std::shared_ptr<Profile<P>>;

// Gc.Memprof.discard's checks and transition: kFailedPrecondition with OCaml's message
// unless the profile is stopped. Shared by the engine and the models.
template <class P, class Faults>
Status DiscardProfile(Profile<P, Faults>& profile) {
  while (true) {
    switch (profile.status()) {
      case ProfileStatusValue::kStopped:
        if (profile.Transition(ProfileStatusValue::kStopped, ProfileStatusValue::kDiscarded)) {
          return Status::Ok();
        }
        continue;  // raced with another discard: report what it left
      case ProfileStatusValue::kSampling:
        return Status(ErrorCode::kFailedPrecondition, kDiscardNotStopped);
      case ProfileStatusValue::kDiscarded:
        return Status(ErrorCode::kFailedPrecondition, kDiscardAlreadyDiscarded);
    }
    return Status(ErrorCode::kInternal, "profile status out of range");
  }
}

}  // namespace mpo::memprof
