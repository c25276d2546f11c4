// Every deliberately broken engine ("mutant"), once: each is a fault policy (faults.h)
// replacing one step of NoFaults, so tests can show that the property tests and root
// scanning tests catch each bug. Tests only (//core/memprof:mutants is testonly). The
// convention and the helpers that iterate or pick mutants: core/base/faults.h.
//
//   faults::WithFaultNamed<NoFaults, Mutants>("orphan_lost",
//                                             [&]<class Faults>() { Run<Faults>(ops); });
//   faults::ForEachFault<Mutants>([&]<class Faults>() { ... Faults::kName ... });
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <tuple>

#include "core/memprof/api.h"
#include "core/memprof/entries.h"
#include "core/memprof/faults.h"
#include "core/memprof/profiled_table.h"

namespace mpo::memprof {

// Transferring a table copies its entries but leaves them in the source table, so
// their promote and dealloc callbacks run twice.
struct TransferKeepsSource : NoFaults {
  static constexpr std::string_view kName = "transfer_keeps_source";
  static bool TransferEntries(EntriesTable& from, EntriesTable& to) {
    if (!from.CopyTo(to)) return false;
    for (std::size_t i = 0; i < from.size(); ++i) from.at(i).runner = nullptr;
    return true;
  }
};

// After a major GC every tracked major block is reported dead, alive or not.
struct DeallocWhileAlive : NoFaults {
  static constexpr std::string_view kName = "dealloc_while_alive";
  static bool SurvivesMajorGc(const std::function<bool(BlockAddr)>&, BlockAddr) { return false; }
};

// An ending domain drops its orphans instead of abandoning them to the global list:
// their entries never get callbacks again.
struct OrphanLost : NoFaults {
  static constexpr std::string_view kName = "orphan_lost";
  template <class List>
  static List OrphansToAbandon(List) {
    return nullptr;
  }
};

// Running callbacks ignores a discarded profile: callbacks run after discard.
struct CallbackAfterDiscard : NoFaults {
  static constexpr std::string_view kName = "callback_after_discard";
  template <class P>
  static const ProfileRef<P>& CallbackProfile(ProfiledTable<P>& pt) {
    return pt.config;
  }
};

// Root scanning skips entries' user data.
struct SkipUserDataRoots : NoFaults {
  static constexpr std::string_view kName = "skip_user_data_roots";
  static constexpr bool kScanUserDataRoots = false;
};

// Root scanning skips the tables' profiles (their tracker roots).
struct SkipConfigRoots : NoFaults {
  static constexpr std::string_view kName = "skip_config_roots";
  static constexpr bool kScanTrackerRoots = false;
};

// A callback returning young user data does not lower its table's `young` index, so a
// minor GC's young-only root scan misses it.
struct YoungUserDataNotNoted : NoFaults {
  static constexpr std::string_view kName = "young_user_data_not_noted";
  static constexpr bool kNoteYoungUserData = false;
};

// The list.
using Mutants = std::tuple<TransferKeepsSource, DeallocWhileAlive, OrphanLost, CallbackAfterDiscard,
                           SkipUserDataRoots, SkipConfigRoots, YoungUserDataNotNoted>;

}  // namespace mpo::memprof
