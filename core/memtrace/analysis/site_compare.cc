#include "core/memtrace/analysis/site_compare.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/base/json_text.h"
#include "core/memtrace/analysis/analysis_text.h"

namespace mpo::memtrace::analysis {
namespace {

const Site& Either(const SiteChange& c) { return c.a != nullptr ? *c.a : *c.b; }

void AppendSide(std::string& out, const std::string& file, const TraceAnalysis& t) {
  out += "{\"file\":";
  json_text::AppendString(out, file);
  out += ",\"version\":";
  json_text::AppendInt(out, t.version);
  out += ",\"sample_rate\":";
  json_text::AppendDouble(out, t.info.sample_rate);
  out += ",\"allocs\":";
  json_text::AppendUint(out, t.allocated.blocks);
  out += ",\"samples\":";
  json_text::AppendUint(out, t.allocated.samples);
  out += ",\"est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(t.allocated.samples, t.info));
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

std::vector<SiteChange> CompareSites(const TraceAnalysis& a, const TraceAnalysis& b) {
  // Ordered by names, so that equal changes come out in name order. Keyed by the sites'
  // own name lists, never copies: the names are bounded by the analyses' budgets only once.
  using Names = const std::vector<std::string>*;
  const auto by_names = [](Names x, Names y) { return *x < *y; };
  std::map<Names, SiteChange, decltype(by_names)> by_name(by_names);
  for (const Site& s : a.sites) {
    SiteChange& c = by_name[&s.names];
    c.a = &s;
    c.a_bytes = EstimatedBytes(s.allocated.samples, a.info);
  }
  for (const Site& s : b.sites) {
    SiteChange& c = by_name[&s.names];
    c.b = &s;
    c.b_bytes = EstimatedBytes(s.allocated.samples, b.info);
  }
  std::vector<SiteChange> out;
  out.reserve(by_name.size());
  for (auto& [names, c] : by_name) out.push_back(c);
  std::stable_sort(out.begin(), out.end(), [](const SiteChange& x, const SiteChange& y) {
    return std::fabs(x.change()) > std::fabs(y.change());
  });
  return out;
}

std::string FormatCompare(const TraceAnalysis& a, const std::string& a_file, const TraceAnalysis& b,
                          const std::string& b_file, std::size_t top) {
  const std::vector<SiteChange> changes = CompareSites(a, b);
  const double ta = EstimatedBytes(a.allocated.samples, a.info);
  const double tb = EstimatedBytes(b.allocated.samples, b.info);
  std::map<std::string, std::size_t> counts;
  for (const SiteChange& c : changes) ++counts[c.status()];
  std::string out = "A: " + a_file + ": est. " + BytesText(ta) + " allocated" + WindowText(a) +
                    " at " + std::to_string(a.sites.size()) + " sites\n";
  out += "B: " + b_file + ": est. " + BytesText(tb) + " allocated" + WindowText(b) + " at " +
         std::to_string(b.sites.size()) + " sites\n";
  out += "change: " + BytesText(tb - ta, true) + "; sites: " + std::to_string(counts["grew"]) +
         " grew, " + std::to_string(counts["shrank"]) + " shrank, " +
         std::to_string(counts["new"]) + " new, " + std::to_string(counts["gone"]) + " gone, " +
         std::to_string(counts["same"]) + " same\n";
  if (changes.empty()) return out;
  char buf[128];
  std::snprintf(buf, sizeof buf, "  %12s %12s %12s  %-6s  %s\n", "change", "A", "B", "status",
                "site");
  out += buf;
  for (std::size_t i = 0; i < changes.size() && i < top; ++i) {
    const SiteChange& c = changes[i];
    std::snprintf(buf, sizeof buf, "  %12s %12s %12s  %-6s  ", BytesText(c.change(), true).c_str(),
                  BytesText(c.a_bytes).c_str(), BytesText(c.b_bytes).c_str(), c.status());
    out += buf;
    out += SiteText(Either(c));
    out += '\n';
    if (Either(c).names.size() > 1)
      out += "  " + std::string(48, ' ') + "<- " + CallersText(Either(c)) + '\n';
  }
  return out;
}

std::string FormatCompareJson(const TraceAnalysis& a, const std::string& a_file,
                              const TraceAnalysis& b, const std::string& b_file, std::size_t top) {
  const std::vector<SiteChange> changes = CompareSites(a, b);
  std::map<std::string, std::size_t> counts;
  for (const SiteChange& c : changes) ++counts[c.status()];
  std::string out = "{\"a\":";
  AppendSide(out, a_file, a);
  out += ",\"b\":";
  AppendSide(out, b_file, b);
  out += ',';
  AppendWindowMember(out, a);
  out += ",\"change_est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(b.allocated.samples, b.info) -
                                   EstimatedBytes(a.allocated.samples, a.info));
  for (const char* k : {"grew", "shrank", "new", "gone", "same"}) {
    out += ",\"";
    out += k;
    out += "\":";
    json_text::AppendUint(out, counts[k]);
  }
  out += ",\"sites\":[";
  for (std::size_t i = 0; i < changes.size() && i < top; ++i) {
    const SiteChange& c = changes[i];
    if (i > 0) out += ',';
    out += '{';
    AppendSiteMembers(out, Either(c));
    out += ",\"status\":\"";
    out += c.status();
    out += "\",\"a_allocs\":";
    json_text::AppendUint(out, c.a != nullptr ? c.a->allocated.blocks : 0);
    out += ",\"b_allocs\":";
    json_text::AppendUint(out, c.b != nullptr ? c.b->allocated.blocks : 0);
    out += ",\"a_est_bytes\":";
    json_text::AppendDouble(out, c.a_bytes);
    out += ",\"b_est_bytes\":";
    json_text::AppendDouble(out, c.b_bytes);
    out += ",\"change_est_bytes\":";
    json_text::AppendDouble(out, c.change());
    out += '}';
  }
  out += "]}\n";
  return out;
}

}  // namespace mpo::memtrace::analysis
