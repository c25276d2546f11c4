#include "core/export/ring_stats_view.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <vector>

#include "core/base/json_writer.h"

namespace mpo::exporter {

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

void WritePauses(JsonWriter& w, const PauseSummary& p) {
  w.Key("count");
  w.Uint(p.count);
  w.Key("p50_ns");
  w.Uint(p.p50_ns);
  w.Key("p90_ns");
  w.Uint(p.p90_ns);
  w.Key("p99_ns");
  w.Uint(p.p99_ns);
  w.Key("max_ns");
  w.Uint(p.max_ns);
}

void WriteWords(JsonWriter& w, const std::optional<std::uint64_t>& words) {
  if (words)
    w.Uint(*words);
  else
    w.Null();
}

}  // namespace

std::string FormatRingStats(const RingStats& s) {
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
  const DomainSums sum = SumOverDomains(s);
  AppendF(out, "sum over domains (not wall time): time %.6f s, gc %.6f s, gc share %.2f%%\n\n",
          Seconds(sum.time_ns), Seconds(sum.gc_ns), SharePercent(sum.gc_ns, sum.time_ns));

  out +=
      "pauses, all domains                 count       p50_ns       p90_ns       p99_ns"
      "       max_ns\n";
  AppendPauseRow(out, "gc (olly)", Summarise(PooledGcPauses(s)));
  for (const auto& [name, p] : PooledPhases(s)) AppendPauseRow(out, name, Summarise(p));

  out += "\nwords          minor     promoted        major        total  promoted%\n";
  for (const auto& [ring, d] : s.domains) {
    const std::string total = Words(TotalWords(d));
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
    for (const OpenSpan& o : d.open_at_end) {
      AppendF(out, "  open at the end: %s %s, begun at ts %" PRIu64 ", open %" PRIu64 " ns\n",
              o.user ? "user span" : "phase", o.name.c_str(), o.begin_ts, o.open_ns);
    }
  }
  return out;
}

std::string FormatRingStatsJson(const RingStats& s) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("wall_ns");
  w.Uint(s.wall_ns);
  w.Key("wall_basis");
  w.String(s.wall_basis);
  w.Key("collections");
  w.BeginObject();
  w.Key("minor");
  w.Uint(s.minor_collections);
  w.Key("major");
  w.Uint(s.major_collections);
  w.Key("forced_major");
  w.Uint(s.forced_major_collections);
  w.Key("compactions");
  w.Uint(s.compactions);
  w.EndObject();
  const DomainSums sum = SumOverDomains(s);
  w.Key("sum_over_domains");
  w.BeginObject();
  w.Key("time_ns");
  w.Uint(sum.time_ns);
  w.Key("gc_ns");
  w.Uint(sum.gc_ns);
  w.Key("gc_share");
  w.Double(SharePercent(sum.gc_ns, sum.time_ns) / 100.0);
  w.EndObject();
  w.Key("gc_pauses");
  w.BeginObject();
  WritePauses(w, Summarise(PooledGcPauses(s)));
  w.EndObject();
  w.Key("phases");
  w.BeginObject();
  for (const auto& [name, p] : PooledPhases(s)) {
    w.DataKey(name);
    w.BeginObject();
    WritePauses(w, Summarise(p));
    w.EndObject();
  }
  w.EndObject();
  w.Key("domains");
  w.BeginArray();
  for (const auto& [ring, d] : s.domains) {
    w.BeginObject();
    w.Key("ring");
    w.Uint(ring);
    w.Key("time_ns");
    w.Uint(d.elapsed_ns);
    w.Key("time_from");
    w.Name(TimeBasis(d));
    w.Key("gc_ns");
    w.Uint(d.gc_ns);
    w.Key("gc_share");
    w.Double(SharePercent(d.gc_ns, d.elapsed_ns) / 100.0);
    w.Key("gc_pauses");
    w.BeginObject();
    WritePauses(w, Summarise(d.gc_pauses));
    w.EndObject();
    w.Key("phases");
    w.BeginObject();
    for (const auto& [name, p] : d.phases) {
      w.DataKey(name);
      w.BeginObject();
      WritePauses(w, Summarise(p));
      w.Key("total_ns");
      w.Uint(p.total_ns);
      w.EndObject();
    }
    w.EndObject();
    w.Key("words");
    w.BeginObject();
    w.Key("minor");
    WriteWords(w, d.minor_words);
    w.Key("promoted");
    WriteWords(w, d.promoted_words);
    w.Key("major");
    WriteWords(w, d.major_words);
    w.EndObject();
    w.Key("events");
    w.BeginObject();
    for (const auto& [kind, n] : d.events_by_kind) {
      w.DataKey(kind);
      w.Uint(n);
    }
    w.EndObject();
    w.Key("lost_words");
    w.Uint(d.lost_words);
    w.Key("unmatched_ends");
    w.Uint(d.unmatched_ends);
    w.Key("open_at_end");
    w.BeginArray();
    for (const OpenSpan& o : d.open_at_end) {
      w.BeginObject();
      w.Key("name");
      w.String(o.name);
      w.Key("kind");
      w.Name(o.user ? "user_span" : "phase");
      w.Key("begin_ts");
      w.Uint(o.begin_ts);
      w.Key("open_ns");
      w.Uint(o.open_ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::exporter
