// Backtrace coding with a location-code cache and predictions (mirrors memtrace's
// Backtrace_codec).
//
// 1. Data. Both sides keep a 2^14-slot cache of 63-bit location codes and, per slot, a
//    prediction: the slot that followed it last time. The encoder also keeps a "date"
//    per slot (the allocation id that last used it) to choose which slot to evict.
// 2. Codewords (u16, little-endian): bits 2..15 the cache bucket, bits 0..1 the tag
//      0 hit0   the bucket's code, then no predicted codes
//      1 hit1   the bucket's code, then 1 predicted code
//      2 hitN   + u8 n: the bucket's code, then n predicted codes (n <= 255)
//      3 miss   + u64 code: store the code in the bucket
//    Every codeword also sets prediction[previous bucket] = bucket (previous is 0 at the
//    start of a backtrace).
// 3. Encoder choices. A code is looked up in two buckets, hash1 = ((c * 0x4983723) lsr 11)
//    and hash2 = ((c * 0xfdea731) lsr 21), masked to 14 bits, computed on OCaml's 63-bit
//    ints; on a miss the bucket with the older date (hash2 on ties) is replaced. After a
//    hit, correct predictions are counted; the 256th starts a new block. Encoding stops
//    once the backtrace's bytes would pass 4096 - 10 (deep stacks are truncated: the
//    callee end is lost).
// 4. Verifier. Each event packet header after the first carries (ix, prediction[ix],
//    cache[ix]) of the encoder, ix = 4242, then +5413 mod 2^14; other packets carry the
//    dummy (0xffff, 0, 0). A decoder whose state differs reports "cache verification".
// 5. Common prefix. A backtrace is coded as the length of the prefix shared with the
//    previous backtrace of the same stream plus the codewords of the rest. If the prefix
//    is longer than the previous (truncated) backtrace, memtrace still decodes the
//    codewords (to keep the cache in step) but returns the previous backtrace unchanged;
//    so do we.
// 6. Canonical decoding (BacktraceReader::CheckCanonical, for the identity copy): the
//    reader also keeps the encoder's dates and checks, codeword by codeword, that the
//    encoder would have written each one (point 3), so that a trace it accepts would be
//    encoded again into the same bytes.
// Threading: one state per stream (per domain); not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/memtrace/buf.h"
#include "core/memtrace/faults.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

inline constexpr int kCacheBits = 14;
inline constexpr std::uint32_t kCacheSize = 1u << kCacheBits;
inline constexpr std::uint32_t kCacheMask = kCacheSize - 1;
inline constexpr std::size_t kMaxBacktraceLength = 4096;  // bytes per encoded backtrace
inline constexpr std::uint16_t kVerifierFirstIndex = 4242;
inline constexpr std::uint16_t kVerifierStep = 5413;
inline constexpr std::uint16_t kDummyVerifierIndex = 0xffff;
// The slot the verifier after `ix` names.
constexpr std::uint16_t NextVerifierIndex(std::uint16_t ix) {
  return static_cast<std::uint16_t>((ix + kVerifierStep) & kCacheMask);
}

enum BacktraceTag : std::uint16_t { kHit0 = 0, kHit1 = 1, kHitN = 2, kMiss = 3 };

struct CacheVerifier {
  std::uint16_t ix = kDummyVerifierIndex;
  std::uint16_t pred = 0;
  std::uint64_t value = 0;
  friend bool operator==(const CacheVerifier&, const CacheVerifier&) = default;
};

// The two candidate buckets of a code (63-bit arithmetic, see ocaml_int.h).
constexpr std::uint32_t CacheHash1(OcamlInt code) {
  return static_cast<std::uint32_t>(OcamlLsr(OcamlMul(code, 0x4983723), 11)) & kCacheMask;
}
constexpr std::uint32_t CacheHash2(OcamlInt code) {
  return static_cast<std::uint32_t>(OcamlLsr(OcamlMul(code, 0xfdea731), 21)) & kCacheMask;
}

