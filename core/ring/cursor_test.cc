// The cursor's typed errors (mirroring OCaml's codes) and read_poll semantics.
#include "core/ring/cursor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/ring/producer.h"

namespace mpo::ring {
namespace {

// A valid file image: 2 domains of 16 words, events written by our producer.
std::vector<std::byte> SmallRingImage(unsigned counters_per_domain) {
  const char* t = std::getenv("TEST_TMPDIR");
  ProducerOptions o;
  o.dir = t ? t : "/tmp";
  o.max_domains = 2;
  o.ring_log2_words = 6;
  o.pid = 424242;
  RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  for (unsigned i = 0; i < counters_per_domain; ++i) {
    EXPECT_TRUE(ev.Counter(0, 4, i).ok());
    EXPECT_TRUE(ev.Counter(1, 5, 100 + i).ok());
  }
  FILE* f = std::fopen(ev.path().c_str(), "rb");
  std::vector<std::byte> bytes(FileGeometry{2, 64}.FileSize());
  EXPECT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  return bytes;
}

void SetWord(std::vector<std::byte>& b, std::size_t byte_offset, std::uint64_t v) {
  std::memcpy(b.data() + byte_offset, &v, 8);
}

struct Counting : EventCallbacks {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> seen;  // ring, value
  int stop_at = -1;
  Cursor* reenter = nullptr;
  Status reentry;
  bool RuntimeCounter(std::uint32_t ring, std::uint64_t, unsigned, std::uint64_t v) override {
    if (reenter != nullptr) {
      Counting inner;
      auto r = reenter->ReadPoll(inner);
      reentry = r.status();
      reenter = nullptr;
    }
    if (stop_at >= 0 && static_cast<int>(seen.size()) == stop_at) {
      stop_at = -1;
      return false;
    }
    seen.emplace_back(ring, v);
    return true;
  }
};

TEST(Cursor, OpenErrorsMirrorOcaml) {
  auto missing = Cursor::Open("/nonexistent", 1);
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("E_OPEN_FAILURE"), std::string::npos);
  EXPECT_EQ(Cursor::OpenCurrent("").status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(Cursor::Open("/tmp", -3).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(Cursor::FromBytes({}).status().code(), ErrorCode::kTruncated);
}

TEST(Cursor, MetadataCorruptionsAreTypedErrorsAtTheirOffset) {
  const std::vector<std::byte> good = SmallRingImage(3);
  ASSERT_TRUE(Cursor::FromBytes(good).ok());
  struct Bad {
    std::size_t word;
    std::uint64_t value;
    ErrorCode code;
  };
  const std::uint64_t size = good.size();
  const std::vector<Bad> cases = {
      {0, 2, ErrorCode::kUnsupportedVersion},
      {1, 0, ErrorCode::kCorrupt},
      {1, 4097, ErrorCode::kCorrupt},
      {2, 12, ErrorCode::kCorrupt},
      {3, 8 * 63, ErrorCode::kCorrupt},
      {4, 48, ErrorCode::kCorrupt},
      {4, 0, ErrorCode::kCorrupt},
      {5, size, ErrorCode::kCorrupt},
      {5, 65, ErrorCode::kCorrupt},
      {6, size - 8, ErrorCode::kCorrupt},
      {6, ~std::uint64_t{0} - 7, ErrorCode::kCorrupt},
      {7, size + 1, ErrorCode::kCorrupt},
  };
  for (const Bad& c : cases) {
    std::vector<std::byte> b = good;
    SetWord(b, 8 * c.word, c.value);
    auto r = Cursor::FromBytes(b);
    ASSERT_FALSE(r.ok()) << "word " << c.word << " = " << c.value;
    EXPECT_EQ(r.status().code(), c.code) << r.status().ToString();
    EXPECT_EQ(r.status().byte_offset(), 8 * c.word) << r.status().ToString();
  }
}

TEST(Cursor, CorruptEventHeadersAreTypedErrorsNeverCrashes) {
  const std::vector<std::byte> good = SmallRingImage(3);
  const MetadataHeader m = FileGeometry{2, 64}.Header();
  for (std::uint64_t len : {0u, 1u, 70u}) {
    std::vector<std::byte> b = good;
    SetWord(b, m.data_offset, header::Make(len, false, 4, 4));
    auto c = Cursor::FromBytes(b);
    ASSERT_TRUE(c.ok());
    Counting cb;
    auto r = c->ReadPoll(cb);
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_EQ(r.status().code(), ErrorCode::kCorrupt);
    EXPECT_EQ(r.status().byte_offset(), m.data_offset);
    EXPECT_EQ(r.status().field(), "ring 0: event");
  }
  // A counter without its value word (length 2), and a user event whose name slot is
  // outside a truncated file.
  std::vector<std::byte> b = good;
  SetWord(b, m.data_offset + 8 * 3, header::Make(2, false, 4, 4));
  auto c = Cursor::FromBytes(b);
  Counting cb;
  const auto counter = c->ReadPoll(cb);
  EXPECT_EQ(counter.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(counter.status().field(), "ring 0: counter event");
  std::vector<std::byte> t(good.begin(), good.begin() + m.custom_events_offset + 128);
  SetWord(t, m.data_offset + 8 * 3, header::Make(3, true, 1, 5));
  auto tc = Cursor::FromBytes(t);
  ASSERT_TRUE(tc.ok());
  auto tr = tc->ReadPoll(cb);
  EXPECT_EQ(tr.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(tr.status().message().find("name slot"), std::string::npos);
  EXPECT_EQ(tr.status().field(), "ring 0: user event");
}

TEST(Cursor, TailFarBeyondHeadIsCorruptNotAHang) {
  std::vector<std::byte> b = SmallRingImage(3);
  const MetadataHeader m = FileGeometry{2, 64}.Header();
  SetWord(b, m.headers_offset + 8, std::uint64_t{1} << 62);
  auto c = Cursor::FromBytes(b);
  Counting cb;
  EXPECT_EQ(c->ReadPoll(cb).status().code(), ErrorCode::kCorrupt);
}

TEST(Cursor, RoundRobinMaxEventsAndRefusal) {
  const std::vector<std::byte> image = SmallRingImage(5);
  auto c = Cursor::FromBytes(image);
  ASSERT_TRUE(c.ok());
  Counting a;
  // ring_start counts too: ring 0 holds 6 events, ring 1 holds 5.
  EXPECT_EQ(*c->ReadPoll(a, 4), 4u);
  ASSERT_EQ(a.seen.size(), 3u);
  EXPECT_EQ(a.seen[2], (std::pair<std::uint32_t, std::uint64_t>{0, 2}));
  // The next poll starts with ring 1, then comes back to ring 0.
  Counting b;
  EXPECT_EQ(*c->ReadPoll(b, 6), 6u);
  ASSERT_EQ(b.seen.size(), 6u);
  EXPECT_EQ(b.seen[0], (std::pair<std::uint32_t, std::uint64_t>{1, 100}));
  EXPECT_EQ(b.seen[5], (std::pair<std::uint32_t, std::uint64_t>{0, 3}));
  // A callback refusing an event leaves it for the next poll.
  Counting r;
  r.stop_at = 0;
  EXPECT_EQ(*c->ReadPoll(r), 0u);
  EXPECT_TRUE(r.seen.empty());
  Counting d;
  EXPECT_EQ(*c->ReadPoll(d), 1u);
  EXPECT_EQ(d.seen, (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{0, 4}}));
  EXPECT_EQ(*c->ReadPoll(d), 0u);
}

TEST(Cursor, ReentrantPollIsBusyAndClosedCursorIsNotOpen) {
  auto c = Cursor::FromBytes(SmallRingImage(2));
  ASSERT_TRUE(c.ok());
  Counting cb;
  cb.reenter = &*c;
  ASSERT_TRUE(c->ReadPoll(cb).ok());
  EXPECT_EQ(cb.reentry.code(), ErrorCode::kBusy);
  EXPECT_NE(cb.reentry.message().find("E_CURSOR_POLL_BUSY"), std::string::npos);
  c->Close();
  EXPECT_EQ(c->ReadPoll(cb).status().code(), ErrorCode::kFailedPrecondition);
}

TEST(Cursor, CustomPayloadDecoding) {
  std::uint64_t w[2] = {0, 0};
  std::memcpy(w, "abcdefghij", 10);
  reinterpret_cast<unsigned char*>(w)[15] = 5;
  EXPECT_EQ(*DecodeCustomPayload(std::span(w, 2)), "abcdefghij");
  reinterpret_cast<unsigned char*>(w)[15] = 16;
  EXPECT_EQ(DecodeCustomPayload(std::span(w, 2)).status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(DecodeCustomPayload({}).status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(OcamlIntOfPayload(~std::uint64_t{0}), -1);
  EXPECT_EQ(OcamlIntOfPayload(std::uint64_t{1} << 63), 0);
}

}  // namespace
}  // namespace mpo::ring
