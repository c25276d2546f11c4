#include "core/ring/event_names.h"

#include <array>
#include <span>

namespace mpo::ring {
namespace {

// Every phase of OCaml's ev_runtime_phase enum in the order of the latest release, with
// the release that introduced it (otherlibs/runtime_events/runtime_events.ml on the
// 5.0-5.3 branches; the `@since` tags of runtime_events.mli for 5.4 and 5.5). Releases only
// ever added phases (5.2 appended the compaction phases, 5.3 inserted four memprof phases
// mid-list, 5.4 appended empty_minor, 5.5 added none), so a release's numbering is the
// position among the phases it has.
struct PhaseEntry {
  std::string_view name;
  OcamlVersion since;
};

constexpr std::array<PhaseEntry, 49> kPhases = {{
    {"explicit_gc_set", OcamlVersion::k5_0},
    {"explicit_gc_stat", OcamlVersion::k5_0},
    {"explicit_gc_minor", OcamlVersion::k5_0},
    {"explicit_gc_major", OcamlVersion::k5_0},
    {"explicit_gc_full_major", OcamlVersion::k5_0},
    {"explicit_gc_compact", OcamlVersion::k5_0},
    {"major", OcamlVersion::k5_0},
    {"major_sweep", OcamlVersion::k5_0},
    {"major_mark_roots", OcamlVersion::k5_0},
    {"major_memprof_roots", OcamlVersion::k5_3},
    {"major_mark", OcamlVersion::k5_0},
    {"minor", OcamlVersion::k5_0},
    {"minor_local_roots", OcamlVersion::k5_0},
    {"minor_memprof_roots", OcamlVersion::k5_3},
    {"minor_memprof_clean", OcamlVersion::k5_3},
    {"minor_finalized", OcamlVersion::k5_0},
    {"explicit_gc_major_slice", OcamlVersion::k5_0},
    {"finalise_update_first", OcamlVersion::k5_0},
    {"finalise_update_last", OcamlVersion::k5_0},
    {"interrupt_remote", OcamlVersion::k5_0},
    {"major_ephe_mark", OcamlVersion::k5_0},
    {"major_ephe_sweep", OcamlVersion::k5_0},
    {"major_finish_marking", OcamlVersion::k5_0},
    {"major_gc_cycle_domains", OcamlVersion::k5_0},
    {"major_gc_phase_change", OcamlVersion::k5_0},
    {"major_gc_stw", OcamlVersion::k5_0},
    {"major_mark_opportunistic", OcamlVersion::k5_0},
    {"major_slice", OcamlVersion::k5_0},
    {"major_finish_cycle", OcamlVersion::k5_0},
    {"minor_clear", OcamlVersion::k5_0},
    {"minor_finalizers_oldify", OcamlVersion::k5_0},
    {"minor_global_roots", OcamlVersion::k5_0},
    {"minor_leave_barrier", OcamlVersion::k5_0},
    {"stw_api_barrier", OcamlVersion::k5_0},
    {"stw_handler", OcamlVersion::k5_0},
    {"stw_leader", OcamlVersion::k5_0},
    {"major_finish_sweeping", OcamlVersion::k5_0},
    {"major_memprof_clean", OcamlVersion::k5_3},
    {"minor_finalizers_admin", OcamlVersion::k5_0},
    {"minor_remembered_set", OcamlVersion::k5_0},
    {"minor_remembered_set_promote", OcamlVersion::k5_0},
    {"minor_local_roots_promote", OcamlVersion::k5_0},
    {"domain_condition_wait", OcamlVersion::k5_0},
    {"domain_resize_heap_reservation", OcamlVersion::k5_0},
    {"compaction", OcamlVersion::k5_2},
    {"compaction_evacuate", OcamlVersion::k5_2},
    {"compaction_forward", OcamlVersion::k5_2},
    {"compaction_release", OcamlVersion::k5_2},
    {"empty_minor", OcamlVersion::k5_4},
}};

// Counters only grew at the end: 11 in 5.0, 17 in 5.1 and 5.2, 26 in 5.3 and 5.4, 28 in 5.5
// (ocaml/ocaml#14189 added the word-sized minor counters; #15039 corrected their `@since`
// from 5.4 to 5.5). Their names follow runtime_counter_name's rule: the constructor without
// EV_C_, in lower case.
constexpr std::array<std::string_view, 28> kCounters = {
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
    "minor_allocated_words",
    "minor_promoted_words",
};

constexpr std::array<std::string_view, 8> kLifecycle = {
    "ring_start",  "ring_stop",  "ring_pause",   "ring_resume",
    "fork_parent", "fork_child", "domain_spawn", "domain_terminate",
};

std::size_t CounterCount(OcamlVersion v) {
  switch (v) {
    case OcamlVersion::k5_0: return 11;
    case OcamlVersion::k5_1:
    case OcamlVersion::k5_2: return 17;
    case OcamlVersion::k5_3:
    case OcamlVersion::k5_4: return 26;
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

std::string_view OcamlReleaseOfFileName(std::string_view path) {
  constexpr std::string_view kSuffix = ".events";
  constexpr std::string_view kMarker = ".ocaml-";
  const auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (!name.ends_with(kSuffix)) return {};
  name.remove_suffix(kSuffix.size());
  const auto at = name.rfind(kMarker);
  if (at == std::string_view::npos) return {};
  return name.substr(at + kMarker.size());
}

std::optional<OcamlVersion> OcamlVersionOfFileName(std::string_view path) {
  const std::string_view release = OcamlReleaseOfFileName(path);
  if (release.empty()) return std::nullopt;
  return ParseOcamlVersion(release);
}

std::optional<std::string_view> PhaseName(OcamlVersion v, unsigned id) {
  unsigned position = 0;
  for (const PhaseEntry& phase : kPhases) {
    if (phase.since > v) continue;
    if (position++ == id) return phase.name;
  }
  return std::nullopt;
}

std::optional<std::string_view> CounterName(OcamlVersion v, unsigned id) {
  return Lookup(std::span(kCounters).first(CounterCount(v)), id);
}

std::optional<std::string_view> LifecycleName(unsigned id) { return Lookup(kLifecycle, id); }

}  // namespace mpo::ring
