// Writer -> reader round trips, including memtrace's own test (test/test.ml) in our form,
// the flush rules, and reader behaviour on damaged traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {
namespace {

Info TestInfo() {
  Info i;
  i.sample_rate = 0.01;
  i.word_size = 64;
  i.executable_name = "exec";
  i.host_name = "host";
  i.ocaml_runtime_params = "runtime";
  i.pid = 42;
  i.initial_domain = 0;
  i.start_time = 23897423;
  i.context = "context";
  return i;
}

struct Ev {
  std::int64_t t;
  EventKind kind;
  OcamlInt id;
  OcamlInt length = 0;
  OcamlInt nsamples = 0;
  AllocationSource source = AllocationSource::kMinor;
  std::vector<OcamlInt> bt;
  OcamlInt common = 0;
  std::uint16_t domain = 0;
  friend bool operator==(const Ev&, const Ev&) = default;
};

Ev IdEv(std::int64_t t, EventKind kind, OcamlInt id, std::uint16_t dom = 0) {
  Ev e{t, kind, id, 0, 0, AllocationSource::kMinor, {}, 0, dom};
  return e;
}

std::ostream& operator<<(std::ostream& o, const Ev& e) {
  o << "t=" << e.t << " kind=" << int(e.kind) << " id=" << e.id << " len=" << e.length
    << " ns=" << e.nsamples << " src=" << int(e.source) << " common=" << e.common
    << " dom=" << e.domain << " bt=[";
  for (auto c : e.bt) o << c << ",";
  return o << "]";
}

std::vector<Ev> ReadAll(const std::vector<std::uint8_t>& bytes, TraceReader** keep = nullptr,
                        std::unique_ptr<TraceReader>* holder = nullptr) {
  auto r = TraceReader::Open(MemorySource(bytes));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {};
  std::vector<Ev> out;
  while (true) {
    auto ev = (*r)->Next();
    EXPECT_TRUE(ev.ok()) << ev.status().ToString();
    if (!ev.ok() || *ev == nullptr) break;
    const Event& e = **ev;
    Ev x = IdEv(e.time, e.kind, e.obj_id, e.domain);
    if (e.kind == EventKind::kAlloc) {
      x.length = e.length;
      x.nsamples = e.nsamples;
      x.source = e.source;
      x.bt.assign(e.backtrace.begin(), e.backtrace.end());
      x.common = e.common_prefix;
    }
    out.push_back(x);
  }
  if (holder) {
    *holder = std::move(*r);
    if (keep) *keep = holder->get();
  }
  return out;
}

// memtrace's test/test.ml: hand-built events and locations, reasonable and ridiculous.
TEST(RoundTrip, MemtraceOwnTest) {
  std::vector<std::vector<Location>> locations = {
      {{"foo.ml", 42, 100, 120, "func"}},
      {{"apiosdjfoaijsdf.ml", 100, 58, 1023, "aiosjdf"}},
      {{"apiosdjfoaijsdf.ml", 19, 97, 1023, "aiosjdf"}, {"inline", 1, 1, 1, "fjkisda"}},
      {{std::string(60000, 'j'), 1000, 1000, 1000, std::string(60000, 'a')}},
      std::vector<Location>(10000, Location{"asdf.ml", 42, 93, 84, "Asdf.fun"}),
  };
  auto loc = [](int n) { return OcamlInt{n} + 1; };
  const Info info = TestInfo();
  const OcamlInt big = 0x81234567;
  std::vector<Ev> events = {
      {0, EventKind::kAlloc, 0, 42, 1, AllocationSource::kMinor, {loc(0), loc(1)}, 0},
      {1, EventKind::kAlloc, 1, 2, 1, AllocationSource::kMajor, {loc(0), loc(1), loc(2)}, 2},
      {100, EventKind::kAlloc, 2, big, 1, AllocationSource::kMinor, {loc(0), loc(1), loc(2)}, 3},
      IdEv(101, EventKind::kCollect, 1),
      IdEv(102, EventKind::kPromote, 2),
      {103, EventKind::kAlloc, 3, 2, 1, AllocationSource::kExternal, {loc(3)}, 0},
      {103, EventKind::kAlloc, 4, 2, 1, AllocationSource::kMinor, {loc(4)}, 0},
  };
  for (auto& e : events) e.t = info.start_time + e.t * 1000000;
  for (int version : {2, 3}) {
    VectorSink sink;
    WriterOptions opts;
    opts.format_version = version;
    auto w = TraceWriter::Create(sink, info, opts);
    ASSERT_TRUE(w.ok());
    LocationLookup lookup = [&](OcamlInt code) { return &locations[code - 1]; };
    for (const Ev& e : events) {
      Event ev;
      ev.kind = e.kind;
      ev.time = e.t;
      ev.obj_id = e.id;
      ev.length = e.length;
      ev.nsamples = e.nsamples;
      ev.source = e.source;
      ev.backtrace = e.bt;
      ASSERT_TRUE((*w)->PutEvent(ev, lookup).ok());
    }
    ASSERT_TRUE((*w)->Flush().ok());
    std::unique_ptr<TraceReader> holder;
    TraceReader* r = nullptr;
    EXPECT_EQ(ReadAll(sink.data, &r, &holder), events);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->info(), info);
    EXPECT_EQ(r->version(), version);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(*r->LookupLocation(loc(i)), locations[i]);
    for (int i = 3; i < 5; ++i)
      EXPECT_EQ(*r->LookupLocation(loc(i)), std::vector<Location>{UnknownLocation()});
  }
}

