#include "core/corpus/fuzz/minimize.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mpo::corpus::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(Minimize, CutsAMemtraceInputDownToTheByteThatMatters) {
  Bytes input(500, 7);
  input[321] = 0xab;
  const auto has_ab = [](std::span<const std::uint8_t> b) {
    return std::find(b.begin(), b.end(), 0xab) != b.end();
  };
  const MinimizeResult r = Minimize(input, {}, FuzzFormat::kMemtrace, has_ab, 5000);
  EXPECT_EQ(r.bytes, Bytes{0xab});
  EXPECT_LE(r.tests, 5000u);
}

TEST(Minimize, UndoesEveryEditButTheOneThatMatters) {
  Bytes origin(4096, 0);
  Bytes mutant = origin;
  for (std::size_t i = 100; i < 140; ++i) mutant[i] = 1;  // noise
  mutant[2000] = 9;                                       // the cause
  const auto keeps = [](std::span<const std::uint8_t> b) {
    return b.size() == 4096 && b[2000] == 9;
  };
  const MinimizeResult r = Minimize(mutant, origin, FuzzFormat::kRing, keeps, 1000);
  Bytes want = origin;
  want[2000] = 9;
  EXPECT_EQ(r.bytes, want);  // a ring keeps its size: only the edit is undone
}

TEST(Minimize, RespectsItsBudgetAndKeepsTheInputWhenNothingHolds) {
  Bytes input(1000, 3);
  std::size_t calls = 0;
  const auto never = [&calls](std::span<const std::uint8_t>) {
    ++calls;
    return false;
  };
  const MinimizeResult r = Minimize(input, {}, FuzzFormat::kMemtrace, never, 37);
  EXPECT_EQ(r.bytes, input);
  EXPECT_EQ(r.tests, 37u);
  EXPECT_EQ(calls, 37u);
  const MinimizeResult none = Minimize(input, {}, FuzzFormat::kMemtrace, never, 0);
  EXPECT_EQ(none.tests, 0u);
}

}  // namespace
}  // namespace mpo::corpus::fuzz
