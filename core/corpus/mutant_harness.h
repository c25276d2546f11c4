// What the memtrace and ring mutant tests share: the cases of one kind from a generated
// corpus, and the three verdicts on a decoder's mutant lists. A decoder is given as a
// generic lambda `[]<class Faults>(const MutantCase&) -> std::string`: why that fault
// policy's decode of the case differs from its expected stream ("" when it matches).
//   - CorrectPasses: the correct policy passes every case (so a catch is the mutant's);
//   - ExpectMutantsCaught: each mutant of `Mutants` is caught by some case, the first one
//     logged; the known gaps of `Uncaught` are reported, never required;
//   - ExpectEquivalentPass: each mutant argued equivalent passes every case.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/base/faults.h"
#include "core/corpus/corpus.h"
#include "core/corpus/jsonl_diff.h"

namespace mpo::corpus::mutant_harness {

struct MutantCase {
  std::string name;  // <kind>/<file>
  std::vector<std::uint8_t> bytes;
  ExpectedStream expected;
};

// The cases under `kind` ("memtrace", "ring") whose file ends with `suffix`, in name
// order, from a corpus generated into $TEST_TMPDIR/<kind>_mutants_corpus.
inline std::vector<MutantCase> LoadCases(const std::string& kind, const std::string& suffix) {
  namespace fs = std::filesystem;
  const auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const char* t = std::getenv("TEST_TMPDIR");
  const fs::path dir = fs::path(t ? t : "/tmp") / (kind + "_mutants_corpus");
  fs::remove_all(dir);
  std::vector<MutantCase> cases;
  auto generated = Generate(dir.string());
  EXPECT_TRUE(generated.ok()) << generated.status().ToString();
  if (!generated.ok()) return cases;
  for (const auto& entry : fs::directory_iterator(dir / kind)) {
    const std::string file = entry.path().filename().string();
    if (file.size() < suffix.size() || !file.ends_with(suffix)) continue;
    auto expected = ParseExpectedStream(slurp(entry.path().string() + ".expected.jsonl"));
    EXPECT_TRUE(expected.ok()) << file << ": " << expected.status().ToString();
    if (!expected.ok()) continue;
    const std::string bytes = slurp(entry.path());
    cases.push_back(MutantCase{kind + "/" + file,
                               std::vector<std::uint8_t>(bytes.begin(), bytes.end()),
                               std::move(*expected)});
  }
  std::sort(cases.begin(), cases.end(),
            [](const MutantCase& a, const MutantCase& b) { return a.name < b.name; });
  return cases;
}

// The first case that catches `Faults` and why, or {"", ""}.
template <class Faults, class Diff>
std::pair<std::string, std::string> FirstCatch(const std::vector<MutantCase>& cases,
                                               const Diff& diff) {
  for (const MutantCase& c : cases) {
    std::string why = diff.template operator()<Faults>(c);
    if (!why.empty()) return {c.name, std::move(why)};
  }
  return {"", ""};
}

template <class Correct, class Diff>
void CorrectPasses(const std::vector<MutantCase>& cases, const Diff& diff) {
  for (const MutantCase& c : cases) EXPECT_EQ(diff.template operator()<Correct>(c), "") << c.name;
}

// `label` names the decoder in the log ("memtrace", "ring"); at least `min_total` mutants.
template <class Mutants, class Uncaught, class Diff>
void ExpectMutantsCaught(const std::vector<MutantCase>& cases, const Diff& diff,
                         const std::string& label, std::size_t min_total) {
  std::size_t caught = 0, total = 0;
  faults::ForEachFault<Mutants>([&]<class M>() {
    ++total;
    const auto [name, why] = FirstCatch<M>(cases, diff);
    EXPECT_NE(name, "") << M::kName << " is caught by no case";
    if (name.empty()) return;
    ++caught;
    std::cout << "mutant " << M::kName << ": caught by " << name << " (" << why.substr(0, 160)
              << ")\n";
  });
  std::cout << caught << " of " << total << " " << label << " mutants caught\n";
  EXPECT_GE(total, min_total);
  // A gap a new case closes belongs in Mutants (and README.md's table).
  faults::ForEachFault<Uncaught>([&]<class M>() {
    const auto [name, why] = FirstCatch<M>(cases, diff);
    if (name.empty())
      std::cout << "mutant " << M::kName << ": not caught yet (a corpus gap)\n";
    else
      std::cout << "mutant " << M::kName << ": now caught by " << name
                << ": move it to Mutants and README.md\n";
  });
}

template <class Equivalent, class Diff>
void ExpectEquivalentPass(const std::vector<MutantCase>& cases, const Diff& diff) {
  faults::ForEachFault<Equivalent>([&]<class M>() {
    const auto [name, why] = FirstCatch<M>(cases, diff);
    EXPECT_EQ(name, "") << M::kName << " is argued equivalent but " << name
                        << " tells it apart: " << why;
    std::cout << "equivalent mutant " << M::kName << ": passes every case\n";
  });
}

}  // namespace mpo::corpus::mutant_harness
