// A keyed digest of a byte stream, for the identity copy (trace_copy.cc) to prove that the
// bytes it wrote are the bytes it checked, although two threads read them from a file that
// someone may change meanwhile. A polynomial hash over 7-byte words modulo the prime
// 2^61 - 1, at two random points: for any two different streams of the same length chosen
// without knowing the key, they collide with probability below (length / 7 / 2^61)^2.
// Not a cryptographic hash: the key is what an adversary does not know.
#pragma once

#include <cstdint>
#include <span>

namespace mpo::memtrace {

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

}  // namespace mpo::memtrace
