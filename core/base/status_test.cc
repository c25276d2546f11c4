#include "core/base/status.h"

#include <gtest/gtest.h>

namespace mpo {
namespace {

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, MessageNamesFieldAndOffset) {
  Status s = Status(ErrorCode::kCorrupt, "exceeds the remaining 0x40 bytes")
                 .WithField("packet header: size")
                 .AtOffset(0x1a2, 3);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(
      s.ToString(),
      "corrupt: packet header: size at offset 0x1a2 (bit 3): exceeds the remaining 0x40 bytes");
  EXPECT_EQ(*s.byte_offset(), 0x1a2u);
}

TEST(StatusTest, OffsetWithoutField) {
  Status s = Status(ErrorCode::kTruncated, "end of input").AtOffset(16);
  EXPECT_EQ(s.ToString(), "truncated: at offset 0x10: end of input");
}

TEST(StatusTest, PointerWideAndCopiedDeeply) {
  static_assert(sizeof(Status) == sizeof(void*));
  Status a = Status(ErrorCode::kCorrupt, "m").WithField("f").AtOffset(9);
  Status b = a;
  EXPECT_EQ(a, b);
  b.WithField("g");
  EXPECT_EQ(a.field(), "f");
  EXPECT_NE(a, b);
  Status moved = std::move(b);
  EXPECT_EQ(moved.field(), "g");
  EXPECT_EQ(Status(), Status::Ok());
  EXPECT_NE(a, Status::Ok());
  a = Status::Ok();
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(a.message(), "");
}

TEST(StatusTest, ContextOnOkIsDropped) {
  Status s = Status::Ok().WithField("f").AtOffset(3);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.field(), "");
  EXPECT_FALSE(s.byte_offset().has_value());
  EXPECT_TRUE(Status(ErrorCode::kOk, "ignored").ok());
}

TEST(ResultTest, HoldsValueOrError) {
  Result<int> v = 7;
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  Result<int> e = Status(ErrorCode::kInvalidArgument, "bad");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), ErrorCode::kInvalidArgument);
}

TEST(ResultTest, OkStatusIsNeverAValue) {
  Result<int> e = Status::Ok();
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), ErrorCode::kInternal);
}

}  // namespace
}  // namespace mpo
