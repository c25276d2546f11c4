#include "core/memtrace/report/html_report.h"

#include "core/base/json_writer.h"
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

void WriteSites(JsonWriter& w, const analysis::TraceAnalysis& a, std::size_t top) {
  w.Key("sites_total");
  w.Uint(a.sites.size());
  w.Key("sites");
  w.BeginArray();
  for (std::size_t i = 0; i < a.sites.size() && i < top; ++i)
    analysis::WriteSite(w, PageSite(a.sites[i]), a.info);
  w.EndArray();
}

void WriteLeaks(JsonWriter& w, const analysis::TraceAnalysis& a, std::size_t top) {
  const auto all = analysis::LeakSites(a, a.sites.size());
  w.Key("leak_sites_total");
  w.Uint(all.size());
  w.Key("leaks");
  w.BeginArray();
  for (std::size_t i = 0; i < all.size() && i < top; ++i)
    analysis::WriteSite(w, PageSite(*all[i]), a.info);
  w.EndArray();
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
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  analysis::TraceAnalysis trace;  // only the members WriteTraceMember reads
  trace.info = a.info;
  trace.info.executable_name = PageText(a.info.executable_name);
  trace.info.host_name = PageText(a.info.host_name);
  trace.version = a.version;
  trace.duration_us = a.duration_us;
  analysis::WriteTraceMember(w, PageText(file), trace);
  analysis::WriteWindowMember(w, a);
  analysis::WriteDamageMember(w, a.damage);
  w.Key("events_in_window");
  w.Uint(a.events_in_window);
  w.Key("allocated");
  analysis::WriteTally(w, a.allocated, a.info);
  w.Key("live");
  analysis::WriteTally(w, a.live, a.info);
  analysis::WriteLiveAtMember(w, a);
  analysis::WritePeakMember(w, a);
  WriteSites(w, a, top);
  WriteLeaks(w, a, top);
  analysis::WriteTimelineMember(w, a);
  w.Key("flame");
  WriteFlame(w, PageTree(flame.stacks));
  w.Key("flame_collapsed");
  WriteFlame(w, PageTree(flame.collapsed));
  w.Key("flame_inverted");
  WriteFlame(w, PageTree(flame.inverted));
  w.Key("flame_live");
  WriteFlame(w, PageTree(flame.live));
  w.Key("bytes_per_sample");
  w.Double(EstimatedBytes(1, a.info));
  w.EndObject();
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
