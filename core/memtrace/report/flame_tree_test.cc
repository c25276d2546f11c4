#include "core/memtrace/report/flame_tree.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/export/folded.h"
#include "core/memtrace/report/collapsed_flame.h"
#include "core/memtrace/trace_writer.h"

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
  AppendFlameJson(out, t);
  return out;
}

TEST(FlameTree, SumsFoldedLinesIntoATree) {
  const FlameTree t = Build("main;f 3\nmain;g 5\nmain;g;h 2\nx 1");
  EXPECT_EQ(Json(t),
            "{\"n\":\"all\",\"v\":11,\"c\":[{\"n\":\"main\",\"v\":10,\"c\":["
            "{\"n\":\"g\",\"v\":7,\"c\":[{\"n\":\"h\",\"v\":2,\"c\":[]}]},"
            "{\"n\":\"f\",\"v\":3,\"c\":[]}]},{\"n\":\"x\",\"v\":1,\"c\":[]}]}");
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
      if (t.nodes.size() <= n) EXPECT_EQ(b.nodes.size(), t.nodes.size());
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

// A trace of `events` random allocations whose backtraces repeat codes (direct recursion,
// also through codes of several inlined frames or of none) from a small set, so that
// stacks share prefixes, collapse into each other and tie in value.
std::vector<std::uint8_t> RandomRecursiveTrace(std::uint64_t seed, int events) {
  std::uint64_t state = seed;
  auto below = [&state](std::uint64_t n) { return SplitMix64Next(&state) % n; };
  VectorSink sink;
  Info info;
  info.pid = 1;
  info.start_time = 1000;
  info.sample_rate = 0.01;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  // Names repeat across codes (and lines, which `functions` drops), and some hold "f!"
  // and "f": names that sort around ';'.
  const std::vector<std::string> defs = {"f", "f!", "g", "h", "f;x"};
  std::map<OcamlInt, std::vector<Location>> locs;
  for (OcamlInt code = 1; code <= 8; ++code) {
    std::vector<Location>& frames = locs[code];
    const std::uint64_t n = code == 8 ? 0 : 1 + below(3) / 2;  // code 8 holds no frame
    for (std::uint64_t i = 0; i < n; ++i)
      frames.push_back(
          {"m.ml", static_cast<OcamlInt>(1 + below(2)), 0, 1, defs[below(defs.size())]});
  }
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  for (int e = 0; e < events; ++e) {
    std::vector<OcamlInt> bt;
    const std::uint64_t runs = below(6);
    for (std::uint64_t r = 0; r < runs; ++r)
      bt.insert(bt.end(), 1 + below(3), static_cast<OcamlInt>(1 + below(8)));
    const auto samples = static_cast<OcamlInt>(1 + below(3));
    EXPECT_TRUE((*w)->PutAlloc(static_cast<std::uint16_t>(below(2)), 1001 + e, 2, samples,
                               AllocationSource::kMinor, bt, lookup)
                    .ok());
  }
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

FlameTree FoldedTree(const std::vector<std::uint8_t>& trace, exporter::FoldedOptions o) {
  FlameTreeBuilder b(1 << 20);
  const Status s = exporter::WriteFoldedStacks(*MemorySource(trace), o, b);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto t = b.Finish();
  EXPECT_TRUE(t.ok());
  return t.ok() ? std::move(*t) : FlameTree{};
}

// Node by node: names, values and children in order (JSON alone sorts children by value).
void ExpectSameTree(const FlameTree& a, const FlameTree& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.names[a.nodes[i].name], b.names[b.nodes[i].name]) << i;
    EXPECT_EQ(a.nodes[i].value, b.nodes[i].value) << i;
    EXPECT_EQ(a.nodes[i].children, b.nodes[i].children) << i;
  }
  EXPECT_EQ(Json(a), Json(b));
}

// The report's in-memory collapse equals the tree of `folded --collapse-recursion`'s text
// (the second pass it replaced), bounded or not.
TEST(CollapseRecursion, EqualsFoldedsCollapsedStacks) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    const auto trace = RandomRecursiveTrace(seed, static_cast<int>(1 + seed * 5));
    for (const bool functions : {false, true}) {
      exporter::FoldedOptions o;
      o.functions = functions;
      const FlameTree stacks = FoldedTree(trace, o);
      o.collapse_recursion = true;
      const FlameTree expected = FoldedTree(trace, o);
      const FlameTree collapsed = CollapseRecursion(stacks);
      ExpectSameTree(collapsed, expected);
      for (const std::size_t kept : {2, 5, 16})
        EXPECT_EQ(Json(Bounded(collapsed, kept)), Json(Bounded(expected, kept)));
    }
  }
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
