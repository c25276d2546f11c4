// `memtrace dump` text is the same bytes, with the same status, for 1 and 2 threads: on
// the real traces of ../shared/testdata and on generated ones (also stopped part-way by
// the output budget, and with backtraces skipped).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/text_dump.h"
#include "testing/shared_testdata.h"

namespace mpo::memtrace {
namespace {

struct Dumped {
  std::string text;
  std::string status;
};

Dumped Dump(ByteSource& src, unsigned threads, const Limits& limits = {}, bool backtraces = true) {
  StringTextSink out;
  const Status s = WriteDumpTrace(src, out, backtraces, {}, limits, Verdicts::kStrict, threads);
  return {std::move(out.text), s.ToString()};
}

void ExpectSameForThreads(ByteSource& src, const Limits& limits = {}, bool backtraces = true) {
  const Dumped one = Dump(src, 1, limits, backtraces);
  const Dumped two = Dump(src, 2, limits, backtraces);
  EXPECT_EQ(one.status, two.status);
  EXPECT_EQ(one.text.size(), two.text.size());
  EXPECT_TRUE(one.text == two.text);
}

// Many events over deep, shared backtraces, in `version` (2: one domain; 3: four).
std::vector<std::uint8_t> Generated(int version, std::uint64_t seed) {
  VectorSink sink;
  Info info;
  info.sample_rate = 0.01;
  info.executable_name = "gen";
  WriterOptions wo;
  wo.format_version = version;
  auto w = TraceWriter::Create(sink, info, wo);
  EXPECT_TRUE(w.ok());
  std::vector<std::vector<Location>> frames(300);
  for (std::size_t i = 0; i < frames.size(); ++i)
    for (std::size_t k = 0; k <= i % 3; ++k)
      frames[i].push_back({"f" + std::to_string(i) + ".ml", static_cast<int>(i), 1, 9,
                           "M" + std::to_string(i) + ".fn" + std::to_string(k)});
  const LocationLookup lookup = [&](OcamlInt code) -> const std::vector<Location>* {
    const auto i = static_cast<std::size_t>(code - 0x1000) / 8;
    return i < frames.size() ? &frames[i] : nullptr;
  };
  std::mt19937_64 rng(seed);
  std::vector<OcamlInt> live;
  std::vector<OcamlInt> bt;
  std::int64_t t = 0;
  for (int i = 0; i < 20000; ++i) {
    t += static_cast<std::int64_t>(rng() % 5);
    const unsigned dom = version >= 3 ? static_cast<unsigned>(rng() % 4) : 0;
    if (live.empty() || rng() % 3 != 0) {
      bt.resize(rng() % 60);
      for (auto& c : bt) c = 0x1000 + static_cast<OcamlInt>(rng() % frames.size()) * 8;
      auto id = (*w)->PutAlloc(dom, t, 1 + rng() % 50, 1 + rng() % 3, AllocationSource::kMinor, bt,
                               lookup);
      EXPECT_TRUE(id.ok());
      if (id.ok()) live.push_back(*id);
    } else {
      const std::size_t k = rng() % live.size();
      EXPECT_TRUE((*w)->PutCollect(dom, t, live[k]).ok());
      live[k] = live.back();
      live.pop_back();
    }
  }
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(DumpThreads, GeneratedTraces) {
  for (int version : {2, 3}) {
    const auto bytes = Generated(version, 7 + version);
    auto src = MemorySource(bytes);
    ExpectSameForThreads(*src);
    ExpectSameForThreads(*src, {}, false);
    Limits tight;
    tight.max_output_bytes = 300'000;  // stops mid-line, well past the first batch
    ExpectSameForThreads(*src, tight);
    EXPECT_NE(Dump(*src, 2, tight).status, Status::Ok().ToString());
  }
}

// A trace cut short or damaged stops the dump part-way, with the same error and the same
// text before it (a line cut by an error included) for both thread counts.
TEST(DumpThreads, DamagedTraces) {
  const auto bytes = Generated(3, 21);
  std::mt19937_64 rng(5);
  int errors = 0;
  for (int i = 0; i < 12; ++i) {
    std::vector<std::uint8_t> damaged = bytes;
    if (i % 2 == 0) {
      damaged.resize(damaged.size() / 4 + rng() % (damaged.size() / 2));
    } else {
      for (int k = 0; k < 8; ++k)
        damaged[damaged.size() / 3 + rng() % (damaged.size() / 2)] ^= 0x5a;
    }
    auto src = MemorySource(damaged);
    SCOPED_TRACE(i);
    ExpectSameForThreads(*src);
    if (Dump(*src, 2).status != Status::Ok().ToString()) ++errors;
  }
  EXPECT_GT(errors, 6);
}

TEST(DumpThreads, RealTraces) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/memtrace")) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".ctf") continue;
    auto src = OpenFileSource(path);
    ASSERT_TRUE(src.ok()) << path;
    SCOPED_TRACE(path);
    // The large ones (examples-ocamlopt: 9.85 M frames) up to 16 MB of location text, so
    // that the test stays quick under TSan; both runs must stop at the same byte.
    Limits limits;
    if (entry.file_size() > (1u << 20)) limits.max_output_bytes = 16u << 20;
    ExpectSameForThreads(**src, limits);
    ++traces;
  }
  EXPECT_GT(traces, 5);
}

}  // namespace
}  // namespace mpo::memtrace
