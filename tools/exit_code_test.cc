#include "tools/exit_code.h"

#include <gtest/gtest.h>

namespace mpo::tools {
namespace {

TEST(ExitCodeFor, UsageAndIoAndMissingInputAreTwo) {
  for (ErrorCode c : {ErrorCode::kInvalidArgument, ErrorCode::kIo, ErrorCode::kNotFound}) {
    EXPECT_EQ(ExitCodeFor(Status(c, "x")), kExitUsage) << ErrorCodeName(c);
  }
}

TEST(ExitCodeFor, BadInputAndLimitsAreOne) {
  for (ErrorCode c : {ErrorCode::kTruncated, ErrorCode::kCorrupt, ErrorCode::kUnsupportedVersion,
                      ErrorCode::kOutOfRange, ErrorCode::kResourceExhausted}) {
    EXPECT_EQ(ExitCodeFor(Status(c, "x")), kExitBadInput) << ErrorCodeName(c);
  }
}

TEST(ExitCodeFor, OkIsZero) { EXPECT_EQ(ExitCodeFor(Status::Ok()), kExitOk); }

TEST(ReportError, RecordsTheCode) {
  ReportError("test", Status(ErrorCode::kNotFound, "no such thing"));
  EXPECT_EQ(ExitCode(), kExitUsage);
  ReportError("test", Status(ErrorCode::kCorrupt, "bad"));
  EXPECT_EQ(ExitCode(), kExitBadInput);
  SetExitCode(kExitOk);
}

}  // namespace
}  // namespace mpo::tools
