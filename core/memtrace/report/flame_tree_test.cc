#include "core/memtrace/report/flame_tree.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/memtrace/report/collapsed_flame.h"
#include "core/memtrace/report/inverted_flame.h"

namespace mpo::memtrace::report {
namespace {

FlameTree Build(const std::string& folded, std::size_t max_nodes = 1000) {
  FlameTreeBuilder b(max_nodes);
  // Split writes mid-line: the builder must join them.
  for (std::size_t i = 0; i < folded.size(); i += 3) b.Write(std::string_view(folded).substr(i, 3));
  auto t = b.Finish();
  EXPECT_TRUE(t.ok());
  return t.ok() ? std::move(*t) : FlameTree{};
}

std::string Json(const FlameTree& t) {
  std::string out;
  JsonWriter w(out);
  WriteFlame(w, t);
  return out;
}

TEST(FlameTree, SumsFoldedLinesIntoATree) {
  const FlameTree t = Build("main;f 3\nmain;g 5\nmain;g;h 2\nx 1");
  EXPECT_EQ(Json(t),
            "{\"n\":\"all\",\"v\":11,\"c\":[{\"n\":\"main\",\"v\":10,\"c\":["
            "{\"n\":\"g\",\"v\":7,\"c\":[{\"n\":\"h\",\"v\":2,\"c\":[]}]},"
            "{\"n\":\"f\",\"v\":3,\"c\":[]}]},{\"n\":\"x\",\"v\":1,\"c\":[]}]}");
}

// Each stack read backwards, with its own count: allocation points first, callers below.
TEST(FlameTree, InvertedTreeReversesEveryStack) {
  const FlameTree t = Build("main;f 3\nmain;g 5\nmain;g;h 2\nx 1");
  const FlameTree inv = InvertedTree(t, 1000);
  EXPECT_EQ(Json(inv),
            "{\"n\":\"all\",\"v\":11,\"c\":["
            "{\"n\":\"g\",\"v\":5,\"c\":[{\"n\":\"main\",\"v\":5,\"c\":[]}]},"
            "{\"n\":\"f\",\"v\":3,\"c\":[{\"n\":\"main\",\"v\":3,\"c\":[]}]},"
            "{\"n\":\"h\",\"v\":2,\"c\":[{\"n\":\"g\",\"v\":2,\"c\":["
            "{\"n\":\"main\",\"v\":2,\"c\":[]}]}]},{\"n\":\"x\",\"v\":1,\"c\":[]}]}");
  // Inverted twice: the stacks as recorded.
  EXPECT_EQ(Json(InvertedTree(inv, 1000)), Json(t));
  // Cut as Bounded cuts, heaviest first: h and x go to "other".
  const FlameTree cut = InvertedTree(t, 7);
  EXPECT_EQ(Json(cut),
            "{\"n\":\"all\",\"v\":11,\"c\":["
            "{\"n\":\"g\",\"v\":5,\"c\":[{\"n\":\"main\",\"v\":5,\"c\":[]}]},"
            "{\"n\":\"f\",\"v\":3,\"c\":[{\"n\":\"main\",\"v\":3,\"c\":[]}]},"
            "{\"n\":\"other\",\"v\":3,\"c\":[]}]}");
}

// Made cut, the inverted tree is a true cut of the whole one: at most the bound, every
// kept node's path and value as in the whole tree, and its "other" child holding exactly
// what its kept children and its own stacks leave.
TEST(FlameTree, InvertedTreeCutIsACutOfTheWhole) {
  std::uint64_t state = 11;
  auto next = [&state] { return SplitMix64Next(&state); };
  for (int round = 0; round < 30; ++round) {
    std::string folded;
    for (int line = 0; line < 60; ++line) {
      const int depth = 1 + static_cast<int>(next() % 7);
      for (int d = 0; d < depth; ++d) {
        if (d > 0) folded += ';';
        folded += static_cast<char>('a' + next() % 5);
      }
      folded += ' ' + std::to_string(1 + next() % 9) + '\n';
    }
    const FlameTree t = Build(folded);
    const FlameTree whole = InvertedTree(t, 1u << 20);
    for (std::size_t n : {2u, 5u, 16u, 40u, 200u}) {
      const FlameTree cut = InvertedTree(t, n);
      EXPECT_LE(cut.nodes.size(), std::max<std::size_t>(n, 2));
      // (cut node, whole node) pairs, matched by name under matched parents.
      std::vector<std::pair<std::uint32_t, std::uint32_t>> todo{{0, 0}};
      while (!todo.empty()) {
        const auto [c, w] = todo.back();
        todo.pop_back();
        ASSERT_EQ(cut.nodes[c].value, whole.nodes[w].value);
        std::uint64_t own = whole.nodes[w].value, kept = 0, other = 0;
        for (std::uint32_t k : whole.nodes[w].children) own -= whole.nodes[k].value;
        for (std::uint32_t k : cut.nodes[c].children) {
          const std::string& name = cut.names[cut.nodes[k].name];
          if (name == "other" && cut.nodes[k].children.empty()) {
            other += cut.nodes[k].value;
            continue;
          }
          kept += cut.nodes[k].value;
          bool found = false;
          for (std::uint32_t k2 : whole.nodes[w].children)
            if (whole.names[whole.nodes[k2].name] == name) {
              todo.push_back({k, k2});
              found = true;
            }
          ASSERT_TRUE(found) << name;
        }
        EXPECT_EQ(own + kept + other, cut.nodes[c].value);
      }
    }
  }
}

TEST(FlameTree, FramesSharingTextButNotWholeFramesAreDistinct) {
  // "b" is left for "b!z" and found again; "bc" only shares text with "b".
  const FlameTree t = Build("a;b 5\na;b!z 1\na;b;c 3\na;bc 1\na;b 2\n");
  EXPECT_EQ(Json(t),
            "{\"n\":\"all\",\"v\":12,\"c\":[{\"n\":\"a\",\"v\":12,\"c\":["
            "{\"n\":\"b\",\"v\":10,\"c\":[{\"n\":\"c\",\"v\":3,\"c\":[]}]},"
            "{\"n\":\"b!z\",\"v\":1,\"c\":[]},{\"n\":\"bc\",\"v\":1,\"c\":[]}]}]}");
}

TEST(FlameTree, BoundedMergesTheLightestIntoOther) {
  const FlameTree t = Build("m;a 50\nm;b 30\nm;c 2\nm;d 1\nm;b;z 1\n");
  const FlameTree b = Bounded(t, 6);  // all, m, a, b kept, and two "other"
  EXPECT_EQ(Json(b),
            "{\"n\":\"all\",\"v\":84,\"c\":[{\"n\":\"m\",\"v\":84,\"c\":["
            "{\"n\":\"a\",\"v\":50,\"c\":[]},{\"n\":\"b\",\"v\":31,\"c\":["
            "{\"n\":\"other\",\"v\":1,\"c\":[]}]},{\"n\":\"other\",\"v\":3,\"c\":[]}]}]}");
  EXPECT_EQ(b.nodes.size(), 6u);
}

// The bound counts the "other" nodes: never more than max_nodes in all, and every node's
// value is still at least its children's total.
TEST(FlameTree, BoundedIsATrueBound) {
  std::uint64_t state = 7;
  auto next = [&state] { return SplitMix64Next(&state); };
  for (int round = 0; round < 60; ++round) {
    std::string folded;
    const int lines = 1 + static_cast<int>(next() % 300);
    for (int i = 0; i < lines; ++i) {
      const int depth = 1 + static_cast<int>(next() % 12);
      for (int d = 0; d < depth; ++d)
        folded += (d ? ";" : "") + std::string("f") + std::to_string(next() % 5);
      folded += " " + std::to_string(1 + next() % 9) + "\n";
    }
    const FlameTree t = Build(folded, 100000);
    for (const std::size_t n : {2, 3, 16, 17, 100, 2000}) {
      const FlameTree b = Bounded(t, n);
      EXPECT_LE(b.nodes.size(), n) << round;
      EXPECT_EQ(b.nodes[0].value, t.nodes[0].value);
      for (const FlameNode& node : b.nodes) {
        std::uint64_t sum = 0;
        for (std::uint32_t c : node.children) sum += b.nodes[c].value;
        EXPECT_LE(sum, node.value);
      }
      if (t.nodes.size() <= n) {
        EXPECT_EQ(b.nodes.size(), t.nodes.size());
      }
    }
  }
}

TEST(FlameTree, BoundedKeepsANodesOwnCount) {
  // "m" has 4 samples of its own: they are not "other".
  const FlameTree b = Bounded(Build("m 4\nm;a 6\n"), 10);
  EXPECT_EQ(Json(b),
            "{\"n\":\"all\",\"v\":10,\"c\":[{\"n\":\"m\",\"v\":10,\"c\":["
            "{\"n\":\"a\",\"v\":6,\"c\":[]}]}]}");
}

TEST(FlameTree, NodeBudgetIsAnError) {
  FlameTreeBuilder b(3);
  b.Write("a;b;c;d 1\n");
  auto t = b.Finish();
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kResourceExhausted);
}

TEST(FlameTree, NamesAreJsonEscaped) {
  const std::string j = Json(Build("a\"b\\c 1\n"));
  EXPECT_NE(j.find("\"a\\\"b\\\\c\""), std::string::npos) << j;
}

TEST(FlameTree, EmptyInputIsAnEmptyRoot) {
  EXPECT_EQ(Json(Build("")), "{\"n\":\"all\",\"v\":0,\"c\":[]}");
}

TEST(CollapseRecursion, DirectRecursionOnly) {
  const FlameTree t = CollapseRecursion(Build("a;a;b;a 2\na;b;b 1\na 4\n"));
  EXPECT_EQ(Json(t),
            "{\"n\":\"all\",\"v\":7,\"c\":[{\"n\":\"a\",\"v\":7,\"c\":["
            "{\"n\":\"b\",\"v\":3,\"c\":[{\"n\":\"a\",\"v\":2,\"c\":[]}]}]}]}");
}

TEST(CollapseRecursion, EmptyTree) {
  EXPECT_EQ(Json(CollapseRecursion(Build(""))), "{\"n\":\"all\",\"v\":0,\"c\":[]}");
  EXPECT_EQ(Json(CollapseRecursion(FlameTree{})), "{\"n\":\"all\",\"v\":0,\"c\":[]}");
}

}  // namespace
}  // namespace mpo::memtrace::report
