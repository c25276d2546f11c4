// The matrix as Markdown and as an HTML page (matrix.h).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/corpus/matrix.h"

namespace mpo::corpus {
namespace {

// Outcome counts of one family in one column, indexed by CaseOutcome.
using Counts = std::array<std::size_t, 5>;

std::size_t At(const Counts& c, CaseOutcome o) { return c[static_cast<std::size_t>(o)]; }

Counts CountsOf(const Matrix& m, const std::string& family, std::size_t column) {
  Counts c{};
  for (const Matrix::Case& k : m.cases)
    if (k.family == family) ++c[static_cast<std::size_t>(k.results[column].outcome)];
  return c;
}

std::size_t CasesIn(const Matrix& m, const std::string& family) {
  std::size_t n = 0;
  for (const Matrix::Case& k : m.cases) n += k.family == family;
  return n;
}

// "14 passed", "12 passed, 2 failed, 1 declared", "n/a" (nothing judged or run).
std::string CellText(const Counts& c) {
  std::string out;
  auto part = [&](CaseOutcome o, const char* what) {
    if (At(c, o) == 0) return;
    out += (out.empty() ? "" : ", ") + std::to_string(At(c, o)) + " " + what;
  };
  part(CaseOutcome::kPassed, "passed");
  part(CaseOutcome::kFailed, "failed");
  part(CaseOutcome::kDeclared, "declared");
  part(CaseOutcome::kUnsupported, "unsupported");
  return out.empty() ? "n/a" : out;
}

// The worst outcome present, as the cell's CSS class.
const char* CellClass(const Counts& c) {
  if (At(c, CaseOutcome::kFailed) > 0) return "fail";
  if (At(c, CaseOutcome::kDeclared) > 0) return "declared";
  if (At(c, CaseOutcome::kPassed) > 0) return "pass";
  return "na";
}

const char* OutcomeWord(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "passed";
    case CaseOutcome::kFailed: return "failed";
    case CaseOutcome::kDeclared: return "declared";
    case CaseOutcome::kUnsupported: return "unsupported";
    case CaseOutcome::kNotJudged: break;
  }
  return "n/a";
}

const char* OutcomeClass(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "pass";
    case CaseOutcome::kFailed: return "fail";
    case CaseOutcome::kDeclared: return "declared";
    default: return "na";
  }
}

// Text for HTML element content and attribute values: implementations' output and stderr
// end up here, so every markup character is escaped.
std::string Html(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

// A Markdown table cell: '|' would end it, a newline the row.
std::string Md(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    if (ch == '|') {
      out += "\\|";
    } else {
      out += ch == '\n' ? ' ' : ch;
    }
  }
  return out;
}

constexpr std::string_view kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1b2430; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #d5dbe3; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
td.pass { background: #d8f3dc; } td.fail { background: #f8d7da; }
td.declared { background: #fff3cd; } td.na { background: #f1f3f5; color: #6c757d; }
pre { white-space: pre-wrap; max-width: 80ch; font-size: 12px; }
summary { cursor: pointer; }
)css";

}  // namespace

std::string MatrixMarkdown(const Matrix& m, const MatrixHeader& h) {
  std::string out = "# Conformance matrix\n\n";
  out += "Corpus `" + Md(h.corpus) + "` (" + std::to_string(m.cases.size()) + " cases), " +
         Md(h.oracle_version) + ", " + Md(h.date) + ".\n\n| family | cases |";
  for (const std::string& c : m.columns) out += " " + Md(c) + " |";
  out += "\n|---|---|";
  for (std::size_t i = 0; i < m.columns.size(); ++i) out += "---|";
  out += '\n';
  for (const std::string& f : m.families) {
    out += "| " + Md(f) + " | " + std::to_string(CasesIn(m, f)) + " |";
    for (std::size_t i = 0; i < m.columns.size(); ++i)
      out += " " + CellText(CountsOf(m, f, i)) + " |";
    out += '\n';
  }
  return out;
}

std::string MatrixHtml(const Matrix& m, const MatrixHeader& h) {
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
      "<title>Conformance matrix</title><style>";
  out += kStyle;
  out += "</style></head><body>\n<h1>Conformance matrix</h1>\n<p>Corpus <code>" + Html(h.corpus) +
         "</code> (" + std::to_string(m.cases.size()) + " cases), " + Html(h.oracle_version) +
         ", " + Html(h.date) +
         ". A cell counts its family's cases by outcome; open a family below for its cases "
         "and each failure's first difference.</p>\n<table id=\"matrix\"><tr><th>family</th>"
         "<th>cases</th>";
  for (const std::string& c : m.columns) out += "<th>" + Html(c) + "</th>";
  out += "</tr>\n";
  for (std::size_t fi = 0; fi < m.families.size(); ++fi) {
    const std::string& f = m.families[fi];
    out += "<tr><td><a href=\"#family-" + std::to_string(fi) + "\">" + Html(f) + "</a></td><td>" +
           std::to_string(CasesIn(m, f)) + "</td>";
    for (std::size_t i = 0; i < m.columns.size(); ++i) {
      const Counts c = CountsOf(m, f, i);
      out += "<td class=\"" + std::string(CellClass(c)) + "\">" + Html(CellText(c)) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</table>\n";
  for (std::size_t fi = 0; fi < m.families.size(); ++fi) {
    const std::string& f = m.families[fi];
    const std::size_t n = CasesIn(m, f);
    out += "<details id=\"family-" + std::to_string(fi) + "\"><summary>" + Html(f) + ": " +
           std::to_string(n) + (n == 1 ? " case" : " cases") +
           "</summary>\n<table><tr><th>case</th>";
    for (const std::string& c : m.columns) out += "<th>" + Html(c) + "</th>";
    out += "</tr>\n";
    for (const Matrix::Case& k : m.cases) {
      if (k.family != f) continue;
      out += "<tr><td>" + Html(k.name) + "</td>";
      for (const CaseResult& r : k.results) {
        out += "<td class=\"" + std::string(OutcomeClass(r.outcome)) + "\">";
        if (r.reason.empty() && r.stderr_tail.empty()) {
          out += OutcomeWord(r.outcome);
        } else {
          out += "<details><summary>" + std::string(OutcomeWord(r.outcome)) + "</summary><pre>" +
                 Html(r.reason);
          if (!r.stderr_tail.empty()) out += "\nstderr:\n" + Html(r.stderr_tail);
          out += "</pre></details>";
        }
        out += "</td>";
      }
      out += "</tr>\n";
    }
    out += "</table></details>\n";
  }
  out += "</body></html>\n";
  return out;
}

}  // namespace mpo::corpus
