// The corpus measures its own strength: every memtrace case is decoded in-process by
// each deliberately broken reader (memtrace_mutants.h) and compared with its expected
// stream the way `corpus check` compares (jsonl_diff.h); each mutant must be caught by
// some case, and the test log names the first one. Equivalent mutants must pass every
// case (their comments argue why no input can tell them apart); the corpus's known gaps
// (UncaughtMutants) are reported.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/decode_memtrace_with.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/memtrace_mutants.h"
#include "core/corpus/mutant_harness.h"
#include "core/memtrace/byte_io.h"

namespace mpo::corpus {
namespace {

using mutant_harness::MutantCase;

// Why `Faults`'s decode of a case differs from its expected stream ("" when it matches).
const auto kDifference = []<class Faults>(const MutantCase& c) {
  auto source = memtrace::MemorySource(c.bytes);
  StringTextSink out;
  (void)DecodeMemtraceJsonWith<Faults>(*source, out);
  return CompareStream(c.expected, out.text);
};

class MutantsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cases_ = mutant_harness::LoadCases("memtrace", ".ctf"); }
  static std::vector<MutantCase> cases_;
};

std::vector<MutantCase> MutantsTest::cases_;

TEST_F(MutantsTest, CorrectReaderPassesEveryCase) {
  ASSERT_GT(cases_.size(), 50u);
  mutant_harness::CorrectPasses<memtrace::NoFaults>(cases_, kDifference);
}

TEST_F(MutantsTest, EveryMemtraceMutantIsCaught) {
  mutant_harness::ExpectMutantsCaught<memtrace_mutants::Mutants, memtrace_mutants::UncaughtMutants>(
      cases_, kDifference, "memtrace", 30);
}

TEST_F(MutantsTest, EquivalentMutantsPassEveryCase) {
  mutant_harness::ExpectEquivalentPass<memtrace_mutants::EquivalentMutants>(cases_, kDifference);
}

}  // namespace
}  // namespace mpo::corpus
