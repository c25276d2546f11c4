// Deliberately broken variants ("mutants"), the one way the project builds them: a tested
// layer takes a *fault policy*, and a mutant is a policy with one step wrong. Tests and
// models must catch every mutant, which shows that they test something.
//
// The convention, for every layer that has one:
//   - the correct steps are a struct of static functions and constants, `NoFaults`, in
//     the layer's `faults.h` (core/memprof, core/memtrace, core/ring); a seam in a lower
//     target than the rest of its layer, which a Relacy model builds alone, has its
//     struct `<Seam>NoFaults` there (ring::ProtocolNoFaults, ring::PollGateNoFaults,
//     memprof::StatusNoFaults, memprof::OrphansNoFaults);
//   - the code takes the policy as a template parameter `Faults` (defaulted to NoFaults)
//     and calls a step where a bug would hide; every step of NoFaults returns what the
//     code already computed, so it inlines away; production uses NoFaults only (compiled
//     once in the layer's .cc where the code is out of line), and code that owns a
//     layer's objects passes the policy on (sim::BasicSimRuntime<Faults> owns Domains);
//   - a mutant derives from NoFaults and overrides one step; mutants live in testonly
//     targets (a model's in its own source, named by its ExpectModel line), and each
//     layer lists its tests' mutants once, as `using Mutants = std::tuple<...>` (plus
//     `UncaughtMutants`, known gaps, and `EquivalentMutants`, argued harmless, where a
//     corpus measures itself), each with a `static constexpr std::string_view kName`;
//   - tests iterate a list with ForEachFault, and a runner that needs one mutant per
//     process (a failing property must end its process) picks it by name with
//     WithFaultNamed.
// The sync layer follows the same shape with the platform as its policy: a model's
// mutant platform derives from sync::RelacyPlatform and replaces one member
// (models/memprof/model_support.h).
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

namespace mpo::faults {

// The name that selects the correct policy in WithFaultNamed.
inline constexpr std::string_view kNoFaultsName = "none";

// Calls `fn.template operator()<Faults>()` for every policy of the tuple `List`, in order.
template <class List, class Fn>
void ForEachFault(Fn&& fn) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (fn.template operator()<std::tuple_element_t<I, List>>(), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<List>>{});
}

// Calls `fn.template operator()<Faults>()` with the policy called `name`: `NoFaults` for
// kNoFaultsName, else the mutant of `List` whose kName it is; false, without calling,
// when there is none.
template <class NoFaults, class List, class Fn>
bool WithFaultNamed(std::string_view name, Fn&& fn) {
  if (name == kNoFaultsName) {
    fn.template operator()<NoFaults>();
    return true;
  }
  bool found = false;
  ForEachFault<List>([&]<class Faults>() {
    if (!found && name == Faults::kName) {
      found = true;
      fn.template operator()<Faults>();
    }
  });
  return found;
}

}  // namespace mpo::faults