class BacktraceWriter {
 public:
  BacktraceWriter();
  // Encodes backtrace[first..] (caller first; memtrace walks its callee-first callstack
  // backwards, which is the same order) into `out` and returns the number of codewords.
  // `on_miss(i)` is called for every entry written as a miss. Stops early at the
  // 4096-byte limit.
  std::uint32_t Put(ByteWriter& out, OcamlInt alloc_id, std::span<const OcamlInt> backtrace,
                    std::size_t first, const std::function<void(std::size_t)>& on_miss);
  // Put for a hot caller that has checked kMaxBacktraceLength bytes are writable at `p`:
  // writes the same bytes there, sets `*ncodes`, appends the index of every miss to
  // `*misses` and returns the position after the codewords.
  std::uint8_t* PutUnchecked(std::uint8_t* p, OcamlInt alloc_id,
                             std::span<const OcamlInt> backtrace, std::size_t first,
                             std::uint32_t* ncodes, std::vector<std::size_t>* misses);
  // The verifier for the next event packet header (advances the index).
  CacheVerifier NextVerifier();

 private:
  // A hit codeword takes at most 2 + 1 bytes, a miss 2 + 8.
  static constexpr std::size_t kMaxEntryBytes = 2 + 8;
  // A miss of `code`: stores it in the bucket with the older date, points `predictor` at
  // it, writes the codeword; sets *bucket_out, returns the position after the codeword.
  [[gnu::noinline]] std::uint8_t* PutMiss(std::uint8_t* p, OcamlInt code, OcamlInt alloc_id,
                                          std::uint32_t predictor, std::uint32_t* bucket_out);
  static std::uint8_t* PutHit(std::uint8_t* p, std::uint32_t bucket, std::uint32_t ncorrect) {
    if (ncorrect <= 1) {
      StoreLe(p, static_cast<std::uint16_t>((bucket << 2) | ncorrect));
      return p + 2;
    }
    StoreLe(p, static_cast<std::uint16_t>((bucket << 2) | kHitN));
    p[2] = static_cast<std::uint8_t>(ncorrect);
    return p + 3;
  }
  // The cache as three arrays. Lookups and prediction checks read only `codes_` (128 KiB)
  // and `next_` (32 KiB), half the lines a code-and-date slot would touch; the dates are
  // written on a hit and read only on a miss.
  std::unique_ptr<OcamlInt[]> codes_;
  std::unique_ptr<OcamlInt[]> dates_;
  std::unique_ptr<std::uint16_t[]> next_;
  std::uint16_t next_verify_ix_ = kVerifierFirstIndex;
};

