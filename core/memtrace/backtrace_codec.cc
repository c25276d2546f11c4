#include "core/memtrace/backtrace_codec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

static_assert(std::endian::native == std::endian::little,
              "the backtrace decoder loads little-endian words directly");

namespace mpo::memtrace {

BacktraceWriter::BacktraceWriter()
    : codes_(std::make_unique<OcamlInt[]>(kCacheSize)),
      dates_(std::make_unique<OcamlInt[]>(kCacheSize)),
      next_(std::make_unique<std::uint16_t[]>(kCacheSize)) {}

std::uint32_t BacktraceWriter::Put(ByteWriter& out, OcamlInt alloc_id, std::span<const OcamlInt> bt,
                                   std::size_t first,
                                   const std::function<void(std::size_t)>& on_miss) {
  // The byte limit is relative to where the backtrace starts, so coding into a scratch
  // buffer gives the same bytes whatever room `out` has; `out` then takes them checked.
  std::array<std::uint8_t, kMaxBacktraceLength> scratch;
  std::vector<std::size_t> misses;
  std::uint32_t ncodes = 0;
  const std::uint8_t* end = PutUnchecked(scratch.data(), alloc_id, bt, first, &ncodes, &misses);
  out.Bytes({scratch.data(), static_cast<std::size_t>(end - scratch.data())});
  for (const std::size_t i : misses) on_miss(i);
  return ncodes;
}

std::uint8_t* BacktraceWriter::PutUnchecked(std::uint8_t* p, OcamlInt alloc_id,
                                            std::span<const OcamlInt> bt, std::size_t first,
                                            std::uint32_t* ncodes_out,
                                            std::vector<std::size_t>* misses) {
  constexpr std::size_t kMaxEntry = 2 + 8;
  // Coding goes on while p <= limit, and one entry takes at most kMaxEntry bytes, so
  // nothing is written past p + kMaxBacktraceLength.
  const std::uint8_t* const limit = p + (kMaxBacktraceLength - kMaxEntry);
  OcamlInt* const cached = codes_.get();
  OcamlInt* const dates = dates_.get();
  std::uint16_t* const next = next_.get();
  const OcamlInt* const codes = bt.data();
  const std::size_t n = bt.size();
  std::uint32_t ncodes = 0;
  std::uint32_t predictor = 0;
  std::size_t i = first;
  // The state machine of memtrace's code_no_prediction / code_cache_hit /
  // code_with_prediction, as loops (backtraces can be thousands of frames deep).
  while (true) {
    // code_no_prediction
    if (i >= n || p > limit) break;
    const OcamlInt code = codes[i];
    const std::uint32_t h1 = CacheHash1(code);
    const std::uint32_t h2 = CacheHash2(code);
    std::uint32_t hit;
    if (cached[h1] == code) {
      hit = h1;
    } else if (cached[h2] == code) {
      hit = h2;
    } else {
      misses->push_back(i);
      const std::uint32_t bucket = dates[h1] < dates[h2] ? h1 : h2;
      cached[bucket] = code;
      dates[bucket] = alloc_id;
      next[predictor] = static_cast<std::uint16_t>(bucket);
      StoreLe(p, static_cast<std::uint16_t>((bucket << 2) | kMiss));
      StoreLe(p + 2, static_cast<std::uint64_t>(code));
      p += kMaxEntry;
      predictor = bucket;
      ++i;
      ++ncodes;
      continue;
    }
    // code_cache_hit, repeated when a prediction block overflows at 255.
    while (true) {
      // The position does not move while predictions are counted: one room check a block.
      const bool room = p + 2 <= limit;
      dates[hit] = alloc_id;
      next[predictor] = static_cast<std::uint16_t>(hit);
      ++ncodes;
      ++i;
      std::uint32_t pred = hit;
      std::uint32_t ncorrect = 0;
      // code_with_prediction
      if (room) {
        // Follows the prediction chain while it matches, for at most 255 entries; only
        // the chain through `next` is a dependent load.
        const OcamlInt* q = codes + i;
        const OcamlInt* const stop = q + std::min<std::size_t>(n - i, 255);
        while (q < stop) {
          const std::uint32_t pb = next[pred];
          if (cached[pb] != *q) break;
          pred = pb;
          ++q;
        }
        ncorrect = static_cast<std::uint32_t>(q - (codes + i));
        i = static_cast<std::size_t>(q - codes);
      }
      p = PutHit(p, hit, ncorrect);
      if (!room || i >= n) {
        *ncodes_out = ncodes;
        return p;
      }
      predictor = pred;
      // A full block whose next entry is predicted too starts a new block at it.
      if (ncorrect == 255 && cached[next[pred]] == codes[i]) {
        hit = next[pred];
        continue;
      }
      break;
    }
  }
  *ncodes_out = ncodes;
  return p;
}

CacheVerifier BacktraceWriter::NextVerifier() {
  CacheVerifier v;
  v.ix = next_verify_ix_;
  next_verify_ix_ = NextVerifierIndex(next_verify_ix_);
  v.pred = next_[v.ix];
  v.value = static_cast<std::uint64_t>(codes_[v.ix]);
  return v;
}

BacktraceReader::BacktraceReader() = default;

void BacktraceReader::AllocateCache() {
  next_ = std::make_unique<std::uint16_t[]>(kCacheSize);
  loc_ = std::make_unique<OcamlInt[]>(kCacheSize);
  if (checking_) dates_ = std::make_unique<OcamlInt[]>(kCacheSize);
}

// BacktraceWriter::PutUnchecked's choices, from the codeword's side.
bool BacktraceReader::CanonicalStep(std::uint32_t predicted, int prev_run, std::uint32_t bucket,
                                    std::uint32_t tag, OcamlInt code, std::uint64_t raw,
                                    std::size_t rel, std::uint32_t npredicted, bool last) {
  constexpr std::size_t kLimit = kCanonicalLimit;
  const OcamlInt* const loc = loc_.get();
  std::uint32_t want;
  bool miss = false;
  if (prev_run == 255 && loc[predicted] == code) {
    // A full block whose next entry is predicted too starts a new block there.
    want = predicted;
  } else {
    if (rel > kLimit) return false;
    // A run that stopped early stopped at an entry the cache did not predict.
    if (prev_run >= 0 && prev_run < 255 && loc[predicted] == code) return false;
    const std::uint32_t h1 = CacheHash1(code);
    const std::uint32_t h2 = CacheHash2(code);
    if (loc[h1] == code) {
      want = h1;
    } else if (loc[h2] == code) {
      want = h2;
    } else {
      miss = true;
      want = dates_[h1] < dates_[h2] ? h1 : h2;
    }
  }
  if (bucket != want || (tag == kMiss) != miss) return false;
  if (miss) {
    if (raw != static_cast<std::uint64_t>(code)) return false;
  } else {
    // hitN only for two predictions or more; without room for predictions, a lone last hit.
    if (tag == kHitN && npredicted < 2) return false;
    if (rel + 2 > kLimit && (npredicted != 0 || !last)) return false;
  }
  dates_[bucket] = alloc_id_;
  return true;
}

bool BacktraceReader::Buffer::Reserve(std::size_t n, std::uint64_t* budget) {
  if (n <= cap) return true;
  std::size_t new_cap = std::max(n, cap * 2 + 64);
  if (budget != nullptr) {
    if (new_cap - cap > *budget) new_cap = n;  // no headroom: exactly what is needed
    if (new_cap - cap > *budget) return false;
    *budget -= new_cap - cap;
  }
  auto d = std::make_unique_for_overwrite<OcamlInt[]>(new_cap);
  if (len > 0) std::memcpy(d.get(), data.get(), len * sizeof(OcamlInt));
  data = std::move(d);
  cap = new_cap;
  return true;
}

void BacktraceReader::DecodeFailed(ByteReader& in, const std::uint8_t* at, Failure why) const {
  in.Advance(at);
  switch (why) {
    case Failure::kCodeword: in.U16("backtrace: codeword"); return;
    case Failure::kHitNCount: in.U8("backtrace: hitN count"); return;
    case Failure::kMissCode: in.U64("backtrace: miss code"); return;
    case Failure::kTooLong:
      in.Fail(Status(ErrorCode::kOutOfRange,
                     "backtrace longer than " + std::to_string(max_len_) + " entries")
                  .WithField("backtrace: codeword"));
      return;
    case Failure::kBudget:
      in.Fail(LimitExceeded("backtrace entries held by all domains", budget_limit_,
                            "--max-held-frames"));
      return;
  }
}

void BacktraceReader::Skip(ByteReader& in, std::uint32_t nencoded) {
  const std::uint8_t* p = in.cursor();
  const std::uint8_t* const end = in.limit();
  for (std::uint32_t i = 0; i < nencoded; ++i) {
    if (end - p < 2) [[unlikely]] {
      in.Advance(p);
      in.U16("backtrace: codeword");
      return;
    }
    const unsigned tag = p[0] & 3;
    p += 2;
    if (tag == kHitN) {
      if (end - p < 1) [[unlikely]] {
        in.Advance(p);
        in.Skip(1, "backtrace: hitN count");
        return;
      }
      p += 1;
    } else if (tag == kMiss) {
      if (end - p < 8) [[unlikely]] {
        in.Advance(p);
        in.Skip(8, "backtrace: miss code");
        return;
      }
      p += 8;
    }
  }
  in.Advance(p);
}

bool BacktraceReader::Check(const CacheVerifier& v) const {
  if (v.ix == kDummyVerifierIndex) return true;
  if (v.ix >= kCacheSize) return false;
  if (next_ == nullptr) return v.pred == 0 && OcamlIntOfInt64(v.value) == 0;  // all slots 0
  return next_[v.ix] == v.pred && loc_[v.ix] == OcamlIntOfInt64(v.value);
}

}  // namespace mpo::memtrace
