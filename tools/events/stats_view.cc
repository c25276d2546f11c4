#include "tools/events/stats_view.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <vector>

namespace mpo::tools {

using exporter::DomainStats;
using exporter::PauseSummary;
using exporter::RingStats;

namespace {

constexpr double kNsPerSecond = 1e9;

double Seconds(std::uint64_t ns) { return static_cast<double>(ns) / kNsPerSecond; }

// GC time as a share of a time, in percent; 0 when the time is 0.
double SharePercent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

std::string_view TimeBasis(const DomainStats& d) {
  return d.elapsed_from_lifecycle ? "lifecycle" : "events";
}

std::string Words(const std::optional<std::uint64_t>& w) {
  return w ? std::to_string(*w) : std::string("n/a");
}

void AppendF(std::string& out, const char* fmt, auto... args) {
  char line[512];
  std::snprintf(line, sizeof line, fmt, args...);
  out += line;
}

void AppendPauseRow(std::string& out, const std::string& name, const PauseSummary& p) {
  AppendF(out, "%-32s %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
          name.c_str(), p.count, p.p50_ns, p.p90_ns, p.p99_ns, p.max_ns);
}

nlohmann::json PauseJson(const PauseSummary& p) {
  return {{"count", p.count},
          {"p50_ns", p.p50_ns},
          {"p90_ns", p.p90_ns},
          {"p99_ns", p.p99_ns},
          {"max_ns", p.max_ns}};
}

nlohmann::json WordsJson(const std::optional<std::uint64_t>& w) {
  return w ? nlohmann::json(*w) : nlohmann::json(nullptr);
}

}  // namespace

std::string FormatStats(const RingStats& s) {
  std::string out;
  AppendF(out, "wall time: %.6f s (%s)\n", Seconds(s.wall_ns),
          s.wall_basis.empty() ? "no timed event" : s.wall_basis.c_str());
  AppendF(out,
          "collections (begins on domain 0): minor %" PRIu64 ", major %" PRIu64
          ", forced major %" PRIu64 ", compactions %" PRIu64 "\n\n",
          s.minor_collections, s.major_collections, s.forced_major_collections, s.compactions);

  out += "domain       time_s         gc_s  gc_share  time from\n";
  for (const auto& [ring, d] : s.domains) {
    AppendF(out, "%-6u %12.6f %12.6f %8.2f%%  %s\n", ring, Seconds(d.elapsed_ns), Seconds(d.gc_ns),
            SharePercent(d.gc_ns, d.elapsed_ns), std::string(TimeBasis(d)).c_str());
  }
  const exporter::DomainSums sum = exporter::SumOverDomains(s);
  AppendF(out, "sum over domains (not wall time): time %.6f s, gc %.6f s, gc share %.2f%%\n\n",
          Seconds(sum.time_ns), Seconds(sum.gc_ns), SharePercent(sum.gc_ns, sum.time_ns));

  out +=
      "pauses, all domains                 count       p50_ns       p90_ns       p99_ns"
      "       max_ns\n";
  AppendPauseRow(out, "gc (olly)", exporter::Summarise(exporter::PooledGcPauses(s)));
  for (const auto& [name, p] : exporter::PooledPhases(s))
    AppendPauseRow(out, name, exporter::Summarise(p));

  out += "\nwords          minor     promoted        major        total  promoted%\n";
  for (const auto& [ring, d] : s.domains) {
    const std::string total = Words(exporter::TotalWords(d));
    std::string pct = "n/a";
    if (d.minor_words && d.promoted_words && *d.minor_words > 0) {
      char p[32];
      std::snprintf(p, sizeof p, "%.2f", SharePercent(*d.promoted_words, *d.minor_words));
      pct = p;
    }
    AppendF(out, "domain %-4u %12s %12s %12s %12s %10s\n", ring, Words(d.minor_words).c_str(),
            Words(d.promoted_words).c_str(), Words(d.major_words).c_str(), total.c_str(),
            pct.c_str());
  }
  out += "\n";

  for (const auto& [ring, d] : s.domains) {
    std::uint64_t total = 0;
    for (const auto& [k, n] : d.events_by_kind) total += n;
    AppendF(out,
            "domain %u: %" PRIu64 " events, %" PRIu64 " lost words, %" PRIu64
            " unmatched ends, %zu open at the end\n",
            ring, total, d.lost_words, d.unmatched_ends, d.open_at_end.size());
    for (const auto& [k, n] : d.events_by_kind) AppendF(out, "  %-16s %" PRIu64 "\n", k.c_str(), n);
    if (!d.phases.empty()) {
      out += "  phase                              count     total_ns       max_ns\n";
      for (const auto& [name, p] : d.phases) {
        AppendF(out, "  %-32s %7" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", name.c_str(), p.count,
                p.total_ns, p.max_ns);
      }
    }
    for (const exporter::OpenSpan& o : d.open_at_end) {
      AppendF(out, "  open at the end: %s %s, begun at ts %" PRIu64 ", open %" PRIu64 " ns\n",
              o.user ? "user span" : "phase", o.name.c_str(), o.begin_ts, o.open_ns);
    }
  }
  return out;
}

nlohmann::json StatsJson(const RingStats& s) {
  nlohmann::json j;
  j["wall_ns"] = s.wall_ns;
  j["wall_basis"] = s.wall_basis;
  j["collections"] = {{"minor", s.minor_collections},
                      {"major", s.major_collections},
                      {"forced_major", s.forced_major_collections},
                      {"compactions", s.compactions}};
  const exporter::DomainSums sum = exporter::SumOverDomains(s);
  j["sum_over_domains"] = {{"time_ns", sum.time_ns},
                           {"gc_ns", sum.gc_ns},
                           {"gc_share", SharePercent(sum.gc_ns, sum.time_ns) / 100.0}};
  j["gc_pauses"] = PauseJson(exporter::Summarise(exporter::PooledGcPauses(s)));
  j["phases"] = nlohmann::json::object();
  for (const auto& [name, p] : exporter::PooledPhases(s))
    j["phases"][name] = PauseJson(exporter::Summarise(p));
  j["domains"] = nlohmann::json::array();
  for (const auto& [ring, d] : s.domains) {
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [name, p] : d.phases) {
      nlohmann::json q = PauseJson(exporter::Summarise(p));
      q["total_ns"] = p.total_ns;
      phases[name] = q;
    }
    nlohmann::json open = nlohmann::json::array();
    for (const exporter::OpenSpan& o : d.open_at_end) {
      open.push_back({{"name", o.name},
                      {"kind", o.user ? "user_span" : "phase"},
                      {"begin_ts", o.begin_ts},
                      {"open_ns", o.open_ns}});
    }
    j["domains"].push_back({{"ring", ring},
                            {"time_ns", d.elapsed_ns},
                            {"time_from", TimeBasis(d)},
                            {"gc_ns", d.gc_ns},
                            {"gc_share", SharePercent(d.gc_ns, d.elapsed_ns) / 100.0},
                            {"gc_pauses", PauseJson(exporter::Summarise(d.gc_pauses))},
                            {"phases", phases},
                            {"words",
                             {{"minor", WordsJson(d.minor_words)},
                              {"promoted", WordsJson(d.promoted_words)},
                              {"major", WordsJson(d.major_words)}}},
                            {"events", d.events_by_kind},
                            {"lost_words", d.lost_words},
                            {"unmatched_ends", d.unmatched_ends},
                            {"open_at_end", open}});
  }
  return j;
}

}  // namespace mpo::tools
