#include "core/ring/event_names.h"

#include <array>
#include <span>

namespace mpo::ring {
namespace {

// Phase lists in the order of OCaml's ev_runtime_phase enum, release by release
// (otherlibs/runtime_events/runtime_events.ml on the 5.0-5.3 branches; trunk after 5.3
// for 5.4 and 5.5, which appended empty_minor).
constexpr std::array<std::string_view, 40> kPhases50 = {
    "explicit_gc_set",
    "explicit_gc_stat",
    "explicit_gc_minor",
    "explicit_gc_major",
    "explicit_gc_full_major",
    "explicit_gc_compact",
    "major",
    "major_sweep",
    "major_mark_roots",
    "major_mark",
    "minor",
    "minor_local_roots",
    "minor_finalized",
    "explicit_gc_major_slice",
    "finalise_update_first",
    "finalise_update_last",
    "interrupt_remote",
    "major_ephe_mark",
    "major_ephe_sweep",
    "major_finish_marking",
    "major_gc_cycle_domains",
    "major_gc_phase_change",
    "major_gc_stw",
    "major_mark_opportunistic",
    "major_slice",
    "major_finish_cycle",
    "minor_clear",
    "minor_finalizers_oldify",
    "minor_global_roots",
    "minor_leave_barrier",
    "stw_api_barrier",
    "stw_handler",
    "stw_leader",
    "major_finish_sweeping",
    "minor_finalizers_admin",
    "minor_remembered_set",
    "minor_remembered_set_promote",
    "minor_local_roots_promote",
    "domain_condition_wait",
    "domain_resize_heap_reservation",
};

constexpr std::array<std::string_view, 44> kPhases52 = {
    "explicit_gc_set",
    "explicit_gc_stat",
    "explicit_gc_minor",
    "explicit_gc_major",
    "explicit_gc_full_major",
    "explicit_gc_compact",
    "major",
    "major_sweep",
    "major_mark_roots",
    "major_mark",
    "minor",
    "minor_local_roots",
    "minor_finalized",
    "explicit_gc_major_slice",
    "finalise_update_first",
    "finalise_update_last",
    "interrupt_remote",
    "major_ephe_mark",
    "major_ephe_sweep",
    "major_finish_marking",
    "major_gc_cycle_domains",
    "major_gc_phase_change",
    "major_gc_stw",
    "major_mark_opportunistic",
    "major_slice",
    "major_finish_cycle",
    "minor_clear",
    "minor_finalizers_oldify",
    "minor_global_roots",
    "minor_leave_barrier",
    "stw_api_barrier",
    "stw_handler",
    "stw_leader",
    "major_finish_sweeping",
    "minor_finalizers_admin",
    "minor_remembered_set",
    "minor_remembered_set_promote",
    "minor_local_roots_promote",
    "domain_condition_wait",
    "domain_resize_heap_reservation",
    "compaction",
    "compaction_evacuate",
    "compaction_forward",
    "compaction_release",
};

// 5.3: major_memprof_roots (9), minor_memprof_roots (13), minor_memprof_clean (14) and
// major_memprof_clean (37) inserted; 5.4 appends empty_minor.
constexpr std::array<std::string_view, 49> kPhases54 = {
    "explicit_gc_set",
    "explicit_gc_stat",
    "explicit_gc_minor",
    "explicit_gc_major",
    "explicit_gc_full_major",
    "explicit_gc_compact",
    "major",
    "major_sweep",
    "major_mark_roots",
    "major_memprof_roots",
    "major_mark",
    "minor",
    "minor_local_roots",
    "minor_memprof_roots",
    "minor_memprof_clean",
    "minor_finalized",
    "explicit_gc_major_slice",
    "finalise_update_first",
    "finalise_update_last",
    "interrupt_remote",
    "major_ephe_mark",
    "major_ephe_sweep",
    "major_finish_marking",
    "major_gc_cycle_domains",
    "major_gc_phase_change",
    "major_gc_stw",
    "major_mark_opportunistic",
    "major_slice",
    "major_finish_cycle",
    "minor_clear",
    "minor_finalizers_oldify",
    "minor_global_roots",
    "minor_leave_barrier",
    "stw_api_barrier",
    "stw_handler",
    "stw_leader",
    "major_finish_sweeping",
    "major_memprof_clean",
    "minor_finalizers_admin",
    "minor_remembered_set",
    "minor_remembered_set_promote",
    "minor_local_roots_promote",
    "domain_condition_wait",
    "domain_resize_heap_reservation",
    "compaction",
    "compaction_evacuate",
    "compaction_forward",
    "compaction_release",
    "empty_minor",
};

// Counters only grew at the end: 11 in 5.0, 17 in 5.1 and 5.2, 26 from 5.3.
constexpr std::array<std::string_view, 26> kCounters = {
    "force_minor_alloc_small",
    "force_minor_make_vect",
    "force_minor_set_minor_heap_size",
    "force_minor_memprof",
    "minor_promoted",
    "minor_allocated",
    "request_major_alloc_shr",
    "request_major_adjust_gc_speed",
    "request_minor_realloc_ref_table",
    "request_minor_realloc_ephe_ref_table",
    "request_minor_realloc_custom_table",
    "major_heap_pool_words",
    "major_heap_pool_live_words",
    "major_heap_large_words",
    "major_heap_pool_frag_words",
    "major_heap_pool_live_blocks",
    "major_heap_large_blocks",
    "major_heap_words",
    "major_allocated_words",
    "major_allocated_work",
    "major_dependent_work",
    "major_extra_work",
    "major_work_counter",
    "major_alloc_counter",
    "major_slice_target",
    "major_slice_budget",
};

constexpr std::array<std::string_view, 8> kLifecycle = {
    "ring_start",  "ring_stop",  "ring_pause",   "ring_resume",
    "fork_parent", "fork_child", "domain_spawn", "domain_terminate",
};

std::span<const std::string_view> Phases(OcamlVersion v) {
  switch (v) {
    case OcamlVersion::k5_0:
    case OcamlVersion::k5_1: return kPhases50;
    case OcamlVersion::k5_2: return kPhases52;
    case OcamlVersion::k5_3: return std::span(kPhases54).first(48);
    case OcamlVersion::k5_4:
    case OcamlVersion::k5_5: return kPhases54;
  }
  return {};
}

std::size_t CounterCount(OcamlVersion v) {
  switch (v) {
    case OcamlVersion::k5_0: return 11;
    case OcamlVersion::k5_1:
    case OcamlVersion::k5_2: return 17;
    default: return kCounters.size();
  }
}

std::optional<std::string_view> Lookup(std::span<const std::string_view> names, unsigned id) {
  if (id >= names.size()) return std::nullopt;
  return names[id];
}

}  // namespace

std::optional<OcamlVersion> ParseOcamlVersion(std::string_view text) {
  if (text.size() < 3 || text.substr(0, 2) != "5.") return std::nullopt;
  if (text.size() > 3 && text[3] != '.' && text[3] != '+' && text[3] != '~') return std::nullopt;
  switch (text[2]) {
    case '0': return OcamlVersion::k5_0;
    case '1': return OcamlVersion::k5_1;
    case '2': return OcamlVersion::k5_2;
    case '3': return OcamlVersion::k5_3;
    case '4': return OcamlVersion::k5_4;
    case '5': return OcamlVersion::k5_5;
    default: return std::nullopt;
  }
}

std::string_view OcamlVersionName(OcamlVersion v) {
  constexpr std::array<std::string_view, 6> kNames = {"5.0", "5.1", "5.2", "5.3", "5.4", "5.5"};
  return kNames[static_cast<std::size_t>(v)];
}

std::optional<std::string_view> PhaseName(OcamlVersion v, unsigned id) {
  return Lookup(Phases(v), id);
}

std::optional<std::string_view> CounterName(OcamlVersion v, unsigned id) {
  return Lookup(std::span(kCounters).first(CounterCount(v)), id);
}

std::optional<std::string_view> LifecycleName(unsigned id) { return Lookup(kLifecycle, id); }

}  // namespace mpo::ring
