#include "core/base/faults.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <tuple>

namespace mpo::faults {
namespace {

struct Correct {
  static int Step(int x) { return x; }
};
struct OffByOne : Correct {
  static constexpr std::string_view kName = "off_by_one";
  static int Step(int x) { return x + 1; }
};
struct Negated : Correct {
  static constexpr std::string_view kName = "negated";
  static int Step(int x) { return -x; }
};
using Mutants = std::tuple<OffByOne, Negated>;

TEST(Faults, ForEachFaultVisitsTheListInOrder) {
  std::string seen;
  ForEachFault<Mutants>([&]<class F>() { seen += std::string(F::kName) + ","; });
  EXPECT_EQ(seen, "off_by_one,negated,");
}

TEST(Faults, WithFaultNamedPicksThePolicyByName) {
  int got = 0;
  auto run = [&]<class F>() { got = F::Step(5); };
  EXPECT_TRUE((WithFaultNamed<Correct, Mutants>(kNoFaultsName, run)));
  EXPECT_EQ(got, 5);
  EXPECT_TRUE((WithFaultNamed<Correct, Mutants>("negated", run)));
  EXPECT_EQ(got, -5);
  got = 0;
  EXPECT_FALSE((WithFaultNamed<Correct, Mutants>("no_such_mutant", run)));
  EXPECT_EQ(got, 0);  // nothing ran
}

}  // namespace
}  // namespace mpo::faults
