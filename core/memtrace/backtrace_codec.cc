#include "core/memtrace/backtrace_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>

static_assert(std::endian::native == std::endian::little,
              "the backtrace decoder loads little-endian words directly");

namespace mpo::memtrace {

BacktraceWriter::BacktraceWriter()
    : cache_(kCacheSize, 0), date_(kCacheSize, 0), next_(kCacheSize, 0) {}

std::uint32_t BacktraceWriter::Put(ByteWriter& out, OcamlInt alloc_id, std::span<const OcamlInt> bt,
                                   std::size_t first,
                                   const std::function<void(std::size_t)>& on_miss) {
  constexpr std::size_t kMaxEntry = 2 + 8;
  const std::size_t limit = out.pos() + kMaxBacktraceLength - kMaxEntry;
  const std::size_t n = bt.size();
  std::uint32_t ncodes = 0;
  std::uint32_t predictor = 0;
  std::size_t i = first;
  // The state machine of memtrace's code_no_prediction / code_cache_hit /
  // code_with_prediction, as loops (backtraces can be thousands of frames deep).
  while (true) {
    // code_no_prediction
    if (i >= n || out.pos() > limit) return ncodes;
    const OcamlInt slot = bt[i];
    const std::uint32_t h1 = CacheHash1(slot);
    const std::uint32_t h2 = CacheHash2(slot);
    std::uint32_t hit;
    if (cache_[h1] == slot) {
      hit = h1;
    } else if (cache_[h2] == slot) {
      hit = h2;
    } else {
      on_miss(i);
      const std::uint32_t bucket = date_[h1] < date_[h2] ? h1 : h2;
      cache_[bucket] = slot;
      date_[bucket] = alloc_id;
      next_[predictor] = static_cast<std::uint16_t>(bucket);
      out.U16(static_cast<std::uint16_t>((bucket << 2) | kMiss));
      out.U64(static_cast<std::uint64_t>(slot));
      predictor = bucket;
      ++i;
      ++ncodes;
      continue;
    }
    // code_cache_hit, repeated when a prediction block overflows at 255
    while (true) {
      date_[hit] = alloc_id;
      next_[predictor] = static_cast<std::uint16_t>(hit);
      ++ncodes;
      ++i;
      const std::uint32_t orig_hit = hit;
      std::uint32_t pred = hit;
      std::uint32_t ncorrect = 0;
      bool overflow = false;
      // code_with_prediction
      while (true) {
        if (i >= n || out.pos() + 2 > limit) {
          PutHit(out, orig_hit, ncorrect);
          return ncodes;
        }
        const std::uint32_t pb = next_[pred];
        if (cache_[pb] != bt[i]) {
          PutHit(out, orig_hit, ncorrect);
          predictor = pred;
          break;
        }
        if (ncorrect == 255) {
          PutHit(out, orig_hit, ncorrect);
          predictor = pred;
          hit = pb;
          overflow = true;
          break;
        }
        pred = pb;
        ++ncorrect;
        ++i;
      }
      if (!overflow) break;
    }
  }
}

CacheVerifier BacktraceWriter::NextVerifier() {
  CacheVerifier v;
  v.ix = next_verify_ix_;
  next_verify_ix_ = static_cast<std::uint16_t>((next_verify_ix_ + kVerifierStep) & kCacheMask);
  v.pred = next_[v.ix];
  v.value = static_cast<std::uint64_t>(cache_[v.ix]);
  return v;
}

BacktraceReader::BacktraceReader()
    : next_(std::make_unique<std::uint16_t[]>(kCacheSize)),
      loc_(std::make_unique<OcamlInt[]>(kCacheSize)) {}

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
  return v.ix < kCacheSize && next_[v.ix] == v.pred && loc_[v.ix] == OcamlIntOfInt64(v.value);
}

}  // namespace mpo::memtrace
