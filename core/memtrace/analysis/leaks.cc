#include "core/memtrace/analysis/leaks.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/base/json_writer.h"
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

std::string FormatLeaksJson(const TraceAnalysis& a, const std::string& file, std::size_t top) {
  const std::vector<const Site*> all = AllLeakSites(a);
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  WriteTraceMember(w, file, a);
  WriteWindowMember(w, a);
  WriteDamageMember(w, a.damage);
  WriteLiveAtMember(w, a);
  WritePeakMember(w, a);
  w.Key("live");
  WriteTally(w, a.live, a.info);
  w.Key("sites_with_live_blocks");
  w.Uint(all.size());
  w.Key("sites");
  w.BeginArray();
  for (std::size_t i = 0; i < all.size() && i < top; ++i) WriteSite(w, *all[i], a.info);
  w.EndArray();
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::memtrace::analysis
