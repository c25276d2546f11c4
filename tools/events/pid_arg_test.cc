#include "tools/events/pid_arg.h"

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

TEST(PidOfRingFileName, TakesOnlyOcamlsNames) {
  EXPECT_EQ(PidOfRingFileName("3995.events", 1), 3995);
  EXPECT_EQ(PidOfRingFileName("/tmp/dir/4131.events", 1), 4131);
  EXPECT_EQ(PidOfRingFileName("dir.d/77.events", 1), 77);
  for (const char* other :
       {"x.events", ".events", "0.events", "-3.events", "12.events.gz", "named.ocaml-5.3.events",
        "4131", "9/x.events", "3995.EVENTS", "2147483648.events", "12 .events"}) {
    EXPECT_EQ(PidOfRingFileName(other, 1), 1) << other;
  }
}

}  // namespace
}  // namespace mpo::tools
