#include "core/corpus/matrix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace mpo::corpus {
namespace {

// Generated once for every test here (a generation takes seconds).
const std::string& TempCorpus() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TEST_TMPDIR");
    std::string d = std::string(tmp != nullptr ? tmp : "/tmp") + "/matrix_corpus";
    EXPECT_TRUE(Generate(d).ok());
    return d;
  }();
  return dir;
}

TEST(Matrix, FamilyIsFormatVersionAndVerdict) {
  EXPECT_EQ(FamilyOf({"memtrace", "v2", "rejected", "bad", "backtrace"}), "memtrace v2 rejected");
  EXPECT_EQ(FamilyOf({"ring", "ocaml-5.3", "accepted", "lost_events"}), "ring ocaml-5.3 accepted");
  EXPECT_EQ(FamilyOf({"sampler", "accepted", "binomial"}), "sampler accepted");
}

// Three columns: an implementation that prints the expected streams, one that fails every
// v1 trace (saying so on stderr in markup), and the first held to memtrace 0.2.3's
// verdicts. Each row counts what each column did with its cases.
TEST(Matrix, CountsEveryCaseOfEveryColumn) {
  const std::string& dir = TempCorpus();
  CheckOptions good;
  good.impl = "cat {file}.expected.jsonl";
  good.jobs = 2;
  good.only = {"tag:v1", "tag:ring"};  // a process per case: v1 traces and rings suffice
  CheckOptions no_v1 = good;
  no_v1.impl =
      "case {file} in */v1_*) echo '<b>no v1</b>' >&2; exit 3;; *) cat {file}.expected.jsonl;; "
      "esac";
  CheckOptions as_023 = good;
  as_023.verdicts = Verdicts::kMemtrace023;
  std::size_t progress = 0;
  auto m = RunMatrix(dir, {{"cat", good}, {"no-v1", no_v1}, {"cat", as_023}},
                     [&](std::size_t done) { progress = done; });
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(progress, 3u);
  ASSERT_EQ(m->columns.size(), 3u);
  EXPECT_EQ(m->columns[2], "cat (as memtrace-0.2.3)");
  ASSERT_FALSE(m->cases.empty());
  EXPECT_EQ(m->families.front(), "memtrace v1 accepted");
  EXPECT_TRUE(std::is_sorted(m->families.begin(), m->families.end()));
  std::size_t v1 = 0;
  for (const Matrix::Case& c : m->cases) {
    ASSERT_EQ(c.results.size(), 3u) << c.name;
    const bool run = c.name.rfind("memtrace/v1_", 0) == 0 || c.name.rfind("ring/", 0) == 0;
    if (!run) {
      for (const CaseResult& r : c.results) EXPECT_EQ(r.outcome, CaseOutcome::kNotJudged);
      continue;
    }
    EXPECT_EQ(c.results[0].outcome, CaseOutcome::kPassed) << c.name;
    const bool is_v1 = c.name.rfind("memtrace/v1_", 0) == 0;
    v1 += is_v1;
    EXPECT_EQ(c.results[1].outcome, is_v1 ? CaseOutcome::kFailed : CaseOutcome::kPassed) << c.name;
    if (c.family.rfind("memtrace", 0) != 0) {
      EXPECT_EQ(c.results[2].outcome, CaseOutcome::kNotJudged) << c.name;
    }
  }
  ASSERT_GT(v1, 0u);

  const MatrixHeader h{"corpus", "memprof-oracle test", "2026-11-28"};
  const std::string md = MatrixMarkdown(*m, h);
  EXPECT_NE(md.find("| family | cases | cat | no-v1 | cat (as memtrace-0.2.3) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| ring ocaml-5.3 accepted | 10 | 10 passed | 10 passed | n/a |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| memtrace v1 accepted | 12 | 12 passed | 12 failed |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| sampler accepted | 48 | n/a | n/a | n/a |"), std::string::npos) << md;

  const std::string html = MatrixHtml(*m, h);
  EXPECT_NE(html.find("<td class=\"fail\">12 failed</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"na\">n/a</td>"), std::string::npos);
  // An implementation's stderr is shown as text, never as markup.
  EXPECT_EQ(html.find("<b>no v1</b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;no v1&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("exit code 3"), std::string::npos);
}

TEST(Matrix, AColumnThatCannotRunNamesItself) {
  const std::string& dir = TempCorpus();
  CheckOptions bad;
  bad.impl = "cat";  // a one-file command without {file}
  auto m = RunMatrix(dir, {{"broken", bad}});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("column broken: "), std::string::npos)
      << m.status().ToString();
  EXPECT_FALSE(RunMatrix(dir + "/missing", {{"x", bad}}).ok());
}

}  // namespace
}  // namespace mpo::corpus