class BacktraceReader {
 public:
  BacktraceReader();
  // Decodes `nencoded` codewords after a common prefix of `common_prefix` entries. The
  // result (caller first) stays valid until the next call. On failure `in` holds it.
  // `alloc_id` (the allocation's object id) matters only to CheckCanonical. `Faults`:
  // faults.h.
  template <class Faults = NoFaults>
  std::span<const OcamlInt> Get(ByteReader& in, std::uint32_t nencoded, OcamlInt common_prefix,
                                OcamlInt alloc_id = 0) {
    std::span<const OcamlInt> bt;
    const std::uint8_t* p =
        checking_ ? GetAt<true, Faults>(in, in.cursor(), nencoded, common_prefix, alloc_id, &bt)
                  : GetAt<false, Faults>(in, in.cursor(), nencoded, common_prefix, alloc_id, &bt);
    if (p != nullptr) in.Advance(p);
    return bt;
  }
  // Get for a hot caller holding its position as a pointer: the codewords start at `p`
  // (in.cursor() <= p <= in.limit(); the cursor itself need not be there). Returns the
  // position after them, or nullptr when a check fails, after recording the error in `in`
  // (positioned at the failing field). Inline so that the position stays in a register.
  // kCanonical: CheckCanonical was called.
  template <bool kCanonical, class Faults = NoFaults>
  [[gnu::always_inline]] const std::uint8_t* GetAt(ByteReader& in, const std::uint8_t* p,
                                                   std::uint32_t nencoded, OcamlInt common_prefix,
                                                   OcamlInt alloc_id,
                                                   std::span<const OcamlInt>* bt) {
    if (nencoded != 0 && next_ == nullptr) [[unlikely]]
      AllocateCache();
    if (common_prefix >= 0 && static_cast<std::uint64_t>(common_prefix) <= last_.len) [[likely]] {
      if (kCanonical && canonical_)
        return GetCanonical<Faults>(in, p, nencoded, static_cast<std::size_t>(common_prefix),
                                    alloc_id, bt);
      last_.len = static_cast<std::size_t>(common_prefix);
      if (Roomy(in, p, nencoded, last_)) [[likely]]
        p = Decode<false, false, Faults>(in, p, nencoded, last_);
      else
        p = Decode<true, false, Faults>(in, p, nencoded, last_);
    } else {
      // A prefix longer than what we hold (the previous backtrace was truncated, or the
      // trace lies): decode to keep the cache in step, return the previous backtrace.
      // The writer never writes one.
      canonical_ = false;
      scratch_.len = 0;
      p = Decode<true, false, Faults>(in, p, nencoded, scratch_);
    }
    *bt = {last_.data.get(), last_.len};
    return p;
  }
  // From now on, also check that every backtrace decoded is coded exactly as
  // BacktraceWriter (fed the same backtraces and object ids) codes it: each entry in the
  // bucket the writer would pick, each prediction run as long as the writer makes it,
  // each miss code in full, the 4096-byte limit, and a common prefix that is the longest
  // one. Call before the first Get. canonical() stays true while that holds, and
  // misses() lists the codes the last backtrace wrote as misses (the writer's location
  // lookups). Checking stops at the first difference.
  void CheckCanonical() { canonical_ = checking_ = true; }
  bool canonical() const { return canonical_ || !checking_; }
  const std::vector<OcamlInt>& misses() const { return misses_; }
  // Skips `nencoded` codewords without touching the cache (memtrace's fast path).
  static void Skip(ByteReader& in, std::uint32_t nencoded);
  // Backtraces longer than this fail with kOutOfRange instead of growing without bound
  // (a common prefix lets every event extend the previous backtrace).
  void set_max_length(std::size_t n) { max_len_ = n; }
  // Buffer growth is charged to `*remaining` (entries), shared by every domain of a
  // trace, so that many domains with deep backtraces cannot hold more than `limit`
  // entries together (kResourceExhausted naming --max-held-frames). Not owned.
  void set_budget(std::uint64_t* remaining, std::uint64_t limit) {
    budget_ = remaining;
    budget_limit_ = limit;
  }
  bool Check(const CacheVerifier& v) const;
  // Slot `ix` (< kCacheSize) as a cache verifier states it.
  CacheVerifier Slot(std::uint16_t ix) const {
    if (next_ == nullptr) return {ix, 0, 0};  // all slots 0
    return {ix, next_[ix], static_cast<std::uint64_t>(loc_[ix])};
  }

