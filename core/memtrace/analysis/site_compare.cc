#include "core/memtrace/analysis/site_compare.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/base/json_writer.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/liveness_text.h"

namespace mpo::memtrace::analysis {
namespace {

const Site& Either(const SiteChange& c) { return c.a != nullptr ? *c.a : *c.b; }

// What is compared: the allocations, or the blocks live at the asked time.
const Tally& Measured(const TraceAnalysis& t, bool live) { return live ? t.live : t.allocated; }
const Tally& Measured(const Site& s, bool live) { return live ? s.live : s.allocated; }

void WriteSide(JsonWriter& w, const std::string& file, const TraceAnalysis& t, bool live) {
  const Tally& m = Measured(t, live);
  w.BeginObject();
  w.Key("file");
  w.String(file);
  w.Key("version");
  w.Int(t.version);
  w.Key("sample_rate");
  w.Double(t.info.sample_rate);
  w.Key("blocks");
  w.Uint(m.blocks);
  w.Key("samples");
  w.Uint(m.samples);
  w.Key("est_bytes");
  w.Double(EstimatedBytes(m.samples, t.info));
  WriteLiveAtMember(w, t);
  WriteDamageMember(w, t.damage);
  w.EndObject();
}

}  // namespace

const char* SiteChange::status() const {
  if (a == nullptr) return "new";
  if (b == nullptr) return "gone";
  if (b_bytes > a_bytes) return "grew";
  if (b_bytes < a_bytes) return "shrank";
  return "same";
}

bool SiteChange::within_noise() const { return a_bytes != b_bytes && std::fabs(z) < kNoiseZ; }

double ChangeZ(std::uint64_t a_samples, const Info& a, std::uint64_t b_samples, const Info& b) {
  // One sample's worth in bytes is EstimatedBytes(1); a Poisson count's variance is itself.
  const double ua = EstimatedBytes(1, a), ub = EstimatedBytes(1, b);
  const double var =
      static_cast<double>(a_samples) * ua * ua + static_cast<double>(b_samples) * ub * ub;
  if (!(var > 0) || !std::isfinite(var)) return 0;
  const double z = (EstimatedBytes(b_samples, b) - EstimatedBytes(a_samples, a)) / std::sqrt(var);
  return std::isfinite(z) ? z : 0;
}

std::vector<SiteChange> CompareSites(const TraceAnalysis& a, const TraceAnalysis& b, bool live) {
  // Ordered by names, so that equal changes come out in name order. Keyed by the sites'
  // own name lists, never copies: the names are bounded by the analyses' budgets only once.
  using Names = const std::vector<std::string>*;
  const auto by_names = [](Names x, Names y) { return *x < *y; };
  std::map<Names, SiteChange, decltype(by_names)> by_name(by_names);
  for (const Site& s : a.sites) {
    if (live && s.live.blocks == 0) continue;
    SiteChange& c = by_name[&s.names];
    c.a = &s;
    c.a_bytes = EstimatedBytes(Measured(s, live).samples, a.info);
  }
  for (const Site& s : b.sites) {
    if (live && s.live.blocks == 0) continue;
    SiteChange& c = by_name[&s.names];
    c.b = &s;
    c.b_bytes = EstimatedBytes(Measured(s, live).samples, b.info);
  }
  std::vector<SiteChange> out;
  out.reserve(by_name.size());
  for (auto& [names, c] : by_name) {
    c.z = ChangeZ(c.a != nullptr ? Measured(*c.a, live).samples : 0, a.info,
                  c.b != nullptr ? Measured(*c.b, live).samples : 0, b.info);
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), [](const SiteChange& x, const SiteChange& y) {
    return std::fabs(x.change()) > std::fabs(y.change());
  });
  return out;
}

