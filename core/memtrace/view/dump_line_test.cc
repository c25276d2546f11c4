// DumpLineWriter's headers are printf's, for the formats memtrace's dump_trace uses, on
// edge values (negative, INT64_MIN/MAX, widths just reached or passed) and random ones.
#include "core/memtrace/view/dump_line.h"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace mpo::memtrace {
namespace {

std::string Printf(const DumpRecord& r, bool head) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "%010" PRId64 " %010" PRId64, r.dt, r.obj_id);
  std::string s(buf, static_cast<std::size_t>(n));
  const char* src = r.kind == DumpKind::kAlloc        ? "alloc"
                    : r.kind == DumpKind::kAllocMajor ? "alloc_major"
                                                      : "alloc_ext";
  switch (r.kind) {
    case DumpKind::kPromote: return s + " promote\n";
    case DumpKind::kCollect: return s + " collect\n";
    default: break;
  }
  if (head) {
    n = std::snprintf(buf, sizeof buf, " %s %" PRId64 " len=%" PRId64 " dom=%u % 4" PRId64 ":", src,
                      r.nsamples, r.length, static_cast<unsigned>(r.domain), r.common_prefix);
  } else {
    n = std::snprintf(buf, sizeof buf, " %s %" PRId64 " len=%" PRId64 " % 4" PRId64 ":", src,
                      r.nsamples, r.length, r.common_prefix);
  }
  return s + std::string(buf, static_cast<std::size_t>(n));
}

std::string Written(const DumpRecord& r, bool head) {
  StringTextSink out;
  DumpLineWriter w(out, head);
  w.Header(r);
  w.Flush();
  return out.text;
}

TEST(DumpLine, HeadersArePrintfs) {
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  const std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::int64_t> edges = {
      0,    1,     -1, 9,  10,     99,        100,        999,       1000,       -99,        -100,
      -999, -1000, lo, hi, lo + 1, 999999999, 1000000000, -99999999, -999999999, 12345678901};
  std::mt19937_64 rng(20261123);
  std::vector<DumpRecord> cases;
  for (std::int64_t v : edges) {
    for (DumpKind k : {DumpKind::kAlloc, DumpKind::kAllocMajor, DumpKind::kAllocExt,
                       DumpKind::kPromote, DumpKind::kCollect}) {
      DumpRecord r;
      r.kind = k;
      r.dt = v;
      r.obj_id = edges[rng() % edges.size()];
      r.nsamples = v;
      r.length = v == lo ? hi : -v;  // -INT64_MIN does not exist
      r.common_prefix = v;
      r.domain = static_cast<std::uint16_t>(rng());
      cases.push_back(r);
    }
  }
  for (int i = 0; i < 20000; ++i) {
    DumpRecord r;
    r.kind = static_cast<DumpKind>(rng() % 5);
    // Mostly small magnitudes, where padding matters; sometimes the full range.
    auto pick = [&] {
      const auto v = static_cast<std::int64_t>(rng());
      return rng() % 4 == 0 ? v : v % 100000;
    };
    r.dt = pick();
    r.obj_id = pick();
    r.nsamples = pick();
    r.length = pick();
    r.common_prefix = pick();
    r.domain = static_cast<std::uint16_t>(rng());
    cases.push_back(r);
  }
  for (const DumpRecord& r : cases) {
    for (bool head : {false, true}) {
      ASSERT_EQ(Written(r, head), Printf(r, head)) << r.dt << " " << r.common_prefix;
    }
  }
}

TEST(DumpLine, MoreRecordsAndEntries) {
  StringTextSink out;
  DumpLineWriter w(out, false);
  DumpRecord more;
  more.kind = DumpKind::kMore;
  w.Header(more);
  const std::string big(DumpLineWriter::kFlushBytes + 5, 'x');
  w.Entry(" a");
  w.Entry(big);
  EXPECT_EQ(out.text.size(), big.size() + 2);  // passed the threshold: written
  w.EndLine();
  w.Flush();
  EXPECT_EQ(out.text, " a" + big + "\n");
}

}  // namespace
}  // namespace mpo::memtrace
