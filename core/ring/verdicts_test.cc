// The cursor's verdict modes on each class of malformed file (conformance/VERDICTS.md):
// kStrict rejects it, Verdicts::kOcaml53 gives OCaml 5.3's consumer's verdict (checked
// against the real consumer: conformance/VERDICTS.md ("Ring files")), and neither ever reads out of
// bounds or fails to end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/producer.h"

namespace mpo::ring {
namespace {

constexpr FileGeometry kGeometry{2, 64};

// 2 domains of 64 words: ring_start, then `counters` counter events per domain.
std::vector<std::byte> Image(unsigned counters) {
  const char* t = std::getenv("TEST_TMPDIR");
  ProducerOptions o;
  o.dir = t ? t : "/tmp";
  o.max_domains = 2;
  o.ring_log2_words = 6;
  o.pid = 515151;
  RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  for (unsigned i = 0; i < counters; ++i) {
    EXPECT_TRUE(ev.Counter(0, 4, i).ok());
    EXPECT_TRUE(ev.Counter(1, 5, 100 + i).ok());
  }
  std::vector<std::byte> bytes(kGeometry.FileSize());
  FILE* f = std::fopen(ev.path().c_str(), "rb");
  EXPECT_NE(f, nullptr);
  if (f != nullptr) {
    EXPECT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
  }
  return bytes;
}

void Put(std::vector<std::byte>& b, std::uint64_t at, std::uint64_t v) {
  std::memcpy(b.data() + at, &v, 8);
}
std::uint64_t Get(const std::vector<std::byte>& b, std::uint64_t at) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

// Every delivered event as "ring:kind:value", and how reading ended.
struct Recorder : EventCallbacks {
  std::vector<std::string> seen;
  void Add(std::uint32_t ring, const char* kind, std::int64_t v) {
    seen.push_back(std::to_string(ring) + ":" + kind + ":" + std::to_string(v));
  }
  bool RuntimeCounter(std::uint32_t r, std::uint64_t, unsigned, std::uint64_t v) override {
    Add(r, "counter", static_cast<std::int64_t>(v));
    return true;
  }
  bool LifecycleEvent(std::uint32_t r, std::uint64_t, unsigned k, std::int64_t) override {
    Add(r, "lifecycle", k);
    return true;
  }
  bool LostEvents(std::uint32_t r, std::uint64_t w) override {
    Add(r, "lost", static_cast<std::int64_t>(w));
    return true;
  }
  bool UserInt(std::uint32_t r, std::uint64_t, unsigned, std::string_view,
               std::uint64_t v) override {
    Add(r, "user_int", static_cast<std::int64_t>(v));
    return true;
  }
  bool UserUnit(std::uint32_t r, std::uint64_t ts, unsigned, std::string_view) override {
    Add(r, "user_unit", static_cast<std::int64_t>(ts));
    return true;
  }
};

struct Outcome {
  Status status;  // of opening, or of the poll that failed
  std::vector<std::string> seen;
};

// Opens `b` by `rules` and polls until a poll delivers nothing or fails.
Outcome ReadWith(const std::vector<std::byte>& b, const RingRules& rules) {
  auto c = Cursor::FromBytes(b, CursorOptions{16, rules});
  if (!c.ok()) return {c.status(), {}};
  Recorder r;
  for (int polls = 0; polls < 8; ++polls) {
    const std::size_t before = r.seen.size();
    auto n = c->ReadPoll(r);
    if (!n.ok()) return {n.status(), r.seen};
    if (r.seen.size() == before) break;
  }
  return {Status::Ok(), r.seen};
}

// Reads `b` as verdict mode `v` does.
Outcome Read(const std::vector<std::byte>& b, Verdicts v) { return ReadWith(b, RulesOf(v).ring); }

const std::vector<std::string> kGood = {"0:lifecycle:0", "0:counter:0",   "0:counter:1",
                                        "0:counter:2",   "1:counter:100", "1:counter:101",
                                        "1:counter:102"};

TEST(RingVerdicts, ValidFileReadsAlikeInEveryMode) {
  const auto good = Image(3);
  // ring_start is written by the producer to ring 0 only.
  EXPECT_EQ(Read(good, Verdicts::kStrict).seen, kGood);
  EXPECT_TRUE(Read(good, Verdicts::kOcaml53).status.ok());
  EXPECT_EQ(Read(good, Verdicts::kOcaml53).seen, kGood);
}

TEST(RingVerdicts, VersionWordIsNeverReadByOcaml) {
  auto b = Image(3);
  Put(b, 8 * kVersionWord, 0xfe);
  EXPECT_EQ(Read(b, Verdicts::kStrict).status.code(), ErrorCode::kUnsupportedVersion);
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_TRUE(o.status.ok()) << o.status.ToString();
  EXPECT_EQ(o.seen, kGood);
}

// The cursor sees rules, never a mode: a new table row holding OCaml 5.3's rules, written
// out here field by field, reads as ocaml-5.3 does; each rule alone moves its own verdict.
TEST(RingVerdicts, ARowWithAModesRulesReadsAsThatMode) {
  const RingRules ocaml_like{
      .lenient_metadata = true,
      .lost_words_as_c_int = true,
      .extra_alloc_buckets_dropped = true,
      .unterminated_name_refused = true,
      .nameless_custom_dropped = true,
      .message_within_tail = false,
      .tail_within_lap = false,
  };
  std::vector<std::vector<std::byte>> inputs(4, Image(3));
  Put(inputs[1], 8 * kVersionWord, 0xfe);
  Put(inputs[2], 8 * kMaxDomainsWord, 0);
  Put(inputs[3], 8 * kRingSizeElementsWord, 48);
  Put(inputs[3], 8 * kRingSizeBytesWord, 48 * 8);
  int differs_from_strict = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Outcome row = ReadWith(inputs[i], ocaml_like);
    const Outcome ocaml = Read(inputs[i], Verdicts::kOcaml53);
    EXPECT_EQ(row.status.code(), ocaml.status.code()) << i;
    EXPECT_EQ(row.status.field(), ocaml.status.field()) << i;
    EXPECT_EQ(row.seen, ocaml.seen) << i;
    differs_from_strict += Read(inputs[i], Verdicts::kStrict).status.ok() != row.status.ok();
  }
  EXPECT_EQ(differs_from_strict, 2);
  RingRules one_off = ocaml_like;
  one_off.lenient_metadata = false;
  EXPECT_EQ(ReadWith(inputs[1], one_off).status.code(), ErrorCode::kUnsupportedVersion);
}

TEST(RingVerdicts, MaxDomains) {
  auto zero = Image(3);
  Put(zero, 8 * kMaxDomainsWord, 0);
  EXPECT_EQ(Read(zero, Verdicts::kStrict).status.code(), ErrorCode::kCorrupt);
  const Outcome o = Read(zero, Verdicts::kOcaml53);
  EXPECT_TRUE(o.status.ok());
  EXPECT_TRUE(o.seen.empty());
  auto big = Image(3);
  Put(big, 8 * kMaxDomainsWord, 4097);
  EXPECT_EQ(Read(big, Verdicts::kOcaml53).status.code(), ErrorCode::kCorrupt);
  // A third domain whose ring is not in the file: OCaml reads the first two, then fails.
  auto three = Image(3);
  three.resize(kGeometry.CustomEventsOffset());
  Put(three, 8 * kMaxDomainsWord, 3);
  const Outcome s = Read(three, Verdicts::kStrict);
  EXPECT_FALSE(s.status.ok());
  EXPECT_TRUE(s.seen.empty());
  const Outcome t = Read(three, Verdicts::kOcaml53);
  EXPECT_EQ(t.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(t.status.field(), "metadata header: data_offset");
  EXPECT_EQ(t.seen, kGood);
}

TEST(RingVerdicts, RingSizeNotAPowerOfTwoIsReadThroughItsMask) {
  auto b = Image(3);
  Put(b, 8 * kRingSizeElementsWord, 48);
  Put(b, 8 * kRingSizeBytesWord, 48 * 8);
  EXPECT_EQ(Read(b, Verdicts::kStrict).status.code(), ErrorCode::kCorrupt);
  // Ring 0's events lie below 16, where position & 47 is the position; ring 1 now starts
  // at ring 0's word 48 (zeros): a header of length 0.
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_EQ(o.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(o.seen, std::vector<std::string>(kGood.begin(), kGood.begin() + 4));
  auto mismatch = Image(3);
  Put(mismatch, 8 * kRingSizeBytesWord, 8 * 63);
  EXPECT_EQ(Read(mismatch, Verdicts::kOcaml53).status.code(), ErrorCode::kCorrupt);
}

// The whole file after the metadata header moved `shift` bytes on, its offsets following.
std::vector<std::byte> Shifted(const std::vector<std::byte>& good, std::uint64_t shift) {
  std::vector<std::byte> b(good.size() + shift);
  std::memcpy(b.data(), good.data(), kMetadataHeaderBytes);
  std::memcpy(b.data() + kMetadataHeaderBytes + shift, good.data() + kMetadataHeaderBytes,
              good.size() - kMetadataHeaderBytes);
  for (MetadataWord w : {kHeadersOffsetWord, kDataOffsetWord, kCustomEventsOffsetWord}) {
    Put(b, 8 * w, Get(good, 8 * w) + shift);
  }
  return b;
}

TEST(RingVerdicts, UnalignedOffsetsAreReadUnaligned) {
  const auto good = Image(3);
  for (std::uint64_t shift : {1u, 3u, 4u}) {
    const auto b = Shifted(good, shift);
    EXPECT_EQ(Read(b, Verdicts::kStrict).status.code(), ErrorCode::kCorrupt) << shift;
    const Outcome o = Read(b, Verdicts::kOcaml53);
    EXPECT_TRUE(o.status.ok()) << shift << ": " << o.status.ToString();
    EXPECT_EQ(o.seen, kGood) << shift;
  }
  // 8 bytes on: aligned again, and strict too reads it.
  EXPECT_EQ(Read(Shifted(good, 8), Verdicts::kStrict).seen, kGood);
}

TEST(RingVerdicts, RingHeaderSizeNotAMultipleOf8) {
  auto b = Image(3);
  // Ring 1's head and tail moved to 20 bytes after ring 0's.
  const std::uint64_t h1 = kGeometry.HeadersOffset() + kRingHeaderBytes;
  const std::uint64_t head1 = Get(b, h1), tail1 = Get(b, h1 + 8);
  Put(b, h1, 0);
  Put(b, h1 + 8, 0);
  Put(b, kGeometry.HeadersOffset() + 20, head1);
  Put(b, kGeometry.HeadersOffset() + 28, tail1);
  Put(b, 8 * kRingHeaderSizeWord, 20);
  EXPECT_EQ(Read(b, Verdicts::kStrict).status.code(), ErrorCode::kCorrupt);
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_TRUE(o.status.ok()) << o.status.ToString();
  EXPECT_EQ(o.seen, kGood);
}

TEST(RingVerdicts, RingHeaderReadPastTheFileIsAnErrorInEveryMode) {
  // ring_header_size_bytes 8 puts the last 8 bytes of the file inside OCaml's bounds, but
  // the tail word it then reads lies past them: never copied.
  auto b = Image(3);
  Put(b, 8 * kMaxDomainsWord, 1);
  Put(b, 8 * kRingHeaderSizeWord, 8);
  Put(b, 8 * kHeadersOffsetWord, b.size() - 8);
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_EQ(o.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(o.status.field(), "metadata header: ring_header_size_bytes");
  EXPECT_EQ(o.status.byte_offset(), 8 * kRingHeaderSizeWord);
  // Size 0 at an odd offset 13 bytes from the end (corpus fuzz, seed 1795705747): the same.
  Put(b, 8 * kRingHeaderSizeWord, 0);
  Put(b, 8 * kHeadersOffsetWord, b.size() - 13);
  EXPECT_EQ(Read(b, Verdicts::kOcaml53).status.field(), "metadata header: ring_header_size_bytes");
  // Past OCaml's own bounds, the headers_offset it blames.
  Put(b, 8 * kHeadersOffsetWord, b.size());
  EXPECT_EQ(Read(b, Verdicts::kOcaml53).status.field(), "metadata header: headers_offset");
}

TEST(RingVerdicts, NameSlotsBeyondTheFileFailAtTheFirstUserEvent) {
  auto b = Image(3);
  Put(b, 8 * kCustomEventsOffsetWord, b.size() + 8);
  EXPECT_EQ(Read(b, Verdicts::kStrict).status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(Read(b, Verdicts::kOcaml53).seen, kGood);  // no user event: never checked
  // Ring 0's second counter becomes a user int: OCaml fails there.
  Put(b, kGeometry.DataOffset() + 8 * 6, header::Make(3, true, 1, 0));
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_EQ(o.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(o.seen, std::vector<std::string>(kGood.begin(), kGood.begin() + 2));
}

TEST(RingVerdicts, MessagePastTheTailIsDeliveredIfItFitsTheRing) {
  auto b = Image(3);
  // Ring 0's last counter (at 9, tail 12) claims 5 words: past the tail, inside the ring.
  Put(b, kGeometry.DataOffset() + 8 * 9, header::Make(5, false, 4, 4));
  const Outcome s = Read(b, Verdicts::kStrict);
  EXPECT_EQ(s.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.seen, std::vector<std::string>(kGood.begin(), kGood.begin() + 3));
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_TRUE(o.status.ok()) << o.status.ToString();
  EXPECT_EQ(o.seen, kGood);
  // Past the ring's physical end: an error in every mode.
  Put(b, kGeometry.DataOffset() + 8 * 9, header::Make(60, false, 4, 4));
  EXPECT_EQ(Read(b, Verdicts::kOcaml53).status.code(), ErrorCode::kCorrupt);
}

TEST(RingVerdicts, TailBeyondALapIsReReadThenBounded) {
  auto b = Image(3);
  const std::uint64_t tail0 = kGeometry.HeadersOffset() + 8;
  Put(b, tail0, Get(b, tail0) + 64);
  // Strict: nothing of ring 0. OCaml: ring 0's events, then the zeros after them.
  const Outcome s = Read(b, Verdicts::kStrict);
  EXPECT_EQ(s.status.code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(s.seen.empty());
  const Outcome o = Read(b, Verdicts::kOcaml53);
  EXPECT_EQ(o.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(o.seen, std::vector<std::string>(kGood.begin(), kGood.begin() + 4));
  // One padding message filling the ring: OCaml would go round it up to a tail 2^40
  // words away; the oracle stops after max_lap_words.
  Put(b, kGeometry.DataOffset(), header::Padding(64));
  Put(b, tail0, std::uint64_t{1} << 40);
  const Outcome lap = Read(b, Verdicts::kOcaml53);
  EXPECT_EQ(lap.status.code(), ErrorCode::kCorrupt);
  EXPECT_NE(lap.status.message().find("beyond a lap"), std::string::npos);
  EXPECT_EQ(lap.status.field(), "ring 0: lap");
  EXPECT_TRUE(lap.seen.empty());
}

TEST(RingVerdicts, LostWordsAreACIntInOcamlMode) {
  EXPECT_EQ(OcamlLostWords(5), 5u);
  EXPECT_EQ(OcamlLostWords((std::uint64_t{1} << 32) + 5), 5u);
  EXPECT_EQ(static_cast<std::int64_t>(OcamlLostWords(std::uint64_t{1} << 31)), -2147483648);
  EXPECT_EQ(static_cast<std::int64_t>(OcamlLostWords(~std::uint64_t{0})), -1);
  struct Case {
    std::uint64_t head;
    std::string strict, ocaml;
  };
  for (const Case& c : {Case{(std::uint64_t{1} << 32) + 5, "0:lost:4294967301", "0:lost:5"},
                        Case{std::uint64_t{1} << 31, "0:lost:2147483648", "0:lost:-2147483648"},
                        Case{std::uint64_t{1} << 32, "0:lost:4294967296", "0:lost:0"}}) {
    auto b = Image(3);
    Put(b, kGeometry.HeadersOffset(), c.head);
    const Outcome s = Read(b, Verdicts::kStrict);
    ASSERT_FALSE(s.seen.empty());
    EXPECT_EQ(s.seen[0], c.strict);
    const Outcome o = Read(b, Verdicts::kOcaml53);
    ASSERT_FALSE(o.seen.empty());
    EXPECT_EQ(o.seen[0], c.ocaml);
    EXPECT_TRUE(o.status.ok());
  }
  // 2^63 words or more cannot be counted as a signed 64-bit number: strict refuses them.
  auto b = Image(3);
  Put(b, kGeometry.HeadersOffset(), std::uint64_t{1} << 63);
  const Outcome s = Read(b, Verdicts::kStrict);
  EXPECT_EQ(s.status.code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(s.seen.empty());
  EXPECT_EQ(Read(b, Verdicts::kOcaml53).seen.at(0), "0:lost:0");
}

TEST(RingVerdicts, UserUnitOfLengthOneIsAnErrorInEveryMode) {
  // OCaml delivers it with a timestamp from uninitialised memory: never copied.
  auto b = Image(3);
  Put(b, kGeometry.DataOffset() + 8 * 3, header::Make(1, true, 0, 0));
  for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml53}) {
    const Outcome o = Read(b, v);
    EXPECT_EQ(o.status.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(o.seen, std::vector<std::string>{"0:lifecycle:0"});
  }
}

TEST(RingVerdicts, CustomPayloadBeyond1024BytesIsAnErrorInEveryMode) {
  // OCaml copies it into a 1024-byte buffer: never copied. One domain of 256 words, one
  // custom event of `payload` words.
  constexpr FileGeometry g{1, 256};
  for (std::uint64_t payload : {kMaxCustomPayloadWords, kMaxCustomPayloadWords + 1}) {
    std::vector<std::byte> b(g.FileSize());
    const MetadataHeader m = g.Header();
    std::memcpy(b.data(), &m, sizeof m);
    Put(b, g.HeadersOffset() + 8, payload + 2);  // tail
    Put(b, g.DataOffset(), header::Make(payload + 2, true, 4, 0));
    std::memcpy(b.data() + g.CustomEventsOffset(), "big", 3);  // named: OCaml reads it
    for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml53}) {
      auto c = Cursor::FromBytes(b, CursorOptions{16, RulesOf(v).ring});
      ASSERT_TRUE(c.ok());
      EventCallbacks ignore;
      auto r = c->ReadPoll(ignore);
      EXPECT_EQ(r.ok(), payload == kMaxCustomPayloadWords) << payload;
      if (!r.ok()) {
        EXPECT_EQ(r.status().field(), "ring 0: custom event");
      }
    }
  }
}

TEST(RingVerdicts, AllocBucketCounts) {
  // One domain of 64 words, one alloc event of `buckets` buckets.
  constexpr FileGeometry g{1, 64};
  struct Case {
    std::uint64_t buckets;
    bool strict_ok, ocaml_ok;
  };
  for (const Case& c : {Case{19, false, false}, Case{20, true, true}, Case{21, false, true}}) {
    std::vector<std::byte> b(g.FileSize());
    const MetadataHeader m = g.Header();
    std::memcpy(b.data(), &m, sizeof m);
    Put(b, g.HeadersOffset() + 8, c.buckets + 2);  // tail
    Put(b, g.DataOffset(), header::Make(c.buckets + 2, false, 5, 0));
    for (std::uint64_t i = 0; i < c.buckets; ++i) Put(b, g.DataOffset() + 16 + 8 * i, i);
    for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml53}) {
      auto cursor = Cursor::FromBytes(b, CursorOptions{16, RulesOf(v).ring});
      ASSERT_TRUE(cursor.ok());
      struct Buckets : EventCallbacks {
        std::vector<std::uint64_t> got;
        bool Alloc(std::uint32_t, std::uint64_t, std::span<const std::uint64_t> w) override {
          got.assign(w.begin(), w.end());
          return true;
        }
      } cb;
      auto r = cursor->ReadPoll(cb);
      EXPECT_EQ(r.ok(), v == Verdicts::kStrict ? c.strict_ok : c.ocaml_ok) << c.buckets;
      // The field names the kind: a declared difference can single out short allocs.
      if (!r.ok()) {
        EXPECT_EQ(r.status().field(), "ring 0: alloc event") << c.buckets;
      }
      if (r.ok()) {
        ASSERT_EQ(cb.got.size(), kAllocBuckets);
        EXPECT_EQ(cb.got.back(), kAllocBuckets - 1);
      }
    }
  }
}

TEST(RingVerdicts, OcamlDropsCustomEventsWithAnEmptyNameUnread) {
  constexpr FileGeometry g{1, 64};
  std::vector<std::byte> b(g.FileSize());
  const MetadataHeader m = g.Header();
  std::memcpy(b.data(), &m, sizeof m);
  Put(b, g.HeadersOffset() + 8, 3);  // tail: one custom event with a bad pad count
  Put(b, g.DataOffset(), header::Make(3, true, 4, 7));
  Put(b, g.DataOffset() + 16, std::uint64_t{200} << 56);
  struct Customs : EventCallbacks {
    int n = 0;
    bool UserCustom(std::uint32_t, std::uint64_t, unsigned, std::string_view,
                    std::span<const std::uint64_t>) override {
      ++n;
      return true;
    }
  };
  for (bool named : {false, true}) {
    if (named) std::memcpy(b.data() + g.CustomEventsOffset() + 7 * kUserEventNameBytes, "x", 1);
    for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml53}) {
      auto c = Cursor::FromBytes(b, CursorOptions{16, RulesOf(v).ring});
      ASSERT_TRUE(c.ok());
      Customs cb;
      auto r = c->ReadPoll(cb);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(*r, 1u);  // counted either way
      EXPECT_EQ(cb.n, v == Verdicts::kOcaml53 && !named ? 0 : 1) << named;
    }
  }
}

// A name that fills its slot (128 bytes, no NUL): OCaml 5.3 raises when it registers it
// for a unit, int or span event, and never registers a custom event's name.
TEST(RingVerdicts, OcamlRejectsAUnitIntOrSpanNameThatFillsItsSlot) {
  constexpr FileGeometry g{1, 64};
  struct Case {
    unsigned type;
    bool ocaml_ok;
  };
  for (const Case& c :
       {Case{0, false}, Case{1, false}, Case{2, false}, Case{3, false}, Case{4, true}}) {
    for (bool full : {false, true}) {
      std::vector<std::byte> b(g.FileSize());
      const MetadataHeader m = g.Header();
      std::memcpy(b.data(), &m, sizeof m);
      Put(b, g.HeadersOffset() + 8, 3);  // tail: one user event of 3 words
      Put(b, g.DataOffset(), header::Make(3, true, c.type, 5));
      Put(b, g.DataOffset() + 16, std::uint64_t{0x0101} << 48);  // a valid custom pad count
      std::memset(b.data() + g.CustomEventsOffset() + 5 * kUserEventNameBytes, 'n',
                  full ? kUserEventNameBytes : kUserEventNameBytes - 1);
      for (Verdicts v : {Verdicts::kStrict, Verdicts::kOcaml53}) {
        const Outcome o = Read(b, v);
        const bool ok = v == Verdicts::kStrict || !full || c.ocaml_ok;
        EXPECT_EQ(o.status.ok(), ok) << c.type << " " << full << " " << o.status.ToString();
        if (!ok) {
          EXPECT_EQ(o.status.field(), "ring 0: user event");
        }
      }
    }
  }
}

TEST(RingVerdicts, ModesThatDoNotJudgeRingsAreStrict) {
  auto b = Image(3);
  Put(b, 8 * kVersionWord, 0xfe);
  EXPECT_FALSE(Read(b, Verdicts::kMemtrace023).status.ok());
  EXPECT_FALSE(Read(b, Verdicts::kMemtraceHead).status.ok());
}

}  // namespace
}  // namespace mpo::ring
