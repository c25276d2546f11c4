// CopyTrace's fast paths change no byte: every mode writes what the reference
// (CopyMode::kReference: every event encoded again, backtraces compared whole) writes,
// with the same status. kReencode trusts the reader's common prefixes; kFast also
// writes a trace that is already what the writer writes as it is (CanonicalCheck).
// Checked on every real trace of ../shared, on generated traces whose prefixes are
// unusual (truncated deep stacks, several domains), on generated traces of every shape
// the writer has (which kFast must recognise), and on those traces changed byte by byte
// (which it must not mistake for the writer's).
#include "core/memtrace/trace_copy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/copy_test_writer.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"
#include "testing/shared_testdata.h"

namespace mpo::memtrace {
namespace {

using copy_test::kFrames;
using copy_test::kStartTime;
using copy_test::TestWriter;

// Whether every event of `in` is in one domain (CanonicalCheck's scope).
bool OneStream(const std::vector<std::uint8_t>& in) {
  auto r = TraceReader::Open(MemorySource(in));
  if (!r.ok()) return false;
  std::set<std::uint16_t> domains = {(*r)->info().initial_domain};
  while (const Event* e = (*r)->NextEvent()) domains.insert(e->domain);
  return domains.size() == 1;
}

// Copies `in` in every mode; returns whether kFast copied it as it is.
bool ExpectSameCopy(const std::vector<std::uint8_t>& in, int version, const std::string& what) {
  VectorSink fast, reencode, reference;
  CopyStats stats;
  const Status f = CopyTrace(*MemorySource(in), fast, version, &stats);
  const Status e =
      CopyTrace(*MemorySource(in), reencode, version, nullptr, {}, {}, CopyMode::kReencode);
  const Status r =
      CopyTrace(*MemorySource(in), reference, version, nullptr, {}, {}, CopyMode::kReference);
  EXPECT_EQ(f.ToString(), r.ToString()) << what << " v" << version;
  EXPECT_EQ(e.ToString(), r.ToString()) << what << " v" << version;
  if (!r.ok()) return false;
  EXPECT_TRUE(fast.data == reference.data) << what << " v" << version << ": " << fast.data.size()
                                           << " vs " << reference.data.size() << " bytes";
  EXPECT_TRUE(reencode.data == reference.data) << what << " v" << version;
  // Copied as it is exactly when the copy is the input, for one stream.
  if (stats.unchanged) {
    EXPECT_TRUE(reference.data == in) << what << " v" << version;
  }
  if (reference.data == in && OneStream(in)) {
    EXPECT_TRUE(stats.unchanged) << what << " v" << version
                                 << ": the writer's own trace not recognised";
  }
  return stats.unchanged;
}

TEST(CopyModes, RealTracesAreByteIdentical) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  int n = 0;
  int unchanged = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/memtrace")) {
    if (e.path().extension() != ".ctf") continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(f), {}};
    for (int version : {2, 3})
      unchanged += ExpectSameCopy(b, version, e.path().filename().string());
    ++n;
  }
  EXPECT_GE(n, 10);
  // Every single-domain trace of memtrace 0.2.3 (v2) and HEAD (v3) at its own version.
  EXPECT_GE(unchanged, 9);
}

