// `events stats`: olly's GC statistics of a ring (ring_stats.h defines each figure) as
// text or as one JSON document. Times of different domains are never added up as wall
// time: per-domain figures stand alone, and their total is labelled a sum over domains.
//
// JSON (FormatRingStatsJson), one object; times in ns, shares as fractions; member
// names: tools/JSON.md.
//   "wall_ns", "wall_basis": the wall time and what bounds it,
//   "collections": {"minor","major","forced_major","compactions"} (begins on domain 0),
//   "sum_over_domains": {"time_ns","gc_ns","gc_share"},
//   "gc_pauses": PAUSES (olly's GC spans, all domains) with
//   PAUSES = {"count","p50_ns","p90_ns","p99_ns","max_ns"},
//   "phases": {NAME: PAUSES} (all domains),
//   "domains": [{"ring","time_ns","time_from": "lifecycle"|"events","gc_ns","gc_share",
//                "gc_pauses": PAUSES,"phases": {NAME: PAUSES with "total_ns"},
//                "words": {"minor","promoted","major"} (each null without its counter),
//                "events": {KIND: N},"lost_words","unmatched_ends",
//                "open_at_end": [{"name","kind": "phase"|"user_span","begin_ts","open_ns"}]}]
#pragma once

#include <string>

#include "core/export/ring_stats.h"

namespace mpo::exporter {

std::string FormatRingStats(const RingStats& s);
// The document above, newline-terminated.
std::string FormatRingStatsJson(const RingStats& s);

}  // namespace mpo::exporter