std::vector<Location> OneFrame(OcamlInt code) {
  return {{"f" + std::to_string(code % 50) + ".ml", code % 1000, 1, 2, "d" + std::to_string(code)}};
}

// Writes `n` allocations with deep, drifting backtraces and checks the read-back.
TEST(RoundTrip, DeepStacksTruncateLikeMemtrace) {
  VectorSink sink;
  auto w = TraceWriter::Create(sink, TestInfo());
  ASSERT_TRUE(w.ok());
  std::map<OcamlInt, std::vector<Location>> frames;
  LocationLookup lookup = [&](OcamlInt c) { return &(frames[c] = OneFrame(c)); };
  std::vector<OcamlInt> deep(5000);
  std::iota(deep.begin(), deep.end(), 100);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE((*w)->PutAlloc(0, TestInfo().start_time + i, 1000, 1, AllocationSource::kMajor,
                               deep, lookup)
                    .ok());
  ASSERT_TRUE((*w)->Flush().ok());
  auto evs = ReadAll(sink.data);
  ASSERT_EQ(evs.size(), 3u);
  EXPECT_EQ(evs[0].bt, std::vector<OcamlInt>(deep.begin(), deep.begin() + 409));
  // The writer's common prefix is the whole stack; the reader keeps its truncated copy.
  EXPECT_EQ(evs[1].common, 5000);
  EXPECT_EQ(evs[1].bt, evs[0].bt);
  EXPECT_EQ(evs[2].bt, evs[0].bt);
}

TEST(Writer, FlushRulesCutPackets) {
  VectorSink sink;
  WriterOptions opts;
  opts.obj_ids_per_chunk = 7;
  auto w = TraceWriter::Create(sink, TestInfo(), opts);
  ASSERT_TRUE(w.ok());
  LocationLookup lookup = [](OcamlInt c) {
    static std::map<OcamlInt, std::vector<Location>> m;
    return &(m[c] = OneFrame(c));
  };
  std::int64_t t = TestInfo().start_time;
  std::vector<Ev> expect;
  for (int i = 0; i < 40; ++i) {
    t += (i == 20) ? 31000000 : 3;  // one gap over 30 s; timestamps wrap 25 bits
    std::vector<OcamlInt> bt = {1, 2, 3 + i};
    auto id = (*w)->PutAlloc(0, t, 3, 1, AllocationSource::kMinor, bt, lookup);
    ASSERT_TRUE(id.ok());
    expect.push_back(
        {t, EventKind::kAlloc, *id, 3, 1, AllocationSource::kMinor, bt, i == 0 ? 0 : 2});
  }
  ASSERT_TRUE((*w)->Flush().ok());
  EXPECT_EQ(ReadAll(sink.data), expect);
  // Ids come in chunks of 7: the 8th alloc starts a new packet.
  auto r = TraceReader::Open(MemorySource(sink.data));
  ASSERT_TRUE(r.ok());
  while (true) {
    auto ev = (*r)->Next();
    ASSERT_TRUE(ev.ok());
    if (*ev == nullptr) break;
  }
  EXPECT_GE((*r)->packets_read(), 40u / 7);
}

