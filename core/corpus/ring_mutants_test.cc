// The corpus measures its own strength against broken ring consumers: every ring case is
// decoded in-process by each deliberately broken consumer (ring_mutants.h) and compared
// with its expected stream the way `corpus check` compares (jsonl_diff.h); each mutant
// must be caught by some case, and the test log names the first one. Equivalent mutants
// must pass every case (their comments argue why no input can tell them apart); the
// corpus's known gaps (UncaughtMutants) are reported.
#include "core/corpus/ring_mutants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/decode_ring_with.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/mutant_harness.h"
#include "core/ring/event_names.h"

namespace mpo::corpus {
namespace {

using mutant_harness::MutantCase;

// Why `Faults`'s decode of a case differs from its expected stream ("" when it matches);
// the release's names come from the file name, as `corpus decode` takes them.
const auto kDifference = []<class Faults>(const MutantCase& c) -> std::string {
  const auto version = ring::OcamlVersionOfFileName(c.name);
  if (!version) return "no OCaml release in the file name";
  StringTextSink out;
  (void)DecodeRingJsonWith<Faults>(c.bytes, *version, out);
  return CompareStream(c.expected, out.text);
};

class RingMutantsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cases_ = mutant_harness::LoadCases("ring", ".events"); }
  static std::vector<MutantCase> cases_;
};

std::vector<MutantCase> RingMutantsTest::cases_;

TEST_F(RingMutantsTest, CorrectConsumerPassesEveryCase) {
  ASSERT_GT(cases_.size(), 20u);
  mutant_harness::CorrectPasses<ring::NoFaults>(cases_, kDifference);
}

TEST_F(RingMutantsTest, EveryRingMutantIsCaught) {
  mutant_harness::ExpectMutantsCaught<ring_mutants::Mutants, ring_mutants::UncaughtMutants>(
      cases_, kDifference, "ring", 8);
}

TEST_F(RingMutantsTest, EquivalentMutantsPassEveryCase) {
  mutant_harness::ExpectEquivalentPass<ring_mutants::EquivalentMutants>(cases_, kDifference);
}

}  // namespace
}  // namespace mpo::corpus