 private:
  // A growable array without zero-filling (entries past `len` are garbage).
  struct Buffer {
    std::unique_ptr<OcamlInt[]> data;
    std::size_t cap = 0;
    std::size_t len = 0;
    // False (nothing changed) when growing to `n` would pass `*budget` (if any).
    bool Reserve(std::size_t n, std::uint64_t* budget);
  };
  // Each codeword adds at most 1 + 255 entries; Decode's fill may store 3 more past them.
  static constexpr std::size_t kMaxPerCodeword = 256 + 3;
  // Each codeword takes at most 2 + 8 bytes.
  static constexpr std::size_t kMaxCodewordBytes = 10;
  // Backtraces of at most this many codewords (almost all) may take the unchecked loop.
  static constexpr std::uint32_t kMaxRoomyCodewords = 64;
  // Whether no check in Decode can fail for these codewords, whatever they hold: they
  // fit in the packet at their largest and cannot pass max_len_. Then `out` is grown up
  // front (capacity only), so that Decode<false> needs no checks at all.
  [[gnu::always_inline]] bool Roomy(const ByteReader& in, const std::uint8_t* p,
                                    std::uint32_t nencoded, Buffer& out) {
    if (nencoded > kMaxRoomyCodewords) return false;
    if (static_cast<std::size_t>(in.limit() - p) < nencoded * kMaxCodewordBytes) return false;
    if (out.len + std::size_t{nencoded} * 256 > max_len_) return false;
    const std::size_t need = out.len + std::size_t{nencoded} * kMaxPerCodeword;
    return need <= out.cap || out.Reserve(need, budget_);
  }
  // What stopped Decode early; DecodeFailed records it in the ByteReader.
  enum class Failure : std::uint8_t { kCodeword, kHitNCount, kMissCode, kTooLong, kBudget };
  // kChecked = false only after Roomy said yes. kCanonical: also the checks of
  // CheckCanonical, codeword by codeword (CanonicalStep).
  template <bool kChecked, bool kCanonical, class Faults>
  [[gnu::always_inline]] const std::uint8_t* Decode(ByteReader& in, const std::uint8_t* p,
                                                    std::uint32_t nencoded, Buffer& out);
  // GetAt's work while CheckCanonical holds.
  template <class Faults>
  [[gnu::always_inline]] const std::uint8_t* GetCanonical(ByteReader& in, const std::uint8_t* p,
                                                          std::uint32_t nencoded,
                                                          std::size_t common, OcamlInt alloc_id,
                                                          std::span<const OcamlInt>* bt) {
    // The writer's common prefix is the longest: the entry after it differs.
    const bool shorter = common < last_.len;
    const OcamlInt previous = shorter ? last_.data[common] : 0;
    last_.len = common;
    alloc_id_ = alloc_id;
    misses_.clear();
    if (Roomy(in, p, nencoded, last_)) [[likely]]
      p = Decode<false, true, Faults>(in, p, nencoded, last_);
    else
      p = Decode<true, true, Faults>(in, p, nencoded, last_);
    if (p != nullptr && shorter && last_.len > common && last_.data[common] == previous)
      canonical_ = false;
    *bt = {last_.data.get(), last_.len};
    return p;
  }
  // The writer codes another entry of a backtrace while it has written at most this
  // many bytes of it.
  static constexpr std::size_t kCanonicalLimit = kMaxBacktraceLength - 10;
  // Whether the writer would write this codeword (every case; Decode checks the common
  // one inline): at `rel` bytes into the backtrace,
  // `tag` in `bucket` for `code` (a miss's 8 bytes: `raw`) with `npredicted` more, the
  // `last` one. It follows a hit with `prev_run` predictions (-1: at the start, or after
  // a miss) whose last bucket predicted `predicted`. Called before the codeword changes
  // loc_ (next_ of that bucket excepted).
  [[gnu::noinline]] bool CanonicalStep(std::uint32_t predicted, int prev_run, std::uint32_t bucket,
                                       std::uint32_t tag, OcamlInt code, std::uint64_t raw,
                                       std::size_t rel, std::uint32_t npredicted, bool last);
  [[gnu::cold, gnu::noinline]] void DecodeFailed(ByteReader& in, const std::uint8_t* at,
                                                 Failure why) const;
  // Allocates the cache (zeroed) on the first codeword: a trace without backtraces, or a
  // `check` of an empty one, never pays for its 160 KiB. Until then every slot reads 0.
  [[gnu::cold, gnu::noinline]] void AllocateCache();
  // The cache as two arrays: following a prediction chain is a run of dependent loads
  // through `next_` alone (2 bytes a slot, 32 KiB in all, so it stays in L1), while the
  // codes it yields are independent loads from `loc_` that overlap with the chain.
  std::unique_ptr<std::uint16_t[]> next_;
  std::unique_ptr<OcamlInt[]> loc_;
  Buffer last_;
  Buffer scratch_;
  // CheckCanonical: the writer's dates (the object id that last used each slot), the
  // misses of the last backtrace, the allocation being decoded.
  bool checking_ = false;
  bool canonical_ = false;
  std::unique_ptr<OcamlInt[]> dates_;
  std::vector<OcamlInt> misses_;
  OcamlInt alloc_id_ = 0;
  std::size_t max_len_ = std::size_t{1} << 20;
  std::uint64_t* budget_ = nullptr;
  std::uint64_t budget_limit_ = 0;
};

