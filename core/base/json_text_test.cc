#include "core/base/json_text.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace mpo::json_text {
namespace {

std::string Str(std::string_view s) {
  std::string out;
  AppendString(out, s);
  return out;
}

TEST(JsonText, Utf8Validation) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9"));            // U+00E9
  EXPECT_TRUE(IsValidUtf8("\xe2\x82\xac"));           // U+20AC
  EXPECT_TRUE(IsValidUtf8("\xf0\x9f\x98\x80"));       // U+1F600
  EXPECT_TRUE(IsValidUtf8("\xf4\x8f\xbf\xbf"));       // U+10FFFF
  EXPECT_FALSE(IsValidUtf8("caf\xe9"));               // Latin-1
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));              // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xe0\x80\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));          // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));      // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));              // cut short
  EXPECT_FALSE(IsValidUtf8("\x80"));                  // stray continuation
  EXPECT_FALSE(IsValidUtf8("\xf8\x88\x80\x80\x80"));  // 5-byte form
}

TEST(JsonText, StringsEscapeControlsAndKeepUtf8) {
  EXPECT_EQ(Str("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(Str("\n\t\r\b\f"), R"("\n\t\r\b\f")");
  EXPECT_EQ(Str(std::string("\x01\x1f\x00", 3)), R"("\u0001\u001f\u0000")");
  EXPECT_EQ(Str("\x7f"), "\"\x7f\"");
  EXPECT_EQ(Str("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
}

TEST(JsonText, InvalidUtf8IsMarkedHex) {
  EXPECT_EQ(Str("caf\xe9"), R"({"hex":"636166e9"})");
  EXPECT_EQ(Str(std::string("\xff\x00", 2)), R"({"hex":"ff00"})");
}

TEST(JsonText, Numbers) {
  std::string out;
  AppendUint(out, std::numeric_limits<std::uint64_t>::max());
  out += ' ';
  AppendInt(out, std::numeric_limits<std::int64_t>::min());
  out += ' ';
  AppendDouble(out, 1e-4);
  out += ' ';
  AppendDouble(out, 0.1 + 0.2);
  out += ' ';
  AppendDouble(out, 100.0);
  out += ' ';
  AppendDouble(out, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(out, "18446744073709551615 -9223372036854775808 1e-04 0.30000000000000004 100 null");
}

TEST(JsonText, Hex) {
  std::string out;
  AppendHexCode(out, 0x1f2e);
  AppendHexBytes(out, std::string("\x00\xab", 2));
  EXPECT_EQ(out, "\"1f2e\"00ab");
}

}  // namespace
}  // namespace mpo::json_text
