#include "core/memtrace/analysis/site_compare.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/base/json_text.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/liveness_text.h"

namespace mpo::memtrace::analysis {
namespace {

const Site& Either(const SiteChange& c) { return c.a != nullptr ? *c.a : *c.b; }

// What is compared: the allocations, or the blocks live at the asked time.
const Tally& Measured(const TraceAnalysis& t, bool live) { return live ? t.live : t.allocated; }
const Tally& Measured(const Site& s, bool live) { return live ? s.live : s.allocated; }

void AppendSide(std::string& out, const std::string& file, const TraceAnalysis& t, bool live) {
  const Tally& m = Measured(t, live);
  out += "{\"file\":";
  json_text::AppendString(out, file);
  out += ",\"version\":";
  json_text::AppendInt(out, t.version);
  out += ",\"sample_rate\":";
  json_text::AppendDouble(out, t.info.sample_rate);
  out += ",\"allocs\":";
  json_text::AppendUint(out, m.blocks);
  out += ",\"samples\":";
  json_text::AppendUint(out, m.samples);
  out += ",\"est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(m.samples, t.info));
  out += ',';
  AppendLiveAtMember(out, t);
  out += ',';
  AppendDamageMember(out, t.damage);
  out += '}';
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
  std::string out = live ? "{\"measure\":\"live\",\"a\":" : "{\"measure\":\"allocated\",\"a\":";
  AppendSide(out, a_file, a, live);
  out += ",\"b\":";
  AppendSide(out, b_file, b, live);
  out += ',';
  AppendWindowMember(out, a);
  out += ",\"change_est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(Measured(b, live).samples, b.info) -
                                   EstimatedBytes(Measured(a, live).samples, a.info));
  for (const char* k : {"grew", "shrank", "new", "gone", "same"}) {
    out += ",\"";
    out += k;
    out += "\":";
    json_text::AppendUint(out, counts[k]);
  }
  out += ",\"within_noise\":";
  json_text::AppendUint(out, noisy);
  out += ",\"sites\":[";
  for (std::size_t i = 0; i < changes.size() && i < top; ++i) {
    const SiteChange& c = changes[i];
    if (i > 0) out += ',';
    out += '{';
    AppendSiteMembers(out, Either(c));
    out += ",\"status\":\"";
    out += c.status();
    out += "\",\"a_allocs\":";
    json_text::AppendUint(out, c.a != nullptr ? Measured(*c.a, live).blocks : 0);
    out += ",\"b_allocs\":";
    json_text::AppendUint(out, c.b != nullptr ? Measured(*c.b, live).blocks : 0);
    out += ",\"a_est_bytes\":";
    json_text::AppendDouble(out, c.a_bytes);
    out += ",\"b_est_bytes\":";
    json_text::AppendDouble(out, c.b_bytes);
    out += ",\"change_est_bytes\":";
    json_text::AppendDouble(out, c.change());
    out += ",\"z\":";
    json_text::AppendDouble(out, c.z);
    out += c.within_noise() ? ",\"within_noise\":true}" : ",\"within_noise\":false}";
  }
  out += "]}\n";
  return out;
}

}  // namespace mpo::memtrace::analysis
