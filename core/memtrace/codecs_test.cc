// Unit tests of the MTF table, location codec, backtrace codec and packet headers.
#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/mtf_table.h"
#include "core/memtrace/packet_header.h"

namespace mpo::memtrace {
namespace {

TEST(MtfTable, MovesToFrontAndEvictsTheLast) {
  MtfTable<int> t;
  for (int i = 0; i < 31; ++i) t.Push(std::to_string(i)).value = i;
  EXPECT_EQ(t.size(), 31);
  EXPECT_EQ(t.at(0).key, "30");
  EXPECT_EQ(t.Find("0"), 30);
  t.MoveToFront(30);
  EXPECT_EQ(t.at(0).key, "0");
  EXPECT_EQ(t.at(1).key, "30");
  t.Push("new");  // evicts "1", now last
  EXPECT_EQ(t.Find("1"), MtfTable<int>::kNotFound);
  EXPECT_EQ(t.size(), 31);
  // PushReusingLast keeps the evicted value (memtrace's reader).
  const int last_value = t.at(30).value;
  EXPECT_EQ(t.PushReusingLast("x").value, last_value);
  EXPECT_TRUE(t.CheckInvariants());
}

std::vector<Location> Frames(std::initializer_list<Location> l) { return l; }

TEST(LocationCodec, RoundTripsAndSharesMtfState) {
  LocationWriter w;
  ByteWriter out(1 << 15);
  const auto a = Frames({{"foo.ml", 42, 100, 120, "func"}});
  const auto b =
      Frames({{"apiosdjfoaijsdf.ml", 19, 97, 1023, "aiosjdf"}, {"inline", 1, 1, 1, "fjkisda"}});
  const auto c = Frames({{"foo.ml", 43, 1, 2, "func"}, {"foo.ml", 44, 1, 2, "other"}});
  w.Put(out, 1, a);
  w.Put(out, 2, b);
  w.Put(out, 3, c);
  ASSERT_TRUE(out.ok());
  LocationReader r;
  ByteReader in(out.bytes(), 0);
  OcamlInt code;
  std::vector<Location> got;
  r.Get(in, &code, &got);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(got, a);
  r.Get(in, &code, &got);
  EXPECT_EQ(got, b);
  r.Get(in, &code, &got);
  EXPECT_EQ(code, 3);
  EXPECT_EQ(got, c);
  EXPECT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_EQ(in.remaining(), 0u);
}

TEST(LocationCodec, EmptyStringsFirst) {
  // Found by the reader fuzzer: an empty filename as the very first string interned.
  LocationWriter w;
  ByteWriter out(1 << 15);
  const auto a = Frames({{"", 1, 2, 3, ""}, {"x.ml", 4, 5, 6, ""}});
  w.Put(out, 9, a);
  LocationReader r;
  ByteReader in(out.bytes(), 0);
  OcamlInt code;
  std::vector<Location> got;
  r.Get(in, &code, &got);
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_EQ(got, a);
}

TEST(LocationCodec, ClampsOutOfRangeValuesToTheFieldMaximum) {
  LocationWriter w;
  ByteWriter out(1 << 15);
  w.Put(out, 7, Frames({{"f.ml", -5, 300, 5000, "d"}, {"f.ml", 1 << 21, -1, -1, "d"}}));
  LocationReader r;
  ByteReader in(out.bytes(), 0);
  OcamlInt code;
  std::vector<Location> got;
  r.Get(in, &code, &got);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (Location{"f.ml", 0xfffff, 0xff, 0x3ff, "d"}));
  EXPECT_EQ(got[1], (Location{"f.ml", 0xfffff, 0xff, 0x3ff, "d"}));
}

TEST(LocationCodec, TooLargeListsBecomeUnknown) {
  LocationWriter w;
  ByteWriter out(1 << 15);
  std::vector<Location> huge_name = {
      {std::string(60000, 'j'), 1000, 1000, 1000, std::string(60000, 'a')}};
  std::vector<Location> many(10000, Location{"asdf.ml", 42, 93, 84, "Asdf.fun"});
  std::vector<Location> just_fits(255, Location{"a", 1, 1, 1, "b"});
  w.Put(out, 1, huge_name);
  w.Put(out, 2, many);
  w.Put(out, 3, just_fits);
  ASSERT_TRUE(out.ok());
  LocationReader r;
  ByteReader in(out.bytes(), 0);
  OcamlInt code;
  std::vector<Location> got;
  r.Get(in, &code, &got);
  EXPECT_EQ(got, std::vector<Location>{UnknownLocation()});
  r.Get(in, &code, &got);
  EXPECT_EQ(got, std::vector<Location>{UnknownLocation()});
  r.Get(in, &code, &got);
  EXPECT_EQ(got, just_fits);
  EXPECT_EQ(LocationToString(UnknownLocation()), "??@<unknown>:1:1-1");
}

TEST(LocationCodec, V023PackingReproducesTheLongColumnsCorruption) {
  // memtrace <= 0.2.3 clamped end_char at 0xfff: bits 10..11 land in the filename index.
  LocationWriter w(ColumnPacking::kV023);
  ByteWriter out(1 << 15);
  w.Put(out, 1, Frames({{"a.ml", 1, 2, 3, "f"}}));
  w.Put(out, 2, Frames({{"a.ml", 1, 2, 1025, "f"}}));  // 1025 = 0x401: index 0 -> 1
  LocationReader r;
  ByteReader in(out.bytes(), 1000);
  OcamlInt code;
  std::vector<Location> got;
  r.Get(in, &code, &got);
  ASSERT_TRUE(in.ok());
  r.Get(in, &code, &got);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(in.status().field(), "location: filename MTF index");
  // Second event: 8 + 1 + 6 + "a.ml\0" + "f\0" = 22 bytes in; word starts 9 bytes later.
  EXPECT_EQ(in.status().byte_offset(), std::optional<std::uint64_t>(1000 + 22 + 9 + 4));
  EXPECT_EQ(in.status().bit_offset(), std::optional<std::uint8_t>(6));
}

TEST(LocationCodec, TruncatedInputIsATypedError) {
  LocationWriter w;
  ByteWriter out(1 << 15);
  w.Put(out, 1, Frames({{"foo.ml", 42, 100, 120, "func"}}));
  for (std::size_t cut = 0; cut < out.pos(); ++cut) {
    LocationReader r;
    ByteReader in(out.bytes().first(cut), 0);
    OcamlInt code;
    std::vector<Location> got;
    r.Get(in, &code, &got);
    EXPECT_FALSE(in.ok()) << cut;
    EXPECT_EQ(in.status().code(), ErrorCode::kTruncated) << cut;
  }
}

std::vector<OcamlInt> Decode(BacktraceReader& r, const ByteWriter& out, std::uint32_t n,
                             OcamlInt common) {
  ByteReader in(out.bytes(), 0);
  auto bt = r.Get(in, n, common);
  EXPECT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_EQ(in.remaining(), 0u);
  return std::vector<OcamlInt>(bt.begin(), bt.end());
}

TEST(BacktraceCodec, RoundTripsWithPredictionsAndOverflow) {
  BacktraceWriter w;
  BacktraceReader r;
  std::vector<std::vector<OcamlInt>> stacks;
  std::vector<OcamlInt> cyc;
  for (int i = 0; i < 1200; ++i) cyc.push_back(0x1000 + (i % 3) * 8);  // long prediction runs
  stacks.push_back(cyc);
  stacks.push_back(cyc);
  stacks.push_back({1, 2, 3, 4, 5});
  stacks.push_back({1, 2, 3, 9, 5, -7, (OcamlInt{1} << 62) - 1});
  std::vector<OcamlInt> prev;
  OcamlInt id = 0;
  for (const auto& s : stacks) {
    std::size_t common = 0;
    while (common < s.size() && common < prev.size() && s[common] == prev[common]) ++common;
    ByteWriter out(1 << 15);
    std::vector<std::size_t> misses;
    auto n = w.Put(out, id++, s, common, [&](std::size_t i) { misses.push_back(i); });
    EXPECT_EQ(Decode(r, out, n, static_cast<OcamlInt>(common)), s);
    ByteWriter vout(64);
    EXPECT_TRUE(r.Check(w.NextVerifier()));
    prev = s;
  }
}

TEST(BacktraceCodec, DeepStacksAreTruncatedAtTheByteLimit) {
  BacktraceWriter w;
  BacktraceReader r;
  std::vector<OcamlInt> deep(10000);
  std::iota(deep.begin(), deep.end(), 1000);
  ByteWriter out(1 << 15);
  auto n = w.Put(out, 0, deep, 0, [](std::size_t) {});
  // Every entry misses (10 bytes); coding stops once 4096 - 10 bytes are passed.
  EXPECT_EQ(n, 409u);
  EXPECT_EQ(out.pos(), 4090u);
  auto got = Decode(r, out, n, 0);
  EXPECT_EQ(got, std::vector<OcamlInt>(deep.begin(), deep.begin() + 409));
  // The next identical stack shares all 10000 entries with the writer's last stack, more
  // than the reader holds: memtrace returns the previous (truncated) backtrace.
  ByteWriter out2(1 << 15);
  auto n2 = w.Put(out2, 1, deep, deep.size(), [](std::size_t) {});
  EXPECT_EQ(n2, 0u);
  EXPECT_EQ(Decode(r, out2, n2, 10000), got);
}

TEST(BacktraceCodec, ReaderRefusesBacktracesOverItsLimit) {
  BacktraceWriter w;
  std::vector<OcamlInt> bt(30);
  std::iota(bt.begin(), bt.end(), 1);
  ByteWriter out(1 << 15);
  const auto n = w.Put(out, 0, bt, 0, [](std::size_t) {});
  BacktraceReader ok_reader;
  ok_reader.set_max_length(30);
  EXPECT_EQ(Decode(ok_reader, out, n, 0), bt);
  BacktraceReader r;
  r.set_max_length(29);
  ByteReader in(out.bytes(), 0);
  (void)r.Get(in, n, 0);
  EXPECT_EQ(in.status().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(in.status().byte_offset(), std::optional<std::uint64_t>(29 * 10));
}

// Backtraces that use every codeword: misses into both buckets (4,000 distinct codes in
// a 16 Ki-slot cache), hit0/hit1/hitN, blocks of 255 predictions and their continuation
// (a recursion of one code), and stacks deep enough to reach the 4096-byte limit. Each
// is what a reader holds after decoding the writer's bytes (a stack cut at the limit
// loses its callee end), so that the sequence is what a copy encodes again.
std::vector<std::vector<OcamlInt>> MatchWorkload() {
  std::uint64_t x = 12345;
  auto rnd = [&x] { return (x = x * 6364136223846793005u + 1442695040888963407u) >> 33; };
  std::vector<std::vector<OcamlInt>> held;
  std::vector<OcamlInt> bt;
  BacktraceWriter w;
  BacktraceReader r;
  std::vector<std::uint8_t> out(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  for (int k = 0; k < 2000; ++k) {
    bt.resize(bt.empty() ? 0 : rnd() % bt.size());
    const std::size_t add = rnd() % 9 == 0 ? 300 + rnd() % 900 : 1 + rnd() % 6;
    const bool recursion = rnd() % 3 == 0;
    for (std::size_t j = 0; j < add; ++j)
      bt.push_back(recursion ? OcamlInt{7} : static_cast<OcamlInt>(1000 + rnd() % 4000));
    if (bt.size() > 5000) bt.resize(40);
    std::size_t first = 0;
    if (!held.empty())
      while (first < bt.size() && first < held.back().size() && bt[first] == held.back()[first])
        ++first;
    std::uint32_t n = 0;
    const std::uint8_t* end = w.PutUnchecked(out.data(), k, bt, first, &n, &misses);
    ByteReader in({out.data(), static_cast<std::size_t>(end - out.data())}, 0);
    const std::span<const OcamlInt> got = r.Get(in, n, static_cast<OcamlInt>(first));
    held.emplace_back(got.begin(), got.end());
  }
  return held;
}

std::size_t CommonWithPrevious(const std::vector<std::vector<OcamlInt>>& bts, std::size_t k) {
  std::size_t f = 0;
  if (k > 0)
    while (f < bts[k].size() && f < bts[k - 1].size() && bts[k][f] == bts[k - 1][f]) ++f;
  return f;
}

// Decodes `bytes` (n codewords after `first` entries of the previous backtrace) with
// `r`; returns the backtrace, or nullopt on a decode error.
std::optional<std::vector<OcamlInt>> Decode(BacktraceReader& r, std::span<const std::uint8_t> bytes,
                                            std::uint32_t n, std::size_t first, OcamlInt id) {
  ByteReader in(bytes, 0);
  const std::span<const OcamlInt> bt = r.Get(in, n, static_cast<OcamlInt>(first), id);
  if (!in.ok() || in.remaining() != 0) return std::nullopt;
  return std::vector<OcamlInt>(bt.begin(), bt.end());
}

// `w` after PutUnchecked of bts[0, k); `r` (if any) after decoding what it wrote.
void Replay(BacktraceWriter& w, const std::vector<std::vector<OcamlInt>>& bts, std::size_t k,
            BacktraceReader* r = nullptr) {
  std::vector<std::uint8_t> out(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::uint32_t n = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t first = CommonWithPrevious(bts, j);
    const auto id = static_cast<OcamlInt>(j);
    const std::uint8_t* end = w.PutUnchecked(out.data(), id, bts[j], first, &n, &misses);
    if (r != nullptr) {
      EXPECT_TRUE(
          Decode(*r, {out.data(), static_cast<std::size_t>(end - out.data())}, n, first, id));
    }
  }
}

TEST(BacktraceCodec, CheckCanonicalAcceptsWhatPutUncheckedWrites) {
  const auto bts = MatchWorkload();
  BacktraceWriter enc;
  BacktraceReader dec;
  dec.CheckCanonical();
  std::vector<std::uint8_t> out(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::size_t tags[4] = {0, 0, 0, 0};
  std::size_t at_limit = 0;
  for (std::size_t k = 0; k < bts.size(); ++k) {
    const std::size_t first = CommonWithPrevious(bts, k);
    const auto id = static_cast<OcamlInt>(k);
    misses.clear();
    std::uint32_t n = 0;
    const std::uint8_t* end = enc.PutUnchecked(out.data(), id, bts[k], first, &n, &misses);
    const auto len = static_cast<std::size_t>(end - out.data());
    for (std::size_t p = 0; p < len;) {
      const unsigned tag = out[p] & 3;
      ++tags[tag];
      p += tag == kHitN ? 3 : tag == kMiss ? 10 : 2;
    }
    if (len > kMaxBacktraceLength - 20) ++at_limit;
    const auto bt = Decode(dec, {out.data(), len}, n, first, id);
    ASSERT_TRUE(bt.has_value()) << "backtrace " << k;
    ASSERT_EQ(*bt, bts[k]) << "backtrace " << k;
    ASSERT_TRUE(dec.canonical()) << "backtrace " << k;
    std::vector<OcamlInt> missed;
    for (const std::size_t i : misses) missed.push_back(bts[k][i]);
    ASSERT_EQ(dec.misses(), missed) << "backtrace " << k;
  }
  for (const std::size_t t : tags) EXPECT_GT(t, 0u);
  EXPECT_GT(at_limit, 0u);
}

// Whatever the bytes, canonical() holds only if the writer, given the backtrace they
// decode to, writes exactly them.
TEST(BacktraceCodec, CheckCanonicalHoldsOnlyForTheWritersBytes) {
  const auto bts = MatchWorkload();
  std::uint64_t x = 7;
  std::vector<std::uint8_t> out(kMaxBacktraceLength), again(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::size_t refused = 0, accepted = 0;
  // Every 47th backtrace, and every one coded up to the byte limit.
  std::vector<std::size_t> picked;
  {
    BacktraceWriter w;
    for (std::size_t k = 0; k < bts.size(); ++k) {
      std::uint32_t n = 0;
      const std::uint8_t* e = w.PutUnchecked(out.data(), static_cast<OcamlInt>(k), bts[k],
                                             CommonWithPrevious(bts, k), &n, &misses);
      if (k > 0 && (k % 47 == 1 || e - out.data() > 4000)) picked.push_back(k);
    }
  }
  for (const std::size_t k : picked) {
    const std::size_t first = CommonWithPrevious(bts, k);
    const auto id = static_cast<OcamlInt>(k);
    // Writers and readers in the state before backtrace k.
    BacktraceWriter enc;
    Replay(enc, bts, k);
    std::uint32_t n = 0;
    const std::uint8_t* end = enc.PutUnchecked(out.data(), id, bts[k], first, &n, &misses);
    const auto len = static_cast<std::size_t>(end - out.data());
    if (len == 0) continue;
    for (int variant = 0; variant < 16; ++variant) {
      x = x * 6364136223846793005u + 1;
      std::vector<std::uint8_t> bytes(out.data(), out.data() + len);
      std::uint32_t ncodes = n;
      std::size_t prefix = first;
      switch (variant) {
        case 0: ncodes = n + 1; break;
        case 1: ncodes = n - 1; break;
        case 2: bytes.pop_back(); break;
        case 3: prefix = first == 0 ? 1 : first - 1; break;
        case 4: {
          // A miss stored in its code's other candidate bucket (the writer takes the one
          // with the older date).
          std::vector<std::size_t> at;
          for (std::size_t q = 0; q < len;) {
            const unsigned tag = bytes[q] & 3;
            if (tag == kMiss) at.push_back(q);
            q += tag == kHitN ? 3 : tag == kMiss ? 10 : 2;
          }
          if (at.empty()) continue;
          const std::size_t q = at[(x >> 33) % at.size()];
          const auto code = OcamlIntOfInt64(LoadLe<std::uint64_t>(&bytes[q + 2]));
          const std::uint32_t bucket = LoadLe<std::uint16_t>(&bytes[q]) >> 2;
          const std::uint32_t other =
              bucket == CacheHash1(code) ? CacheHash2(code) : CacheHash1(code);
          StoreLe(&bytes[q], static_cast<std::uint16_t>((other << 2) | kMiss));
          break;
        }
        case 5: {
          // One codeword more: the last one again (past the byte limit, the writer stops).
          std::size_t last = 0;
          for (std::size_t q = 0; q < len;) {
            last = q;
            const unsigned tag = bytes[q] & 3;
            q += tag == kHitN ? 3 : tag == kMiss ? 10 : 2;
          }
          bytes.insert(bytes.end(), out.data() + last, out.data() + len);
          ++ncodes;
          break;
        }
        case 6: {
          // A hit0 or hit1 written as hitN with the same count (the writer uses hitN for
          // two or more).
          std::size_t q = 0;
          while (q < bytes.size() && (bytes[q] & 3) >= kHitN) q += (bytes[q] & 3) == kHitN ? 3 : 10;
          if (q >= bytes.size()) continue;
          const std::uint8_t count = bytes[q] & 3;
          bytes[q] = static_cast<std::uint8_t>((bytes[q] & ~3u) | kHitN);
          bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(q) + 2, count);
          break;
        }
        case 7: {
          // A miss code's bit 63, which the 63-bit code does not hold (the writer
          // writes the sign extension).
          std::size_t q = 0;
          while (q < bytes.size() && (bytes[q] & 3) != kMiss) q += (bytes[q] & 3) == kHitN ? 3 : 2;
          if (q >= bytes.size()) continue;
          bytes[q + 9] ^= 0x80;
          break;
        }
        case 8:
        case 9: {
          // One or two hits more, in the bucket of the first new entry (one past the byte
          // limit; two where only a last hit without predictions would fit).
          const auto hit =
              static_cast<std::uint16_t>((LoadLe<std::uint16_t>(out.data()) & ~3u) | kHit0);
          for (int j = 8; j <= variant; ++j) {
            bytes.resize(bytes.size() + 2);
            StoreLe(&bytes[bytes.size() - 2], hit);
            ++ncodes;
          }
          break;
        }
        default: bytes[(x >> 33) % len] ^= static_cast<std::uint8_t>(1u << ((x >> 20) % 8));
      }
      if (prefix > bts[k - 1].size()) continue;
      BacktraceReader dec;
      dec.CheckCanonical();
      {
        BacktraceWriter w;
        Replay(w, bts, k, &dec);
      }
      const auto bt = Decode(dec, bytes, ncodes, prefix, id);
      if (!bt || !dec.canonical()) {
        ++refused;
        continue;
      }
      ++accepted;
      // Accepted: the writer, given what the bytes decode to after the same history and
      // the longest common prefix, writes them.
      BacktraceWriter w;
      Replay(w, bts, k);
      std::size_t f = 0;
      while (f < bt->size() && f < bts[k - 1].size() && (*bt)[f] == bts[k - 1][f]) ++f;
      std::uint32_t m = 0;
      const std::uint8_t* e = w.PutUnchecked(again.data(), id, *bt, f, &m, &misses);
      const std::uint8_t* begin = again.data();
      EXPECT_EQ(std::vector<std::uint8_t>(begin, e), bytes) << "backtrace " << k;
      EXPECT_EQ(m, ncodes) << "backtrace " << k;
      EXPECT_EQ(f, prefix) << "backtrace " << k;
    }
  }
  EXPECT_GT(refused, 100u);
}

// At the byte limit: a hit with no room left for predictions is written last and
// without them, and nothing is written after the limit.
TEST(BacktraceCodec, CheckCanonicalKnowsTheByteLimit) {
  // The codes C1..C6 enter the cache apart from each other, so that none predicts the
  // next; then 408 new codes (4080 bytes of misses) and C1..C6 as hits: C1..C3 have
  // room, C4 (at byte 4086) is written alone, C5 and C6 are dropped.
  std::vector<OcamlInt> warm, deep;
  for (OcamlInt c = 1; c <= 6; ++c) {
    warm.push_back(100 + c);
    warm.push_back(200 + c);
  }
  for (OcamlInt c = 0; c < 408; ++c) deep.push_back(1000 + c);
  for (OcamlInt c = 1; c <= 6; ++c) deep.push_back(100 + c);
  BacktraceWriter w;
  std::vector<std::uint8_t> a(kMaxBacktraceLength), b(kMaxBacktraceLength);
  std::vector<std::size_t> misses;
  std::uint32_t na = 0, nb = 0;
  const auto la =
      static_cast<std::size_t>(w.PutUnchecked(a.data(), 0, warm, 0, &na, &misses) - a.data());
  const auto lb =
      static_cast<std::size_t>(w.PutUnchecked(b.data(), 1, deep, 0, &nb, &misses) - b.data());
  ASSERT_EQ(lb, 4088u);
  ASSERT_EQ(nb, 408u + 4u);
  ASSERT_EQ(b[4086] & 3, kHit0);
  auto read = [&](std::vector<std::uint8_t> last, std::uint32_t n) {
    BacktraceReader r;
    r.CheckCanonical();
    EXPECT_TRUE(Decode(r, {a.data(), la}, na, 0, 0).has_value());
    const auto bt = Decode(r, last, n, 0, 1);
    return bt.has_value() && r.canonical();
  };
  const std::vector<std::uint8_t> bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(lb));
  EXPECT_TRUE(read(bytes, nb));
  // The last hit with a prediction (there is no room for one).
  std::vector<std::uint8_t> predicted = bytes;
  predicted[4086] = static_cast<std::uint8_t>((predicted[4086] & ~3u) | kHit1);
  EXPECT_FALSE(read(predicted, nb));
  // A hit after it (the writer had stopped).
  std::vector<std::uint8_t> more = bytes;
  more.insert(more.end(), bytes.end() - 2, bytes.end());
  EXPECT_FALSE(read(more, nb + 1));
}

TEST(BacktraceCodec, VerifierSequenceAndHashes) {
  BacktraceWriter w;
  EXPECT_EQ(w.NextVerifier().ix, 4242);
  EXPECT_EQ(w.NextVerifier().ix, 9655);
  EXPECT_EQ(w.NextVerifier().ix, (9655 + 5413) % 16384);
  // 63-bit wrap: the product overflows 64 bits, the low bits still match OCaml's.
  const OcamlInt big = (OcamlInt{1} << 62) - 3;
  EXPECT_EQ(CacheHash1(big), ((static_cast<std::uint64_t>(big) * 0x4983723) >> 11) & kCacheMask);
  EXPECT_EQ(CacheHash2(-1),
            (((0xffffffffffffffffull * 0xfdea731) & kOcamlIntMask) >> 21) & kCacheMask);
  BacktraceReader r;
  EXPECT_TRUE(r.Check(CacheVerifier{}));
  EXPECT_FALSE(r.Check(CacheVerifier{20000, 0, 0}));
  EXPECT_FALSE(r.Check(CacheVerifier{1, 1, 0}));
}

// The reader allocates its cache on the first codeword; before that every slot reads 0,
// exactly as a zeroed cache would, for the verifier and for a backtrace of no codewords.
TEST(BacktraceCodec, ReaderBeforeItsFirstCodewordActsAsAZeroedCache) {
  BacktraceReader fresh;
  EXPECT_TRUE(fresh.Check(CacheVerifier{5, 0, 0}));
  EXPECT_TRUE(fresh.Check(CacheVerifier{kCacheMask, 0, std::uint64_t{1} << 63}));  // OCaml 0
  EXPECT_FALSE(fresh.Check(CacheVerifier{5, 0, 7}));
  EXPECT_FALSE(fresh.Check(CacheVerifier{5, 3, 0}));
  ByteWriter none(16);
  EXPECT_EQ(Decode(fresh, none, 0, 0), std::vector<OcamlInt>{});
  EXPECT_TRUE(fresh.Check(CacheVerifier{5, 0, 0}));
  // After a codeword the cache is real: the writer's verifiers agree with it.
  BacktraceWriter w;
  const std::vector<OcamlInt> bt = {11, 12, 13};
  ByteWriter out(1 << 12);
  const auto n = w.Put(out, 0, bt, 0, [](std::size_t) {});
  EXPECT_EQ(Decode(fresh, out, n, 0), bt);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(fresh.Check(w.NextVerifier()));
}

TEST(PacketHeader, RoundTripsV2AndV3) {
  for (int version : {1, 2, 3}) {
    ByteWriter out(256);
    auto slots = WritePacketHeader(out, version, 42, 7, CacheVerifier{4242, 3, 99});
    out.U32(0);
    FinishPacketHeader(out, slots, 100, 200, 5, 9);
    ByteReader in(out.bytes(), 0);
    PacketHeader h;
    ASSERT_TRUE(ReadPacketHeader(in, &h).ok());
    EXPECT_EQ(h.header_size(), version >= 3 ? 68u : 66u);
    EXPECT_EQ(h.packet_size_bits, (h.header_size() + 4) * 8);
    EXPECT_EQ(h.domain, version >= 3 ? 7 : 0);
    EXPECT_EQ(h.verifier, (CacheVerifier{4242, 3, 99}));
    EXPECT_EQ(h.time_begin, 100);
    EXPECT_EQ(h.alloc_id_end, 9);
  }
}

std::uint64_t LeAt(std::span<const std::uint8_t> b, std::size_t off, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= std::uint64_t{b[off + i]} << (8 * i);
  return v;
}

// The named offsets are where the writer puts each field, in both layouts.
TEST(PacketHeader, NamedOffsetsMatchTheWriter) {
  for (int version : {2, 3}) {
    SCOPED_TRACE(version);
    ByteWriter out(256);
    auto slots = WritePacketHeader(out, version, 42, 7, CacheVerifier{4242, 3, 99});
    FinishPacketHeader(out, slots, 100, 200, 5, 9);
    const auto b = out.bytes();
    const std::size_t d = DomainShift(version == 3);
    namespace o = header_offset;
    EXPECT_EQ(LeAt(b, o::kMagic, 4), kCtfMagic);
    EXPECT_EQ(LeAt(b, o::kPacketSize, 4), PacketHeaderSize(version) * 8);
    EXPECT_EQ(LeAt(b, o::kTimeBegin, 8), 100u);
    EXPECT_EQ(LeAt(b, o::kTimeEnd, 8), 200u);
    EXPECT_EQ(LeAt(b, o::kFlushDuration, 4), 0u);
    EXPECT_EQ(LeAt(b, o::kVersion, 2), static_cast<std::uint64_t>(version));
    EXPECT_EQ(LeAt(b, o::kPid, 8), 42u);
    if (version == 3) {
      EXPECT_EQ(LeAt(b, o::kDomain, 2), 7u);
    }
    EXPECT_EQ(LeAt(b, o::kVerifierIxV2 + d, 2), 4242u);
    EXPECT_EQ(LeAt(b, o::kVerifierPredV2 + d, 2), 3u);
    EXPECT_EQ(LeAt(b, o::kVerifierValueV2 + d, 8), 99u);
    EXPECT_EQ(LeAt(b, o::kAllocIdBeginV2 + d, 8), 5u);
    EXPECT_EQ(LeAt(b, o::kAllocIdEndV2 + d, 8), 9u);
  }
  EXPECT_EQ(ShortAllocLength(ShortAllocCode(7)), 7u);
  EXPECT_TRUE(IsShortAllocCode(ShortAllocCode(1)));
  EXPECT_FALSE(IsShortAllocCode(ShortAllocCode(kShortAllocMaxLength) + 1));
  EXPECT_FALSE(IsShortAllocCode(static_cast<unsigned>(EventCode::kAlloc)));
}

Status HeaderWith(int byte, std::uint64_t value, int width) {
  ByteWriter out(256);
  auto slots = WritePacketHeader(out, 2, 42, 0, CacheVerifier{});
  FinishPacketHeader(out, slots, 100, 200, 5, 9);
  std::vector<std::uint8_t> b(out.bytes().begin(), out.bytes().end());
  b.resize(b.size() + 8);  // room for a v3 header when the version byte is changed
  for (int i = 0; i < width; ++i) b[byte + i] = static_cast<std::uint8_t>(value >> (8 * i));
  ByteReader in(b, 1000);
  PacketHeader h;
  return ReadPacketHeader(in, &h);
}

TEST(PacketHeader, EveryCheckIsATypedErrorAtItsField) {
  Status s = HeaderWith(0, 0x12345678, 4);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.byte_offset(), std::optional<std::uint64_t>(1000));
  s = HeaderWith(28, 4, 2);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedVersion);
  EXPECT_EQ(s.byte_offset(), std::optional<std::uint64_t>(1028));
  s = HeaderWith(4, 0x80000000u, 4);
  EXPECT_EQ(s.field(), "packet header: packet_size");
  s = HeaderWith(4, 65 * 8, 4);
  EXPECT_EQ(s.field(), "packet header: packet_size");
  s = HeaderWith(8, 300, 8);
  EXPECT_EQ(s.field(), "packet header: time_end");
  s = HeaderWith(50, 10, 8);
  EXPECT_EQ(s.field(), "packet header: alloc_id_end");
  ByteWriter shortb(10);
  shortb.U32(kCtfMagic);
  ByteReader in(shortb.bytes(), 0);
  PacketHeader h;
  EXPECT_EQ(ReadPacketHeader(in, &h).code(), ErrorCode::kTruncated);
}

TEST(EventHeader, RebuildsWrappedTimesAndChecksBounds) {
  const std::int64_t begin = (std::int64_t{5} << 25) + 0x1fffff0;
  ByteWriter out(16);
  WriteEventHeader(out, 2, begin + 0x20);  // low bits wrapped past 2^25
  ByteReader in(out.bytes(), 0);
  EventHeader h = ReadEventHeader(in, begin, begin + 100);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(h.time, begin + 0x20);
  EXPECT_EQ(h.code, 2u);
  ByteReader in2(out.bytes(), 0);
  ReadEventHeader(in2, begin, begin + 10);
  EXPECT_EQ(in2.status().field(), "event header: time in packet bounds");
  ByteWriter bad(16);
  WriteEventHeader(bad, 50, begin);
  ByteReader in3(bad.bytes(), 0);
  ReadEventHeader(in3, begin, begin);
  EXPECT_EQ(in3.status().field(), "event header: code");
}

}  // namespace
}  // namespace mpo::memtrace