// Deep stacks (truncated at 4096 bytes: the reader's prefixes then pass what it holds),
// stacks that shrink and grow, and three domains interleaved.
TEST(CopyModes, GeneratedTracesAreByteIdentical) {
  for (int version : {2, 3}) {
    VectorSink sink;
    const auto w = TestWriter(sink, version);
    ASSERT_NE(w, nullptr);
    std::int64_t t = kStartTime;
    for (int i = 0; i < 3000; ++i) {
      const int domains = version == 3 ? 3 : 1;
      const auto dom = static_cast<std::uint16_t>(i % domains);
      std::vector<OcamlInt> bt((i * 37) % 700 + (i % 50 == 0 ? 5000 : 0));
      std::iota(bt.begin(), bt.end(), OcamlInt{100 + (i / 200) % 3});
      if (!bt.empty()) bt.back() = i % 17;
      auto id = w->PutAlloc(dom, ++t, 1 + i % 20, 1, AllocationSource::kMinor, bt, kFrames);
      ASSERT_TRUE(id.ok()) << id.status().ToString();
      if (i % 4 == 0) {
        ASSERT_TRUE(w->PutCollect(dom, ++t, *id).ok());
      }
    }
    ASSERT_TRUE(w->Flush().ok());
    for (int out : {2, 3}) {
      if (out < version) continue;
      ExpectSameCopy(sink.data, out, "generated");
    }
  }
}

// A trace of one stream written by TraceWriter, in one of the shapes below.
struct Shape {
  std::string name;
  int version = 2;
  int events = 0;
  std::int64_t first_gap = 1;       // us after the trace's start
  std::int64_t long_gap_every = 0;  // every N events, a gap of 40 s (packets span 30 s)
  OcamlInt codes = 50;              // distinct location codes (misses: new locations)
  std::size_t depth = 6;            // backtrace depth
  bool odd_allocs = false;          // long forms: major, external, several samples, big lengths
  bool collect_ahead = false;       // v3: collects of ids not allocated yet (negative deltas)
};

std::vector<std::uint8_t> Write(const Shape& sh) {
  VectorSink sink;
  const auto w = TestWriter(sink, sh.version);
  if (w == nullptr) return {};
  std::int64_t t = kStartTime + sh.first_gap;
  std::vector<OcamlInt> live;
  std::uint64_t x = 1;
  auto rnd = [&x] { return (x = x * 6364136223846793005u + 1442695040888963407u) >> 33; };
  for (int i = 0; i < sh.events; ++i) {
    t += sh.long_gap_every != 0 && i % sh.long_gap_every == sh.long_gap_every - 1 ? 40'000'000
                                                                                  : 1 + rnd() % 50;
    const std::uint64_t r = rnd();
    if (!live.empty() && r % 5 == 0) {
      const std::size_t k = rnd() % live.size();
      EXPECT_TRUE(w->PutCollect(0, t, live[k]).ok());
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      continue;
    }
    if (!live.empty() && r % 7 == 0) {
      EXPECT_TRUE(w->PutPromote(0, t, live[rnd() % live.size()]).ok());
      continue;
    }
    if (sh.collect_ahead && r % 11 == 0) {
      auto next = w->NextAllocId(0);
      EXPECT_TRUE(next.ok());
      EXPECT_TRUE(w->PutCollect(0, t, *next + 70000).ok());
      continue;
    }
    std::vector<OcamlInt> bt(1 + rnd() % sh.depth);
    for (OcamlInt& c : bt) c = 100 + static_cast<OcamlInt>(rnd()) % sh.codes;
    OcamlInt length = 1 + static_cast<OcamlInt>(rnd() % 16);
    OcamlInt nsamples = 1;
    AllocationSource src = AllocationSource::kMinor;
    if (sh.odd_allocs) {
      const OcamlInt lengths[] = {0, 17, 300, 70000, OcamlInt{1} << 40, length};
      length = lengths[rnd() % 6];
      nsamples = 1 + static_cast<OcamlInt>(rnd() % 3);
      src = static_cast<AllocationSource>(rnd() % 3);
    }
    auto id = w->PutAlloc(0, t, length, nsamples, src, bt, kFrames);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    if (id.ok()) live.push_back(*id);
  }
  EXPECT_TRUE(w->Flush().ok());
  return sink.data;
}

