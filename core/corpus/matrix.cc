#include "core/corpus/matrix.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/corpus/manifest.h"
#include "core/corpus/read_file.h"
#include "core/corpus/tags.h"

namespace mpo::corpus {

std::string FamilyOf(const std::vector<std::string>& tags) {
  std::string family = FormatTag(tags);
  const std::string version = VersionTag(tags);
  if (!version.empty()) family += " " + version;
  for (const std::string& t : tags) {
    if (t != "accepted" && t != "rejected") continue;
    family += " ";
    family += t;
    break;
  }
  return family;
}

Result<Matrix> RunMatrix(const std::string& dir, const std::vector<MatrixColumn>& columns,
                         const std::function<void(std::size_t done)>& on_column) {
  auto text = ReadWholeFile(dir + "/MANIFEST.json", kManifestFile);
  if (!text.ok()) return text.status();
  auto manifest = ParseManifest(*text);
  if (!manifest.ok()) return manifest.status();
  Matrix m;
  std::map<std::string, std::size_t> index;  // case name -> position in m.cases
  for (const ManifestCase& c : *manifest) {
    Matrix::Case mc{c.name, FamilyOf(c.tags), {}};
    bool known = false;
    for (const std::string& f : m.families) known = known || f == mc.family;
    if (!known) m.families.push_back(mc.family);
    index.emplace(c.name, m.cases.size());
    m.cases.push_back(std::move(mc));
  }
  // By name: format, version, then accepted before rejected.
  std::sort(m.families.begin(), m.families.end());
  for (const MatrixColumn& col : columns) {
    auto s = Check(dir, col.options);
    if (!s.ok())
      return Status(s.status().code(), "column " + col.name + ": " + s.status().message())
          .WithField(s.status().field());
    // A case the check did not report (not selected by the column's options) is not
    // judged there.
    for (Matrix::Case& c : m.cases)
      c.results.push_back({c.name, false, {}, CaseOutcome::kNotJudged, {}});
    for (CaseResult& r : s->cases) {
      const auto it = index.find(r.name);
      if (it != index.end()) m.cases[it->second].results.back() = std::move(r);
    }
    m.columns.push_back(col.options.verdicts == Verdicts::kStrict
                            ? col.name
                            : col.name + " (as " + std::string(VerdictsName(col.options.verdicts)) +
                                  ")");
    if (on_column) on_column(m.columns.size());
  }
  return m;
}

}  // namespace mpo::corpus
