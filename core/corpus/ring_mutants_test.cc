// The corpus measures its own strength against broken ring consumers: every ring case is
// decoded in-process by each deliberately broken consumer (ring_mutants.h) and compared
// with its expected stream the way `corpus check` compares (jsonl_diff.h); each mutant
// must be caught by some case, and the test log names the first one. Equivalent mutants
// must pass every case (their comments argue why no input can tell them apart); the
// corpus's known gaps (UncaughtMutants) are reported.
#include "core/corpus/ring_mutants.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode_ring_with.h"
#include "core/corpus/jsonl_diff.h"
#include "core/ring/event_names.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Case {
  std::string name;  // ring/<file>
  ring::OcamlVersion version;
  std::vector<std::uint8_t> bytes;
  ExpectedStream expected;
};

// The ring cases of one generated corpus, in name order.
class RingMutantsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* t = std::getenv("TEST_TMPDIR");
    const fs::path dir = fs::path(t ? t : "/tmp") / "ring_mutants_corpus";
    fs::remove_all(dir);
    auto generated = Generate(dir.string());
    ASSERT_TRUE(generated.ok()) << generated.status().ToString();
    cases_ = new std::vector<Case>;
    for (const auto& entry : fs::directory_iterator(dir / "ring")) {
      const fs::path p = entry.path();
      if (p.extension() != ".events") continue;
      const auto version = ring::OcamlVersionOfFileName(p.filename().string());
      ASSERT_TRUE(version.has_value()) << p;
      auto expected = ParseExpectedStream(Slurp(p.string() + ".expected.jsonl"));
      ASSERT_TRUE(expected.ok()) << p << ": " << expected.status().ToString();
      const std::string bytes = Slurp(p);
      cases_->push_back(Case{"ring/" + p.filename().string(), *version,
                             std::vector<std::uint8_t>(bytes.begin(), bytes.end()),
                             std::move(*expected)});
    }
    std::sort(cases_->begin(), cases_->end(),
              [](const Case& a, const Case& b) { return a.name < b.name; });
  }
  static void TearDownTestSuite() { delete cases_; }

  // Why `Faults`'s decode of `c` differs from the expected stream ("" when it matches).
  template <class Faults>
  static std::string Difference(const Case& c) {
    StringTextSink out;
    (void)DecodeRingJsonWith<Faults>(c.bytes, c.version, out);
    return CompareStream(c.expected, out.text);
  }

  // The first case that catches `Faults` and why, or {"", ""}.
  template <class Faults>
  static std::pair<std::string, std::string> FirstCatch() {
    for (const Case& c : *cases_) {
      std::string diff = Difference<Faults>(c);
      if (!diff.empty()) return {c.name, std::move(diff)};
    }
    return {"", ""};
  }

  static std::vector<Case>* cases_;
};

std::vector<Case>* RingMutantsTest::cases_ = nullptr;

template <class Tuple, class Fn>
void ForEachType(Fn&& fn) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (fn.template operator()<std::tuple_element_t<I, Tuple>>(), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

// The harness itself: the correct consumer, through the same template path, passes every
// case (so a catch is the mutant's doing).
TEST_F(RingMutantsTest, CorrectConsumerPassesEveryCase) {
  ASSERT_GT(cases_->size(), 20u);
  for (const Case& c : *cases_) EXPECT_EQ(Difference<ring::NoFaults>(c), "") << c.name;
}

TEST_F(RingMutantsTest, EveryRingMutantIsCaught) {
  std::size_t caught = 0, total = 0;
  ForEachType<ring_mutants::Mutants>([&]<class M>() {
    ++total;
    const auto [name, why] = FirstCatch<M>();
    EXPECT_NE(name, "") << M::kName << " is caught by no case";
    if (name.empty()) return;
    ++caught;
    std::cout << "mutant " << M::kName << ": caught by " << name << " (" << why.substr(0, 160)
              << ")\n";
  });
  std::cout << caught << " of " << total << " ring mutants caught\n";
  EXPECT_GE(total, 8u);
  // The known gaps (ring_mutants.h says which input each needs): reported, not required;
  // one a new case catches belongs in Mutants (and README.md's table).
  ForEachType<ring_mutants::UncaughtMutants>([&]<class M>() {
    const auto [name, why] = FirstCatch<M>();
    if (name.empty())
      std::cout << "mutant " << M::kName << ": not caught yet (a corpus gap)\n";
    else
      std::cout << "mutant " << M::kName << ": now caught by " << name
                << ": move it to Mutants and README.md\n";
  });
}

TEST_F(RingMutantsTest, EquivalentMutantsPassEveryCase) {
  ForEachType<ring_mutants::EquivalentMutants>([&]<class M>() {
    const auto [name, why] = FirstCatch<M>();
    EXPECT_EQ(name, "") << M::kName << " is argued equivalent but " << name
                        << " tells it apart: " << why;
    std::cout << "equivalent mutant " << M::kName << ": passes every case\n";
  });
}

}  // namespace
}  // namespace mpo::corpus
