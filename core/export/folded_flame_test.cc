// The report's collapsed flame tree (core/memtrace/report/collapsed_flame.h) against
// folded's own collapse (`folded --collapse-recursion`): the report sits below the
// exporters, so the test that holds one to the other sits here.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/export/folded.h"
#include "core/memtrace/report/collapsed_flame.h"
#include "core/memtrace/report/flame_tree.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::exporter {
namespace {

using memtrace::AllocationSource;
using memtrace::Info;
using memtrace::Location;
using memtrace::MemorySource;
using memtrace::OcamlInt;
using memtrace::TraceWriter;
using memtrace::VectorSink;
using memtrace::report::Bounded;
using memtrace::report::CollapseRecursion;
using memtrace::report::FlameNode;
using memtrace::report::FlameTree;
using memtrace::report::FlameTreeBuilder;
using memtrace::report::WriteFlame;

std::string Json(const FlameTree& t) {
  std::string out;
  JsonWriter w(out);
  WriteFlame(w, t);
  return out;
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

FlameTree FoldedTree(const std::vector<std::uint8_t>& trace, FoldedOptions o) {
  FlameTreeBuilder b(1 << 20);
  const Status s = WriteFoldedStacks(*MemorySource(trace), o, b);
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
      FoldedOptions o;
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

}  // namespace
}  // namespace mpo::exporter