// Hot loop: raw pointers checked against the end of the packet, the output length and
// capacity in registers; `out.len` is stored once at the end, or at the failing field on
// error.
template <bool kChecked, bool kCanonical, class Faults>
inline const std::uint8_t* BacktraceReader::Decode(ByteReader& in, const std::uint8_t* p,
                                                   std::uint32_t nencoded, Buffer& out) {
  const std::uint8_t* const start = p;
  int prev_run = -1;
  const std::uint8_t* const end = in.limit();
  std::uint16_t* const next = next_.get();
  OcamlInt* const loc = loc_.get();
  OcamlInt* data = out.data.get();
  std::size_t len = out.len;
  std::size_t cap = out.cap;
  const std::size_t max_len = max_len_;
  std::uint32_t prev = 0;
  for (std::uint32_t i = 0; i < nencoded; ++i) {
    if (kChecked && end - p < 2) [[unlikely]] {
      out.len = len;
      DecodeFailed(in, p, Failure::kCodeword);
      return nullptr;
    }
    const std::uint32_t codeword = LoadLe<std::uint16_t>(p);
    p += 2;
    if (kChecked && len + kMaxPerCodeword > cap) [[unlikely]] {
      out.len = len;
      if (!out.Reserve(len + kMaxPerCodeword, budget_)) {
        DecodeFailed(in, p - 2, Failure::kBudget);
        return nullptr;
      }
      data = out.data.get();
      cap = out.cap;
    }
    const std::uint32_t bucket = Faults::Bucket(codeword >> 2, codeword);
    // The prediction the writer would have followed from the previous run's end.
    [[maybe_unused]] const std::uint32_t predicted = kCanonical ? next[prev] : 0;
    const std::uint32_t tag = Faults::Tag(codeword & 3);
    Faults::Predict(next, prev, bucket, tag);
    std::uint32_t npredicted;
    if (tag == kMiss) [[unlikely]] {
      if (kChecked && end - p < 8) [[unlikely]] {
        out.len = len;
        DecodeFailed(in, p, Failure::kMissCode);
        return nullptr;
      }
      if (kChecked && len + 1 > max_len) [[unlikely]] {
        out.len = len;
        DecodeFailed(in, p - 2, Failure::kTooLong);
        return nullptr;
      }
      const std::uint64_t raw = LoadLe<std::uint64_t>(p);
      const OcamlInt lit = OcamlIntOfInt64(raw);
      if constexpr (kCanonical) {
        if (canonical_ &&
            !CanonicalStep(predicted, prev_run, bucket, tag, lit, raw,
                           static_cast<std::size_t>(p - 2 - start), 0, i + 1 == nencoded))
          canonical_ = false;
        misses_.push_back(lit);
        prev_run = -1;
      }
      p += 8;
      if (Faults::kMissStores) loc[bucket] = lit;
      data[len++] = lit;
      prev = bucket;
      continue;
    }
    if (tag == kHitN) {
      if (kChecked && end - p < 1) [[unlikely]] {
        out.len = len;
        DecodeFailed(in, p, Failure::kHitNCount);
        return nullptr;
      }
      npredicted = Faults::HitNCount(*p++);
    } else {
      npredicted = tag;  // hit0 or hit1
    }
    if (kChecked && len + 1 + npredicted > max_len) [[unlikely]] {
      out.len = len;
      DecodeFailed(in, p - 2 - (tag == kHitN), Failure::kTooLong);
      return nullptr;
    }
    if constexpr (kCanonical) {
      if (canonical_) {
        const OcamlInt code = loc[bucket];
        const auto rel = static_cast<std::size_t>(p - 2 - (tag == kHitN) - start);
        // The common case inline: a hit looked up by hash (not a block after a full
        // one), with room for its predictions. It must be the first of the code's two
        // buckets that holds it, and not the entry the previous run would have reached.
        const std::uint32_t h1 = CacheHash1(code);
        const bool plain =
            prev_run < 255 && rel + 2 <= kCanonicalLimit && (tag != kHitN || npredicted >= 2);
        if (plain && (loc[h1] == code ? h1 : CacheHash2(code)) == bucket &&
            (prev_run < 0 || loc[predicted] != code)) [[likely]]
          dates_[bucket] = alloc_id_;
        else if (plain || !CanonicalStep(predicted, prev_run, bucket, tag, code, 0, rel, npredicted,
                                         i + 1 == nencoded))
          canonical_ = false;
      }
      prev_run = static_cast<int>(npredicted);
    }
    OcamlInt* const dst = data + len;
    std::uint32_t b = bucket;
    dst[0] = loc[b];
    for (std::uint32_t n = 1; n <= npredicted; ++n) {
      const std::uint32_t following = next[b];
      if (following == b) [[unlikely]] {
        // A bucket predicting itself (deep recursion): the rest of the run repeats it.
        // Four at a time; the stores past the run land in reserved, unused capacity.
        const OcamlInt same = loc[b];
        for (OcamlInt* q = dst + n; q < dst + npredicted + 1; q += 4) {
          q[0] = same;
          q[1] = same;
          q[2] = same;
          q[3] = same;
        }
        break;
      }
      b = following;
      dst[n] = loc[b];
    }
    prev = Faults::RunEnd(b, bucket);
    len += 1 + npredicted;
  }
  out.len = len;
  return p;
}

}  // namespace mpo::memtrace
