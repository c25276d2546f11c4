#include "core/base/stream_digest.h"

#include <random>

namespace mpo {
namespace {

constexpr std::uint64_t kPrime = (std::uint64_t{1} << 61) - 1;

std::uint64_t MulMod(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 x = static_cast<unsigned __int128>(a) * b;
  std::uint64_t r = (static_cast<std::uint64_t>(x) & kPrime) + static_cast<std::uint64_t>(x >> 61);
  r = (r & kPrime) + (r >> 61);
  return r >= kPrime ? r - kPrime : r;
}

std::uint64_t AddMod(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t r = a + b;  // both below 2^61: no overflow
  return r >= kPrime ? r - kPrime : r;
}

}  // namespace

StreamDigest::Key StreamDigest::RandomKey() {
  std::random_device rd;
  auto draw = [&rd] {
    const std::uint64_t v = (std::uint64_t{rd()} << 32) ^ rd();
    return 1 + v % (kPrime - 2);
  };
  Key k;
  k.a = draw();
  k.b = draw();
  return k;
}

// A word is 7 bytes (below 2^56 < 2^61 - 1), so different words stay different mod p.
void StreamDigest::Word(std::uint64_t w) {
  ha_ = AddMod(MulMod(ha_, key_.a), w);
  hb_ = AddMod(MulMod(hb_, key_.b), w);
}

void StreamDigest::Update(std::span<const std::uint8_t> bytes) {
  length_ += bytes.size();
  std::size_t i = 0;
  while (partial_bytes_ != 0 && i < bytes.size()) {
    partial_ |= std::uint64_t{bytes[i++]} << (8 * partial_bytes_);
    if (++partial_bytes_ == 7) {
      Word(partial_);
      partial_ = 0;
      partial_bytes_ = 0;
    }
  }
  for (; i + 7 <= bytes.size(); i += 7) {
    std::uint64_t w = 0;
    for (unsigned k = 0; k < 7; ++k) w |= std::uint64_t{bytes[i + k]} << (8 * k);
    Word(w);
  }
  for (; i < bytes.size(); ++i) partial_ |= std::uint64_t{bytes[i]} << (8 * partial_bytes_++);
}

bool StreamDigest::operator==(const StreamDigest& o) const {
  // Equal lengths make the zero-padded last words comparable.
  return length_ == o.length_ && ha_ == o.ha_ && hb_ == o.hb_ && partial_ == o.partial_ &&
         partial_bytes_ == o.partial_bytes_ && key_.a == o.key_.a && key_.b == o.key_.b;
}

}  // namespace mpo
