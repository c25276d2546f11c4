#include "tools/help_format.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace mpo::tools {
namespace {

std::size_t LongestLine(const std::string& text) {
  std::istringstream in(text);
  std::size_t longest = 0;
  for (std::string line; std::getline(in, line);) longest = std::max(longest, line.size());
  return longest;
}

TEST(WrapHelp, HangsDescriptionsUnderTheirColumn) {
  const std::string line = "  stats" + std::string(23, ' ') +
                           "Totals, top allocation sites, rates, lifetimes, live heap, "
                           "and more words to pass the width";
  EXPECT_EQ(WrapHelp(line, 60, 30),
            "  stats                       Totals, top allocation sites,\n"
            "                              rates, lifetimes, live heap,\n"
            "                              and more words to pass the\n"
            "                              width");
}

TEST(WrapHelp, PlainLinesContinueAtTheirIndentAndShortLinesStay) {
  EXPECT_EQ(WrapHelp("one two three four five six seven eight nine ten eleven twelve", 24, 30),
            "one two three four five\nsix seven eight nine ten\neleven twelve");
  EXPECT_EQ(WrapHelp("short\n\n  also short\n", 24, 30), "short\n\n  also short\n");
}

TEST(WrapHelp, ALongWordStaysWhole) {
  const std::string word(50, 'x');
  EXPECT_EQ(WrapHelp("a " + word + " b", 30, 30), "a\n" + word + "\nb");
}

TEST(WrappingFormatter, NoLineOfAHelpPassesTheWidth) {
  CLI::App app("A program whose description is long enough to need wrapping at sixty columns.");
  app.formatter(std::make_shared<WrappingFormatter>(60));
  app.add_subcommand("stats",
                     "Totals, top allocation sites, rates, lifetimes and the live heap "
                     "over the trace, with every figure explained");
  std::string value;
  app.add_option("--max-blocks", value,
                 "The most blocks a run may allocate before it is refused, a work limit");
  const std::string help = app.help();
  EXPECT_LE(LongestLine(help), 60u) << help;
  EXPECT_NE(help.find("--max-blocks"), std::string::npos);
}

}  // namespace
}  // namespace mpo::tools