std::vector<Shape> Shapes() {
  std::vector<Shape> v;
  for (int version : {2, 3}) {
    const std::string tag = " v" + std::to_string(version);
    v.push_back({"no events" + tag, version});
    v.push_back({"one event" + tag, version, 1});
    v.push_back({"first event after 31 s" + tag, version, 200, 31'000'000});
    v.push_back({"gaps of 40 s" + tag, version, 3000, 1, 700});
    v.push_back({"many new locations a packet" + tag, version, 6000, 1, 0, 5000, 3});
    v.push_back({"deep stacks" + tag, version, 3000, 1, 0, 400, 300});
    v.push_back({"long forms and big vints" + tag, version, 3000, 1, 0, 50, 6, true});
  }
  v.push_back({"chunks of ids renewed", 3, 25000, 1, 0, 200, 4});
  v.push_back({"collects ahead of allocs", 3, 3000, 1, 0, 50, 6, false, true});
  return v;
}

TEST(CopyModes, TheWritersOwnTracesAreCopiedAsTheyAre) {
  for (const Shape& sh : Shapes()) {
    const std::vector<std::uint8_t> trace = Write(sh);
    EXPECT_TRUE(ExpectSameCopy(trace, sh.version, sh.name)) << sh.name;
    // At the other version the copy encodes (nothing to recognise).
    EXPECT_FALSE(ExpectSameCopy(trace, sh.version == 2 ? 3 : 2, sh.name)) << sh.name;
  }
}

// Every byte of small canonical traces changed in turn (one bit, the top bit or all
// bits, in rotation): the fast copy gives the reference's status and bytes, and copies
// as it is only what the writer wrote.
TEST(CopyModes, ChangedBytesAreNeverMistakenForTheWriters) {
  int unchanged = 0, refused = 0, encoded = 0;
  for (int version : {2, 3}) {
    Shape sh{"mixed", version, 70, 1, 30, 60, 8, true, version == 3};
    const std::vector<std::uint8_t> trace = Write(sh);
    ASSERT_GT(trace.size(), 1000u);
    ASSERT_TRUE(ExpectSameCopy(trace, version, "mixed"));
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const std::uint8_t masks[] = {0x01, 0x80, 0xff};
      for (const std::uint8_t mask : {masks[i % 3]}) {
        std::vector<std::uint8_t> b = trace;
        b[i] ^= mask;
        VectorSink fast, reference;
        CopyStats stats;
        const Status f = CopyTrace(*MemorySource(b), fast, version, &stats);
        const Status r =
            CopyTrace(*MemorySource(b), reference, version, nullptr, {}, {}, CopyMode::kReference);
        ASSERT_EQ(f.ToString(), r.ToString()) << "v" << version << " byte " << i << " ^ " << +mask;
        ASSERT_TRUE(fast.data == reference.data)
            << "v" << version << " byte " << i << " ^ " << +mask;
        if (stats.unchanged) {
          ASSERT_TRUE(reference.data == b) << "byte " << i;
        }
        unchanged += stats.unchanged;
        refused += !r.ok();
        encoded += r.ok() && !stats.unchanged;
      }
    }
  }
  // Changes the reader refuses, changes it reads into other events, and changes that
  // leave a trace the writer could have written (a time, a length): all three happen.
  EXPECT_GT(refused, 300);
  EXPECT_GT(encoded, 300);
  EXPECT_GT(unchanged, 10);
}

// The packets of a trace: offset and header.
std::vector<std::pair<std::size_t, PacketHeader>> Packets(const std::vector<std::uint8_t>& b) {
  std::vector<std::pair<std::size_t, PacketHeader>> v;
  for (std::size_t off = 0; off < b.size();) {
    ByteReader in(std::span<const std::uint8_t>(b).subspan(off), off);
    PacketHeader h;
    if (!ReadPacketHeader(in, &h).ok()) break;
    v.emplace_back(off, h);
    off += h.packet_size_bits / 8;
  }
  return v;
}

