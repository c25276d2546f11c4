#include "core/memtrace/backtrace_codec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "core/base/uninit_array.h"

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

std::uint8_t* BacktraceWriter::PutMiss(std::uint8_t* p, OcamlInt code, OcamlInt alloc_id,
                                       std::uint32_t predictor, std::uint32_t* bucket_out) {
  const std::uint32_t h1 = CacheHash1(code);
  const std::uint32_t h2 = CacheHash2(code);
  const std::uint32_t bucket = dates_[h1] < dates_[h2] ? h1 : h2;
  codes_[bucket] = code;
  dates_[bucket] = alloc_id;
  next_[predictor] = static_cast<std::uint16_t>(bucket);
  StoreLe(p, static_cast<std::uint16_t>((bucket << 2) | kMiss));
  StoreLe(p + 2, static_cast<std::uint64_t>(code));
  *bucket_out = bucket;
  return p + kMaxEntryBytes;
}

std::uint8_t* BacktraceWriter::PutUnchecked(std::uint8_t* p, OcamlInt alloc_id,
                                            std::span<const OcamlInt> bt, std::size_t first,
                                            std::uint32_t* ncodes_out,
                                            std::vector<std::size_t>* misses) {
  // Coding goes on while p <= limit, and one entry takes at most kMaxEntryBytes, so
  // nothing is written past p + kMaxBacktraceLength.
  const std::uint8_t* const limit = p + (kMaxBacktraceLength - kMaxEntryBytes);
  const OcamlInt* const cached = codes_.get();
  OcamlInt* const dates = dates_.get();
  std::uint16_t* const next = next_.get();
  const OcamlInt* q = bt.data() + first;
  const OcamlInt* const end = bt.data() + bt.size();
  std::uint32_t ncodes = 0;
  std::uint32_t predictor = 0;
  // The state machine of memtrace's code_no_prediction / code_cache_hit /
  // code_with_prediction, as loops over pointers (backtraces can be thousands of frames
  // deep); the rare miss is out of line, so that the hits keep their values in registers.
  while (q < end && p <= limit) {
    // code_no_prediction
    const OcamlInt code = *q;
    std::uint32_t hit = CacheHash1(code);
    if (cached[hit] != code) [[unlikely]] {
      hit = CacheHash2(code);
      if (cached[hit] != code) {
        misses->push_back(static_cast<std::size_t>(q - bt.data()));
        p = PutMiss(p, code, alloc_id, predictor, &predictor);
        ++q;
        ++ncodes;
        continue;
      }
    }
    // code_cache_hit, repeated when a prediction block fills up at 255.
    while (true) {
      dates[hit] = alloc_id;
      next[predictor] = static_cast<std::uint16_t>(hit);
      ++ncodes;
      ++q;
      if (p + 2 > limit) {
        // No room to count predictions: the entry alone, and the backtrace ends here.
        p = PutHit(p, hit, 0);
        *ncodes_out = ncodes;
        return p;
      }
      // code_with_prediction: follows the prediction chain while it matches, for at most
      // 255 entries; only the chain through `next` is a dependent load.
      const OcamlInt* const run = q;
      const OcamlInt* const stop = q + std::min<std::ptrdiff_t>(end - q, 255);
      std::uint32_t pred = hit;
      while (q < stop) {
        const std::uint32_t pb = next[pred];
        if (cached[pb] != *q) break;
        pred = pb;
        ++q;
      }
      const auto ncorrect = static_cast<std::uint32_t>(q - run);
      p = PutHit(p, hit, ncorrect);
      predictor = pred;
      // A full block whose next entry is predicted too starts a new block at it.
      if (ncorrect != 255 || q >= end || cached[next[pred]] != *q) break;
      hit = next[pred];
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
  auto d = MakeUninitArray<OcamlInt>(new_cap);
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
