// A keyed digest of a byte stream, to prove that bytes read twice are the same although
// someone may change the file between the reads: the identity copy
// (core/memtrace/trace_copy.cc) writes exactly the bytes it checked, and corpus check
// trusts no expected file an implementation could have rewritten. A polynomial hash over
// 7-byte words modulo the prime 2^61 - 1, at two random points: two different streams of
// the same length chosen without knowing the key collide with probability below
// (length / 7 / 2^61)^2. Not a cryptographic hash: the key is what an adversary lacks.
#pragma once

#include <cstdint>
#include <span>

namespace mpo {

class StreamDigest {
 public:
  struct Key {
    std::uint64_t a = 0, b = 0;  // each in [1, 2^61 - 2]
  };
  // A key from std::random_device.
  static Key RandomKey();

  explicit StreamDigest(Key key) : key_(key) {}
  void Update(std::span<const std::uint8_t> bytes);
  // The digest of everything given so far (the stream's length included).
  bool operator==(const StreamDigest& o) const;
  std::uint64_t length() const { return length_; }

 private:
  void Word(std::uint64_t w);

  Key key_;
  std::uint64_t ha_ = 0, hb_ = 0, length_ = 0;
  std::uint64_t partial_ = 0;  // the bytes of an unfinished word, lowest first
  unsigned partial_bytes_ = 0;
};

}  // namespace mpo