std::vector<std::uint8_t> Header(const PacketHeader& h, std::size_t size) {
  ByteWriter w(kMaxPacketSize);
  const PacketHeaderSlots s = WritePacketHeader(w, h.version, h.pid, h.domain, h.verifier);
  FinishPacketHeader(w, s, h.time_begin, h.time_end, h.alloc_id_begin, h.alloc_id_end);
  w.Update32(s.size, static_cast<std::uint32_t>(size * 8));
  return {w.bytes().begin(), w.bytes().end()};
}

// Forty allocs of one backtrace, one a microsecond: with `flush_after_20`, an explicit
// flush after the 21st; with `gap`, the last twenty that much later.
std::vector<std::uint8_t> FortyAllocs(int version, bool flush_after_20, std::int64_t gap) {
  VectorSink sink;
  const auto w = TestWriter(sink, version);
  if (w == nullptr) return {};
  const std::vector<OcamlInt> bt = {100, 101, 102};
  for (int i = 0; i < 40; ++i) {
    const std::int64_t t = kStartTime + i + (i >= 20 ? gap : 0);
    EXPECT_TRUE(w->PutAlloc(0, t, 3, 1, AllocationSource::kMinor, bt, kFrames).ok());
    if (i == 20 && flush_after_20) {
      EXPECT_TRUE(w->Flush().ok());
    }
  }
  EXPECT_TRUE(w->Flush().ok());
  return sink.data;
}

// Valid traces that another writer could have written, cut into packets where this one
// would not: the copy encodes them, and the fast copy must not pass them off as its own.
TEST(CopyModes, PacketsCutOtherwiseAreEncodedAgain) {
  for (int version : {2, 3}) {
    const std::string tag = " v" + std::to_string(version);
    // A flush the copy would not make.
    EXPECT_FALSE(ExpectSameCopy(FortyAllocs(version, true, 0), version, "an early flush" + tag));
    // Two event packets the writer cut 31 s apart, merged into one (still within the 2^25
    // us an event time can say).
    {
      const std::vector<std::uint8_t> trace = FortyAllocs(version, false, 31'000'000);
      ASSERT_TRUE(ExpectSameCopy(trace, version, "cut at 31 s" + tag));
      const auto packets = Packets(trace);
      ASSERT_GE(packets.size(), 3u);  // info, locations, events, events
      const auto& [off1, h1] = packets[packets.size() - 2];
      const auto& [off2, h2] = packets.back();
      const std::size_t hsize = h1.header_size();
      PacketHeader merged = h1;
      merged.time_end = h2.time_end;
      merged.alloc_id_end = h2.alloc_id_end;
      const std::size_t size = h1.packet_size_bits / 8 + h2.packet_size_bits / 8 - hsize;
      std::vector<std::uint8_t> b(trace.begin(), trace.begin() + static_cast<std::ptrdiff_t>(off1));
      const std::vector<std::uint8_t> head = Header(merged, size);
      b.insert(b.end(), head.begin(), head.end());
      b.insert(b.end(), trace.begin() + static_cast<std::ptrdiff_t>(off1 + hsize),
               trace.begin() + static_cast<std::ptrdiff_t>(off2));
      b.insert(b.end(), trace.begin() + static_cast<std::ptrdiff_t>(off2 + hsize), trace.end());
      ASSERT_TRUE(OneStream(b));
      EXPECT_FALSE(ExpectSameCopy(b, version, "two packets merged" + tag));
    }
    // An empty packet after the last one.
    {
      const std::vector<std::uint8_t> trace = Write({"tail", version, 50});
      const auto packets = Packets(trace);
      PacketHeader last = packets.back().second;
      last.time_begin = last.time_end;
      last.alloc_id_begin = last.alloc_id_end;
      last.verifier = CacheVerifier{};
      std::vector<std::uint8_t> b = trace;
      const std::vector<std::uint8_t> head = Header(last, last.header_size());
      b.insert(b.end(), head.begin(), head.end());
      EXPECT_FALSE(ExpectSameCopy(b, version, "an empty packet appended" + tag));
    }
  }
}

}  // namespace
}  // namespace mpo::memtrace
