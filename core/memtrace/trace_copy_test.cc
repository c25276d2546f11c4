// CopyTrace trusts its reader's common prefixes (WriterOptions::trust_common_prefix) and
// compares only the backtrace entries after them. These tests check that this changes no
// byte: the copy equals writing the same decoded events with the prefix computed in full,
// on every real trace of ../shared and on generated traces whose prefixes are unusual
// (truncated deep stacks, several domains).
#include "core/memtrace/trace_copy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_writer.h"
#include "testing/shared_testdata.h"

namespace mpo::memtrace {
namespace {

void ExpectSameCopy(const std::vector<std::uint8_t>& in, int version, const std::string& what) {
  VectorSink trusted, reference;
  const Status s = CopyTrace(*MemorySource(in), trusted, version);
  const Status r =
      CopyTrace(*MemorySource(in), reference, version, nullptr, {}, {}, CopyMode::kReference);
  ASSERT_EQ(s.ToString(), r.ToString()) << what;
  if (!s.ok()) return;
  EXPECT_TRUE(trusted.data == reference.data)
      << what << " v" << version << ": " << trusted.data.size() << " vs " << reference.data.size()
      << " bytes";
}

Info TestInfo() {
  Info i;
  i.sample_rate = 0.01;
  i.executable_name = "exec";
  i.pid = 42;
  i.start_time = 1000;
  return i;
}

const std::vector<Location>* Frames(OcamlInt code) {
  static std::map<OcamlInt, std::vector<Location>> m;
  auto& v = m[code];
  if (v.empty()) v = {{"f.ml", code % 1000, 1, 2, "d" + std::to_string(code)}};
  return &v;
}

TEST(CopyTrustingPrefixes, RealTracesAreByteIdentical) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/memtrace")) {
    if (e.path().extension() != ".ctf") continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(f), {}};
    for (int version : {2, 3}) ExpectSameCopy(b, version, e.path().filename().string());
    ++n;
  }
  EXPECT_GE(n, 10);
}

// Deep stacks (truncated at 4096 bytes: the reader's prefixes then pass what it holds),
// stacks that shrink and grow, and three domains interleaved.
TEST(CopyTrustingPrefixes, GeneratedTracesAreByteIdentical) {
  for (int version : {2, 3}) {
    VectorSink sink;
    WriterOptions opts;
    opts.format_version = version;
    auto w = TraceWriter::Create(sink, TestInfo(), opts);
    ASSERT_TRUE(w.ok());
    const LocationLookup lookup = [](OcamlInt c) { return Frames(c); };
    std::int64_t t = TestInfo().start_time;
    for (int i = 0; i < 3000; ++i) {
      const int domains = version == 3 ? 3 : 1;
      const auto dom = static_cast<std::uint16_t>(i % domains);
      std::vector<OcamlInt> bt((i * 37) % 700 + (i % 50 == 0 ? 5000 : 0));
      std::iota(bt.begin(), bt.end(), OcamlInt{100 + (i / 200) % 3});
      if (!bt.empty()) bt.back() = i % 17;
      auto id = (*w)->PutAlloc(dom, ++t, 1 + i % 20, 1, AllocationSource::kMinor, bt, lookup);
      ASSERT_TRUE(id.ok()) << id.status().ToString();
      if (i % 4 == 0) {
        ASSERT_TRUE((*w)->PutCollect(dom, ++t, *id).ok());
      }
    }
    ASSERT_TRUE((*w)->Flush().ok());
    for (int out : {2, 3}) {
      if (out < version) continue;
      ExpectSameCopy(sink.data, out, "generated");
    }
  }
}

}  // namespace
}  // namespace mpo::memtrace
