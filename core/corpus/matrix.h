// `corpus matrix`: every implementation against every case in one picture, in the spirit
// of JSONTestSuite's results table. A column is one `corpus check` (corpus.h) of one
// implementation in one verdict mode; a row is a case family, the format, version and
// verdict the cases share ("memtrace v2 rejected", "ring ocaml-5.3 accepted", "sampler
// accepted"), with its cases and their first differences one click away on the page.
//
//   std::vector<MatrixColumn> cols = {{"oracle", {.impl = "memprof-oracle corpus decode {file}"}}};
//   auto m = RunMatrix("corpus", cols);
//   if (m.ok()) Write(MatrixMarkdown(*m, header)), Write(MatrixHtml(*m, header));
//
// Failure: what Check fails with for a column (a bad corpus, a command without {file},
// ...), named by the column; a failing case is a cell's count, not an error.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/corpus/corpus.h"

namespace mpo::corpus {

struct MatrixColumn {
  std::string name;  // shown as the column's heading, with its mode when not strict
  CheckOptions options;
};

struct Matrix {
  struct Case {
    std::string name, family;
    std::vector<CaseResult> results;  // one per column, in the columns' order
  };
  std::vector<std::string> columns;   // headings
  std::vector<std::string> families;  // sorted: by format, version, verdict
  std::vector<Case> cases;            // in the corpus's order
};

// "FORMAT[ VERSION] accepted|rejected" from a case's tags (tags.h).
std::string FamilyOf(const std::vector<std::string>& tags);

// Runs every column over the corpus in `dir`, one after another; `on_column` is called
// after each (for progress).
Result<Matrix> RunMatrix(const std::string& dir, const std::vector<MatrixColumn>& columns,
                         const std::function<void(std::size_t done)>& on_column = {});

// What a page says above the table: the corpus, the oracle's version, the date.
struct MatrixHeader {
  std::string corpus, oracle_version, date;
};

// A Markdown table: a row per family, a cell per column ("14 passed", "12 passed, 2
// failed, 1 declared", "n/a" where the mode does not judge the family's format).
std::string MatrixMarkdown(const Matrix& m, const MatrixHeader& h);

// One self-contained HTML page (no script, no network): the same table, cells coloured by
// their worst outcome, and under it each family's cases with every failure's reason and
// stderr in a <details> element.
std::string MatrixHtml(const Matrix& m, const MatrixHeader& h);

}  // namespace mpo::corpus
