#include "core/memtrace/report/html_report.h"

#include "core/base/json_text.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/leaks.h"
#include "core/memtrace/analysis/liveness_text.h"
#include "core/memtrace/report/page_text.h"
#include "core/memtrace/report/report_assets.h"

namespace mpo::memtrace::report {
namespace {

using analysis::EstimatedBytes;

// A site as the page names it (page_text.h): its names, and only those, changed.
analysis::Site PageSite(const analysis::Site& s) {
  analysis::Site out;
  out.names.reserve(s.names.size());
  for (const std::string& n : s.names) out.names.push_back(PageText(n));
  out.allocated = s.allocated;
  out.live = s.live;
  return out;
}

// The tree with its names as the page shows them.
FlameTree PageTree(const FlameTree& tree) {
  FlameTree out;
  out.nodes = tree.nodes;
  out.names.reserve(tree.names.size());
  for (const std::string& n : tree.names) out.names.push_back(PageText(n));
  return out;
}

void AppendSites(std::string& out, const analysis::TraceAnalysis& a, std::size_t top) {
  out += "\"sites_total\":";
  json_text::AppendUint(out, a.sites.size());
  out += ",\"sites\":[";
  for (std::size_t i = 0; i < a.sites.size() && i < top; ++i) {
    const analysis::Site s = PageSite(a.sites[i]);
    if (i > 0) out += ',';
    out += '{';
    analysis::AppendSiteMembers(out, s);
    out += ",\"allocs\":";
    json_text::AppendUint(out, s.allocated.blocks);
    out += ",\"samples\":";
    json_text::AppendUint(out, s.allocated.samples);
    out += ",\"words\":";
    json_text::AppendUint(out, s.allocated.words);
    out += ",\"est_bytes\":";
    json_text::AppendDouble(out, EstimatedBytes(s.allocated.samples, a.info));
    out += ",\"live_blocks\":";
    json_text::AppendUint(out, s.live.blocks);
    out += ",\"live_samples\":";
    json_text::AppendUint(out, s.live.samples);
    out += ",\"live_words\":";
    json_text::AppendUint(out, s.live.words);
    out += ",\"live_est_bytes\":";
    json_text::AppendDouble(out, EstimatedBytes(s.live.samples, a.info));
    out += '}';
  }
  out += ']';
}

void AppendLeaks(std::string& out, const analysis::TraceAnalysis& a, std::size_t top) {
  const auto all = analysis::LeakSites(a, a.sites.size());
  out += "\"leak_sites_total\":";
  json_text::AppendUint(out, all.size());
  out += ",\"leaks\":[";
  for (std::size_t i = 0; i < all.size() && i < top; ++i) {
    const analysis::Site s = PageSite(*all[i]);
    if (i > 0) out += ',';
    analysis::AppendLeakSiteJson(out, s, a.info);
  }
  out += ']';
}

// '<' only occurs inside JSON strings, where \u003c means the same character.
std::string EscapeForScript(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

// The page's <title>: HTML text, so &, < and > are escaped.
std::string HtmlText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string ReportDataJson(const analysis::TraceAnalysis& a, const std::string& file,
                           const FlameTrees& flame, std::size_t top) {
  std::string out = "{";
  analysis::TraceAnalysis trace;  // only the members AppendTraceMember reads
  trace.info = a.info;
  trace.info.executable_name = PageText(a.info.executable_name);
  trace.version = a.version;
  trace.duration_us = a.duration_us;
  analysis::AppendTraceMember(out, PageText(file), trace);
  out += ",\"host\":";
  json_text::AppendString(out, PageText(a.info.host_name));
  out += ',';
  analysis::AppendWindowMember(out, a);
  out += ',';
  analysis::AppendDamageMember(out, a.damage);
  out += ",\"events_in_window\":";
  json_text::AppendUint(out, a.events_in_window);
  out += ",\"allocated\":";
  analysis::AppendTallyJson(out, a.allocated, a.info);
  out += ",\"live\":";
  analysis::AppendTallyJson(out, a.live, a.info);
  out += ',';
  analysis::AppendLiveAtMember(out, a);
  out += ',';
  analysis::AppendPeakMember(out, a);
  out += ',';
  AppendSites(out, a, top);
  out += ',';
  AppendLeaks(out, a, top);
  out += ',';
  analysis::AppendTimelineMember(out, a);
  out += ",\"flame\":";
  AppendFlameJson(out, PageTree(flame.stacks));
  out += ",\"flame_collapsed\":";
  AppendFlameJson(out, PageTree(flame.collapsed));
  out += ",\"flame_inverted\":";
  AppendFlameJson(out, PageTree(flame.inverted));
  out += ",\"flame_live\":";
  AppendFlameJson(out, PageTree(flame.live));
  out += ",\"bytes_per_sample\":";
  json_text::AppendDouble(out, EstimatedBytes(1, a.info));
  out += '}';
  return out;
}

std::string FormatHtmlReport(const analysis::TraceAnalysis& a, const std::string& file,
                             const FlameTrees& flame, std::size_t top) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>memtrace report: " + HtmlText(PageText(file)) + "</title>\n<style>\n";
  out += kReportCss;
  out += "</style>\n</head>\n<body>\n";
  out += kReportBody;
  out += "<script type=\"application/json\" id=\"report-data\">";
  out += EscapeForScript(ReportDataJson(a, file, flame, top));
  out += "</script>\n<script>\n";
  out += kReportScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace mpo::memtrace::report
