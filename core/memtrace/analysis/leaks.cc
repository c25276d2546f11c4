#include "core/memtrace/analysis/leaks.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/base/json_text.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/liveness_text.h"

namespace mpo::memtrace::analysis {
namespace {

std::vector<const Site*> AllLeakSites(const TraceAnalysis& a) {
  std::vector<const Site*> out;
  for (const Site& s : a.sites)
    if (s.live.blocks > 0) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const Site* x, const Site* y) {
    return x->live.samples != y->live.samples ? x->live.samples > y->live.samples
                                              : x->names < y->names;
  });
  return out;
}

}  // namespace

std::vector<const Site*> LeakSites(const TraceAnalysis& a, std::size_t top) {
  std::vector<const Site*> out = AllLeakSites(a);
  if (out.size() > top) out.resize(top);
  return out;
}

std::string FormatLeaks(const TraceAnalysis& a, const std::string& file, std::size_t top) {
  const std::vector<const Site*> all = AllLeakSites(a);
  std::string out = file + ": " + std::to_string(a.live.blocks) + " blocks (" +
                    std::to_string(a.live.samples) + " samples, " + std::to_string(a.live.words) +
                    " words, est. " + BytesText(EstimatedBytes(a.live.samples, a.info)) +
                    ") allocated" + WindowText(a) + " and " + LiveAtPhrase(a) + ", at " +
                    std::to_string(all.size()) + " sites\n";
  if (all.empty()) return out;
  char buf[128];
  std::snprintf(buf, sizeof buf, "  %12s %10s %10s %12s  %s\n", "est. bytes", "blocks", "samples",
                "words", "site");
  out += buf;
  for (std::size_t i = 0; i < all.size() && i < top; ++i) {
    const Site& s = *all[i];
    std::snprintf(buf, sizeof buf, "  %12s %10" PRIu64 " %10" PRIu64 " %12" PRIu64 "  ",
                  BytesText(EstimatedBytes(s.live.samples, a.info)).c_str(), s.live.blocks,
                  s.live.samples, s.live.words);
    out += buf;
    out += SiteText(s);
    out += '\n';
    if (s.names.size() > 1) out += "  " + std::string(48, ' ') + "<- " + CallersText(s) + '\n';
  }
  return out;
}

void AppendLeakSiteJson(std::string& out, const Site& s, const Info& info) {
  out += '{';
  AppendSiteMembers(out, s);
  out += ",\"blocks\":";
  json_text::AppendUint(out, s.live.blocks);
  out += ",\"samples\":";
  json_text::AppendUint(out, s.live.samples);
  out += ",\"words\":";
  json_text::AppendUint(out, s.live.words);
  out += ",\"est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(s.live.samples, info));
  out += ",\"allocated_blocks\":";
  json_text::AppendUint(out, s.allocated.blocks);
  out += '}';
}

std::string FormatLeaksJson(const TraceAnalysis& a, const std::string& file, std::size_t top) {
  const std::vector<const Site*> all = AllLeakSites(a);
  std::string out = "{";
  AppendTraceMember(out, file, a);
  out += ',';
  AppendWindowMember(out, a);
  out += ',';
  AppendDamageMember(out, a.damage);
  out += ',';
  AppendLiveAtMember(out, a);
  out += ',';
  AppendPeakMember(out, a);
  out += ",\"live\":";
  AppendTallyJson(out, a.live, a.info);
  out += ",\"sites_with_live_blocks\":";
  json_text::AppendUint(out, all.size());
  out += ",\"sites\":[";
  for (std::size_t i = 0; i < all.size() && i < top; ++i) {
    const Site& s = *all[i];
    if (i > 0) out += ',';
    AppendLeakSiteJson(out, s, a.info);
  }
  out += "]}\n";
  return out;
}

}  // namespace mpo::memtrace::analysis