std::string FormatCompare(const TraceAnalysis& a, const std::string& a_file, const TraceAnalysis& b,
                          const std::string& b_file, std::size_t top, bool live) {
  const std::vector<SiteChange> changes = CompareSites(a, b, live);
  const double ta = EstimatedBytes(Measured(a, live).samples, a.info);
  const double tb = EstimatedBytes(Measured(b, live).samples, b.info);
  std::map<std::string, std::size_t> counts;
  std::size_t noisy = 0;
  for (const SiteChange& c : changes) {
    ++counts[c.status()];
    noisy += c.within_noise();
  }
  // "allocated", or "allocated and still live at the peak (0.000050 s)".
  auto what = [live](const TraceAnalysis& t) {
    return live ? " allocated" + WindowText(t) + " and " + LiveAtPhrase(t)
                : " allocated" + WindowText(t);
  };
  auto sites = [live](const TraceAnalysis& t) {
    std::size_t n = 0;
    for (const Site& s : t.sites) n += !live || s.live.blocks > 0;
    return std::to_string(n);
  };
  std::string out =
      "A: " + a_file + ": est. " + BytesText(ta) + what(a) + " at " + sites(a) + " sites\n";
  out += "B: " + b_file + ": est. " + BytesText(tb) + what(b) + " at " + sites(b) + " sites\n";
  out += "change: " + BytesText(tb - ta, true) + "; sites: " + std::to_string(counts["grew"]) +
         " grew, " + std::to_string(counts["shrank"]) + " shrank, " +
         std::to_string(counts["new"]) + " new, " + std::to_string(counts["gone"]) + " gone, " +
         std::to_string(counts["same"]) + " same\n";
  const std::size_t changed = changes.size() - counts["same"];
  if (changed > 0)
    out += "sampling noise: " + std::to_string(noisy) + " of the " + std::to_string(changed) +
           " changes are within it (|z| < 2, marked ~)\n";
  if (changes.empty()) return out;
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %12s %12s %12s  %-6s %6s  %s\n", "change", "A", "B", "status",
                "z", "site");
  out += buf;
  for (std::size_t i = 0; i < changes.size() && i < top; ++i) {
    const SiteChange& c = changes[i];
    std::snprintf(buf, sizeof buf, "  %12s %12s %12s  %-6s %5.1f%c  ",
                  BytesText(c.change(), true).c_str(), BytesText(c.a_bytes).c_str(),
                  BytesText(c.b_bytes).c_str(), c.status(), c.z, c.within_noise() ? '~' : ' ');
    out += buf;
    out += SiteText(Either(c));
    out += '\n';
    if (Either(c).names.size() > 1)
      out += "  " + std::string(56, ' ') + "<- " + CallersText(Either(c)) + '\n';
  }
  return out;
}

std::string FormatCompareJson(const TraceAnalysis& a, const std::string& a_file,
                              const TraceAnalysis& b, const std::string& b_file, std::size_t top,
                              bool live) {
  const std::vector<SiteChange> changes = CompareSites(a, b, live);
  std::map<std::string, std::size_t> counts;
  std::size_t noisy = 0;
  for (const SiteChange& c : changes) {
    ++counts[c.status()];
    noisy += c.within_noise();
  }
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("measure");
  w.Name(live ? "live" : "allocated");
  w.Key("a");
  WriteSide(w, a_file, a, live);
  w.Key("b");
  WriteSide(w, b_file, b, live);
  WriteWindowMember(w, a);
  w.Key("change_est_bytes");
  w.Double(EstimatedBytes(Measured(b, live).samples, b.info) -
           EstimatedBytes(Measured(a, live).samples, a.info));
  w.Key("grew");
  w.Uint(counts["grew"]);
  w.Key("shrank");
  w.Uint(counts["shrank"]);
  w.Key("new");
  w.Uint(counts["new"]);
  w.Key("gone");
  w.Uint(counts["gone"]);
  w.Key("same");
  w.Uint(counts["same"]);
  w.Key("within_noise");
  w.Uint(noisy);
  w.Key("sites");
  w.BeginArray();
  for (std::size_t i = 0; i < changes.size() && i < top; ++i) {
    const SiteChange& c = changes[i];
    const Site& site = Either(c);
    w.BeginObject();
    WriteSiteNameMembers(w, site);
    w.Key("status");
    w.Name(c.status());
    w.Key("a_blocks");
    w.Uint(c.a != nullptr ? Measured(*c.a, live).blocks : 0);
    w.Key("b_blocks");
    w.Uint(c.b != nullptr ? Measured(*c.b, live).blocks : 0);
    w.Key("a_est_bytes");
    w.Double(c.a_bytes);
    w.Key("b_est_bytes");
    w.Double(c.b_bytes);
    w.Key("change_est_bytes");
    w.Double(c.change());
    w.Key("z");
    w.Double(c.z);
    w.Key("within_noise");
    w.Bool(c.within_noise());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::memtrace::analysis
