#include "core/memtrace/buf.h"

#include <gtest/gtest.h>

#include <vector>

namespace mpo::memtrace {
namespace {

TEST(ByteReader, ReadsLittleEndianFields) {
  const std::vector<std::uint8_t> b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  ByteReader r(b, 100);
  EXPECT_EQ(r.U8("a"), 1);
  EXPECT_EQ(r.U16("b"), 0x0302);
  EXPECT_EQ(r.U32("c"), 0x07060504u);
  EXPECT_EQ(r.U64("d"), 0x0f0e0d0c0b0a0908ull);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.offset(), 115u);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ByteReader, ErrorIsStickyAndNamesFieldAndOffset) {
  const std::vector<std::uint8_t> b = {1, 2, 3};
  ByteReader r(b, 0x40);
  EXPECT_EQ(r.U16("first"), 0x0201);
  EXPECT_EQ(r.U32("second"), 0u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kTruncated);
  EXPECT_EQ(r.status().field(), "second");
  EXPECT_EQ(r.status().byte_offset(), std::optional<std::uint64_t>(0x42));
  // Later reads do nothing and keep the first error, even ones that would fit.
  EXPECT_EQ(r.U8("third"), 0);
  EXPECT_EQ(r.status().field(), "second");
  EXPECT_EQ(r.offset(), 0x42u);
}

TEST(ByteReader, StringNeedsItsTerminator) {
  const std::vector<std::uint8_t> b = {'a', 'b', 0, 'c', 'd'};
  ByteReader r(b, 0);
  EXPECT_EQ(r.String("s1"), "ab");
  EXPECT_EQ(r.String("s2"), "");
  EXPECT_EQ(r.status().code(), ErrorCode::kTruncated);
  EXPECT_EQ(r.status().byte_offset(), std::optional<std::uint64_t>(3));
}

TEST(Vint, RoundTripsWithOcamlSemantics) {
  const OcamlInt values[] = {0,
                             1,
                             252,
                             253,
                             0xffff,
                             0x10000,
                             -1,
                             INT32_MIN,
                             INT32_MAX,
                             0x81234567,
                             (OcamlInt{1} << 62) - 1,
                             -(OcamlInt{1} << 62)};
  const std::size_t sizes[] = {1, 1, 1, 3, 3, 5, 5, 5, 5, 9, 9, 9};
  for (std::size_t i = 0; i < std::size(values); ++i) {
    ByteWriter w(16);
    w.Vint(values[i]);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.pos(), sizes[i]) << values[i];
    ByteReader r(w.bytes(), 0);
    EXPECT_EQ(r.Vint("v"), values[i]);
    EXPECT_TRUE(r.ok());
  }
}

TEST(Vint, U64PayloadKeeps63Bits) {
  // Int64.to_int drops bit 63: 0x8000000000000001 reads as 1.
  const std::vector<std::uint8_t> b = {255, 1, 0, 0, 0, 0, 0, 0, 0x80};
  ByteReader r(b, 0);
  EXPECT_EQ(r.Vint("v"), 1);
  const std::vector<std::uint8_t> c = {255, 0, 0, 0, 0, 0, 0, 0, 0x40};
  ByteReader rc(c, 0);
  EXPECT_EQ(rc.Vint("v"), -(OcamlInt{1} << 62));
}

TEST(ByteWriter, OverflowIsStickyAndWritesNothing) {
  ByteWriter w(5);
  w.U32(0xdeadbeef);
  w.U16(1);
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(w.pos(), 4u);
  w.U8(1);
  EXPECT_EQ(w.pos(), 4u);
}

TEST(ByteWriter, StringStopsAtNul) {
  ByteWriter w(16);
  w.String(std::string_view("ab\0cd", 5));
  ASSERT_EQ(w.pos(), 3u);
  EXPECT_EQ(w.bytes()[2], 0);
}

TEST(OcamlInt, ArithmeticWrapsAt63Bits) {
  const OcamlInt max = (OcamlInt{1} << 62) - 1;
  EXPECT_EQ(OcamlAdd(max, 1), -(OcamlInt{1} << 62));
  EXPECT_EQ(OcamlUnsigned(-1), 0x7fffffffffffffffull);
  EXPECT_EQ(OcamlLsr(-1, 62), 1);
  EXPECT_EQ(OcamlIntOfInt64(0xffffffffffffffffull), -1);
}

}  // namespace
}  // namespace mpo::memtrace
