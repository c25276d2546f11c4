#include "tools/did_you_mean.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpo::tools {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(EditDistance("stat", "stats"), 1u);
  EXPECT_EQ(EditDistance("stats", "stat"), 1u);
  EXPECT_EQ(EditDistance("dump", "damp"), 1u);
  EXPECT_EQ(EditDistance("fodled", "folded"), 1u);  // two letters swapped
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("same", "same"), 0u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(NearestName, SuggestsOnlyWhatIsNearEnough) {
  const std::vector<std::string> names = {"dump", "check", "copy", "stats", "leaks", "folded"};
  EXPECT_EQ(NearestName("stat", names), "stats");
  EXPECT_EQ(NearestName("chekc", names), "check");
  EXPECT_EQ(NearestName("folde", names), "folded");
  EXPECT_EQ(NearestName("fol", names), "folded");  // a prefix of one name only
  EXPECT_EQ(NearestName("xyzzy", names), std::nullopt);
  EXPECT_EQ(NearestName("co", names), std::nullopt);  // too short to guess
  EXPECT_EQ(NearestName("cop", names), "copy");       // one edit
  EXPECT_EQ(NearestName("ab", {}), std::nullopt);
}

// A table like the program's: groups without positionals, leaves with them.
struct Table {
  CLI::App app{"test"};
  std::string file;
  Table() {
    auto* memtrace = app.add_subcommand("memtrace", "traces");
    memtrace->add_subcommand("stats", "")->add_option("file", file);
    memtrace->add_subcommand("dump", "")->add_option("file", file);
    app.add_subcommand("events", "rings")->add_subcommand("dump", "")->add_option("file", file);
  }
};

std::optional<std::string> Message(const Table& t, std::vector<std::string> words) {
  std::vector<char*> args;
  for (auto& w : words) args.push_back(w.data());
  return UnknownSubcommandMessage(t.app, "prog", args);
}

TEST(UnknownSubcommandMessage, NamesTheNearestAtEveryLevel) {
  Table t;
  EXPECT_EQ(Message(t, {"memtrace", "stat", "f.ctf"}),
            "prog memtrace: unknown subcommand 'stat'; did you mean 'stats'?");
  EXPECT_EQ(Message(t, {"memtrce", "stats"}),
            "prog: unknown subcommand 'memtrce'; did you mean 'memtrace'?");
  EXPECT_EQ(Message(t, {"events", "xyz"}), "prog events: unknown subcommand 'xyz' (one of: dump)");
}

TEST(UnknownSubcommandMessage, LeavesEverythingElseToTheParser) {
  Table t;
  EXPECT_EQ(Message(t, {"memtrace", "stats", "stat"}), std::nullopt);  // a leaf's positional
  EXPECT_EQ(Message(t, {"memtrace", "--help"}), std::nullopt);
  EXPECT_EQ(Message(t, {"memtrace"}), std::nullopt);
  EXPECT_EQ(Message(t, {}), std::nullopt);
}

}  // namespace
}  // namespace mpo::tools
