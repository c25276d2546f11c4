// `events stats`: olly's GC statistics of a ring (core/export/ring_stats.h defines each
// figure) as text or JSON. Times of different domains are never added up as wall time:
// per-domain figures stand alone, and their total is labelled a sum over domains.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/export/ring_stats.h"

namespace mpo::tools {

std::string FormatStats(const exporter::RingStats& s);
nlohmann::json StatsJson(const exporter::RingStats& s);

}  // namespace mpo::tools
