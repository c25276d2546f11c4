#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <utility>

#include "core/base/ocaml_quoted.h"
#include "core/base/unique_fd.h"

namespace mpo {
namespace {

TEST(OcamlQuotedTest, EscapesLikeOCamlPercentS) {
  EXPECT_EQ(OcamlQuoted("plain"), "\"plain\"");
  EXPECT_EQ(OcamlQuoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(OcamlQuoted("\n\t\r\b"), "\"\\n\\t\\r\\b\"");
  EXPECT_EQ(OcamlQuoted(std::string_view("\0\x7f\xff", 3)), "\"\\000\\127\\255\"");
}

TEST(UniqueFdTest, ClosesOnDestructionAndMove) {
  int raw = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(raw, 0);
  {
    UniqueFd a(raw);
    UniqueFd b(std::move(a));
    EXPECT_FALSE(a.valid());
    EXPECT_EQ(b.get(), raw);
  }
  EXPECT_EQ(::fcntl(raw, F_GETFD), -1);  // closed exactly once, by b
}

}  // namespace
}  // namespace mpo
