#include "tools/ring/pid_arg.h"

#include <gtest/gtest.h>

namespace mpo::tools {
namespace {

TEST(ParsePid, AcceptsOnlyPositivePidsThatFitPidT) {
  EXPECT_EQ(*ParsePid("1"), 1);
  EXPECT_EQ(*ParsePid("3995"), 3995);
  EXPECT_EQ(*ParsePid("2147483647"), 2147483647);
  for (const char* bad : {"", "0", "00", "-1", "+1", " 1", "1 ", "1x", "0x10", "2147483648",
                          "4294967297", "18446744073709551617", "99999999999999999999999"}) {
    auto r = ParsePid(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(r.status().field(), "PID");
  }
}

}  // namespace
}  // namespace mpo::tools