TEST(Writer, RefusesBadArgumentsAndStopsAfterFork) {
  VectorSink sink;
  std::int64_t pid = 42;
  WriterOptions opts;
  opts.getpid = [&] { return pid; };
  auto w = TraceWriter::Create(sink, TestInfo(), opts);
  ASSERT_TRUE(w.ok());
  LocationLookup none = [](OcamlInt) -> const std::vector<Location>* { return nullptr; };
  const std::int64_t t = TestInfo().start_time + 10;
  std::vector<OcamlInt> empty;
  ASSERT_TRUE((*w)->PutAlloc(0, t, 1, 1, AllocationSource::kMinor, empty, none).ok());
  EXPECT_EQ((*w)->PutAlloc(0, t - 1, 1, 1, AllocationSource::kMinor, empty, none).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ((*w)->PutPromote(0, t, 5).code(), ErrorCode::kInvalidArgument);
  Event wrong;
  wrong.time = t;
  wrong.obj_id = 99;
  EXPECT_EQ((*w)->PutEvent(wrong, none).code(), ErrorCode::kInvalidArgument);
  const std::size_t before = sink.data.size();
  pid = 43;
  EXPECT_EQ((*w)->Flush().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(sink.data.size(), before);
  EXPECT_EQ((*w)->PutCollect(0, t, 0).code(), ErrorCode::kFailedPrecondition);
  // v2 has no domains.
  VectorSink s2;
  WriterOptions v2;
  v2.format_version = 2;
  auto w2 = TraceWriter::Create(s2, TestInfo(), v2);
  ASSERT_TRUE(w2.ok());
  EXPECT_EQ((*w2)->PutCollect(1, t, 0).code(), ErrorCode::kInvalidArgument);
}

TEST(Writer, MultiplexedDomainsRoundTrip) {
  VectorSink sink;
  auto w = TraceWriter::Create(sink, TestInfo());
  ASSERT_TRUE(w.ok());
  LocationLookup lookup = [](OcamlInt c) {
    static std::map<OcamlInt, std::vector<Location>> m;
    return &(m[c] = OneFrame(c));
  };
  std::vector<Ev> expect;
  std::int64_t t = TestInfo().start_time;
  for (int i = 0; i < 60; ++i) {
    const std::uint16_t dom = static_cast<std::uint16_t>(i % 3);
    std::vector<OcamlInt> bt = {7, 8, OcamlInt{dom} * 100 + i};
    auto id = (*w)->PutAlloc(dom, ++t, 20, 2, AllocationSource::kMajor, bt, lookup);
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(*id / 10000, dom);  // each domain took its own chunk
    Ev e{t, EventKind::kAlloc, *id, 20, 2, AllocationSource::kMajor, bt, i < 3 ? 0 : 2, dom};
    expect.push_back(e);
    if (i % 5 == 4) {
      ASSERT_TRUE((*w)->PutCollect(dom, ++t, *id).ok());
      expect.push_back({t, EventKind::kCollect, *id, 0, 0, AllocationSource::kMinor, {}, 0, dom});
    }
  }
  ASSERT_TRUE((*w)->Flush().ok());
  EXPECT_EQ(ReadAll(sink.data), expect);
}

// A small valid trace to damage.
std::vector<std::uint8_t> SmallTrace() {
  VectorSink sink;
  auto w = TraceWriter::Create(sink, TestInfo());
  LocationLookup lookup = [](OcamlInt c) {
    static std::map<OcamlInt, std::vector<Location>> m;
    return &(m[c] = OneFrame(c));
  };
  std::int64_t t = TestInfo().start_time;
  for (int i = 0; i < 30; ++i) {
    std::vector<OcamlInt> bt = {1, 2, 3, 4 + i % 4};
    auto id = (*w)->PutAlloc(static_cast<std::uint16_t>(i % 2), ++t, i % 20, 1,
                             AllocationSource::kMinor, bt, lookup);
    if (i % 3 == 0) (void)(*w)->PutPromote(static_cast<std::uint16_t>(i % 2), ++t, *id);
  }
  (void)(*w)->Flush();
  return sink.data;
}

// Reads to the end or the first error; never crashes, never loops.
Status Drain(const std::vector<std::uint8_t>& bytes, bool parse,
             Verdicts verdicts = Verdicts::kStrict) {
  ReaderOptions o;
  o.parse_backtraces = parse;
  o.rules = RulesOf(verdicts).memtrace;
  auto r = TraceReader::Open(MemorySource(bytes), o);
  if (!r.ok()) return r.status();
  for (int guard = 0; guard < 1000000; ++guard) {
    auto ev = (*r)->Next();
    if (!ev.ok()) return ev.status();
    if (*ev == nullptr) return Status::Ok();
  }
  return Status(ErrorCode::kInternal, "no end");
}

// Where each packet of a well-formed trace starts, from the size fields.
std::vector<std::size_t> PacketStarts(const std::vector<std::uint8_t>& t) {
  std::vector<std::size_t> starts;
  for (std::size_t off = 0; off + 8 <= t.size();) {
    starts.push_back(off);
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= std::uint32_t{t[off + 4 + i]} << (8 * i);
    off += bits / 8;
  }
  return starts;
}

TEST(Reader, TruncationAnywhereIsCleanOrTyped) {
  const auto full = SmallTrace();
  ASSERT_TRUE(Drain(full, true).ok());
  const auto starts = PacketStarts(full);
  ASSERT_GT(starts.size(), 2u);
  for (std::size_t cut = 0; cut < full.size(); ++cut) {
    std::vector<std::uint8_t> b(full.begin(), full.begin() + cut);
    const std::size_t packet = *(std::upper_bound(starts.begin(), starts.end(), cut) - 1);
    const std::size_t into = cut - packet;
    for (Verdicts v : {Verdicts::kStrict, Verdicts::kMemtraceHead}) {
      Status s = Drain(b, true, v);
      EXPECT_NE(s.code(), ErrorCode::kInternal) << cut;
      if (packet == 0) {  // inside the info packet: always an error
        EXPECT_FALSE(s.ok()) << cut;
      } else if (into == 0) {  // at a packet boundary: a shorter, valid trace
        EXPECT_TRUE(s.ok()) << cut << ": " << s.ToString();
      } else if (into < kHeaderSizeV3 || v == Verdicts::kStrict) {
        // Inside a header (every mode), or inside a body (strict): refused as truncated.
        EXPECT_EQ(s.code(), ErrorCode::kTruncated) << cut << ": " << s.ToString();
      } else {  // memtrace HEAD skips a truncated last packet
        EXPECT_TRUE(s.ok()) << cut << ": " << s.ToString();
      }
    }
  }
}

TEST(Reader, EveryByteFlipIsCleanOrTyped) {
  const auto full = SmallTrace();
  for (std::size_t i = 0; i < full.size(); ++i) {
    for (std::uint8_t x : {0x01, 0x80, 0xff}) {
      auto b = full;
      b[i] ^= x;
      for (bool parse : {true, false}) {
        Status s = Drain(b, parse);
        EXPECT_NE(s.code(), ErrorCode::kInternal) << i;
        if (!s.ok()) {
          EXPECT_TRUE(s.byte_offset().has_value()) << s.ToString();
        }
      }
    }
  }
}

// A source that only offers ReadAt, so that the reader copies each packet (as for files)
// instead of decoding a MemorySource in place.
class CopyingSource : public ByteSource {
 public:
  explicit CopyingSource(std::span<const std::uint8_t> b) : inner_(MemorySource(b)) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    return inner_->ReadAt(offset, out);
  }
  std::uint64_t size() const override { return inner_->size(); }

 private:
  std::unique_ptr<ByteSource> inner_;
};

// Everything a reader reports, with --keep-going recovery, as text.
std::string Transcript(std::unique_ptr<ByteSource> source, bool parse) {
  ReaderOptions o;
  o.parse_backtraces = parse;
  auto r = TraceReader::Open(std::move(source), o);
  if (!r.ok()) return "open: " + r.status().ToString();
  std::string t;
  for (int guard = 0; guard < 100000; ++guard) {
    const Event* e = (*r)->NextEvent();
    if (e == nullptr) {
      if ((*r)->status().ok()) break;
      t += "error " + (*r)->status().ToString() + "\n";
      if (!(*r)->SkipToNextPacket()) break;
      continue;
    }
    t += std::to_string(static_cast<int>(e->kind)) + " " + std::to_string(e->time) + " " +
         std::to_string(e->obj_id) + " " + std::to_string(e->domain) + " @" +
         std::to_string((*r)->event_offset());
    if (e->kind == EventKind::kAlloc) {
      t += " " + std::to_string(e->length) + " " + std::to_string(e->nsamples) + " " +
           std::to_string(e->common_prefix) + " bt";
      for (OcamlInt c : e->backtrace) t += " " + std::to_string(c);
    }
    t += "\n";
  }
  for (const ReaderWarning& w : (*r)->warnings())
    t += "warning " + std::to_string(w.offset) + " " + w.message + "\n";
  return t;
}

TEST(Reader, InPlaceAndCopiedPacketsDecodeAlike) {
  const auto full = SmallTrace();
  for (std::size_t i = 0; i < full.size(); ++i) {
    for (std::uint8_t x : {0x01, 0xff}) {
      auto b = full;
      b[i] ^= x;
      for (bool parse : {true, false}) {
        ASSERT_EQ(Transcript(MemorySource(b), parse),
                  Transcript(std::make_unique<CopyingSource>(b), parse))
            << "byte " << i << " ^ " << int{x};
      }
    }
  }
}

TEST(Reader, SkipsPacketsOfAnotherPid) {
  auto b = SmallTrace();
  // Second packet's pid field (packet 0 is the info packet).
  const std::size_t p1 = (b[4] | (b[5] << 8) | (b[6] << 16)) / 8;
  b[p1 + 30] ^= 1;
  auto r = TraceReader::Open(MemorySource(b));
  ASSERT_TRUE(r.ok());
  Status s;
  while (true) {
    auto ev = (*r)->Next();
    if (!ev.ok()) {
      s = ev.status();
      break;
    }
    if (*ev == nullptr) break;
  }
  ASSERT_FALSE((*r)->warnings().empty());
  EXPECT_NE((*r)->warnings()[0].message.find("wrong pid"), std::string::npos);
}

// `memtrace copy` refuses a copy that would hide skipped packets from these warnings
// alone (it no longer reads the input a second time to find them).
TEST(Copy, ReportsThePacketsItsReaderSkipped) {
  auto b = SmallTrace();
  CopyStats clean;
  VectorSink out;
  ASSERT_TRUE(CopyTrace(*MemorySource(b), out, 3, &clean).ok());
  EXPECT_TRUE(clean.warnings.empty());
  EXPECT_GT(clean.events, 0u);
  // The last packet's pid (nothing after it refers to its objects).
  const std::size_t last = PacketStarts(b).back();
  b[last + 30] ^= 1;
  CopyStats skipped;
  VectorSink out2;
  const Status s = CopyTrace(*MemorySource(b), out2, 3, &skipped);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(skipped.warnings.size(), 1u);
  EXPECT_EQ(skipped.warnings[0].offset, last);
  EXPECT_NE(skipped.warnings[0].message.find("wrong pid"), std::string::npos);
  EXPECT_LT(skipped.events, clean.events);
}

}  // namespace
}  // namespace mpo::memtrace
