// Byte cursors for the memtrace CTF format (mirrors memtrace's Buf.Read / Buf.Write).
//
// 1. Reading. `ByteReader` walks a span of little-endian bytes. Like LLVM's
//    DataExtractor::Cursor it keeps a sticky error: the first read that would run past
//    the end records a kTruncated Status naming the field and the absolute byte offset,
//    leaves the position at that field, and every later read returns 0 without moving.
//    One check of `ok()` after a run of reads covers them all. It never reads outside
//    the span, whatever the input.
// 2. Writing. `ByteWriter` fills a fixed-capacity buffer (a packet). A write that does
//    not fit records kOutOfRange and writes nothing; `Update*` patches fields reserved
//    earlier with `Skip*` (packet sizes, timestamps, backtrace lengths).
// 3. Integers. Fixed-width fields are little-endian. `vint` is memtrace's variable-length
//    integer: one byte 0..252, or a tag byte 253/254/255 followed by u16 / i32 / u64.
//    Values are OCaml ints (see ocaml_int.h): a 254 payload is sign-extended, a 255
//    payload keeps 63 bits.
// 4. Strings are NUL-terminated; a string written with an embedded NUL is cut there, as
//    memtrace does.
// These are hot paths (every event field goes through them), so they live in the header.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/base/uninit_array.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

static_assert(std::endian::native == std::endian::little,
              "fields are loaded and stored little-endian directly");

// The little-endian field of type T at `p`, in one load.
template <class T>
T LoadLe(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// memtrace's vint (ByteReader::Vint without its checks) for a caller that knows at least
// 9 bytes are readable at `p`; advances `p` past it.
[[gnu::always_inline]] inline OcamlInt VintUnchecked(const std::uint8_t*& p) {
  const std::uint8_t tag = p[0];
  if (tag < 253) [[likely]] {
    p += 1;
    return tag;
  }
  OcamlInt v;
  if (tag == 253) {
    v = LoadLe<std::uint16_t>(p + 1);
    p += 3;
  } else if (tag == 254) {
    v = static_cast<std::int32_t>(LoadLe<std::uint32_t>(p + 1));
    p += 5;
  } else {
    v = OcamlIntOfInt64(LoadLe<std::uint64_t>(p + 1));
    p += 9;
  }
  return v;
}

// Stores `v` little-endian at `p`, in one store.
template <class T>
void StoreLe(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// memtrace's vint (ByteWriter::Vint without its checks) for a caller that knows at least
// 9 bytes are writable at `p`; returns the position after it.
inline std::uint8_t* PutVintUnchecked(std::uint8_t* p, OcamlInt v) {
  if (0 <= v && v <= 252) [[likely]] {
    *p = static_cast<std::uint8_t>(v);
    return p + 1;
  }
  if (v == (v & 0xffff)) {
    p[0] = 253;
    StoreLe(p + 1, static_cast<std::uint16_t>(v));
    return p + 3;
  }
  if (v == static_cast<std::int32_t>(v)) {
    p[0] = 254;
    StoreLe(p + 1, static_cast<std::uint32_t>(v));
    return p + 5;
  }
  p[0] = 255;
  StoreLe(p + 1, static_cast<std::uint64_t>(v));
  return p + 9;
}

// Whether the vint at `p`, which reads as `v`, is the form PutVintUnchecked writes: the
// shortest, and for a 255 payload the 64 bits OCaml's 63-bit int gives.
inline bool VintIsCanonical(const std::uint8_t* p, OcamlInt v) {
  switch (p[0]) {
    case 253: return v > 252;
    case 254: return v < 0 || v > 0xffff;
    case 255:
      return v != static_cast<std::int32_t>(v) &&
             LoadLe<std::uint64_t>(p + 1) == static_cast<std::uint64_t>(v);
    default: return true;
  }
}

// The checked cursor. The event decoder (trace_reader_impl.h) is written once over a
// cursor type: this one, or UncheckedReader below, told apart by kChecked.
class ByteReader {
 public:
  static constexpr bool kChecked = true;
  ByteReader() = default;
  // `base_offset` is the absolute file offset of data[0], used in error offsets.
  ByteReader(std::span<const std::uint8_t> data, std::uint64_t base_offset)
      : data_(data.data()), size_(data.size()), base_(base_offset) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  std::size_t remaining() const { return size_ - pos_; }
  std::size_t pos() const { return pos_; }
  std::uint64_t offset() const { return base_ + pos_; }
  std::uint64_t OffsetOf(std::size_t pos) const { return base_ + pos; }
  // The absolute offset of `p`, a position in this cursor's span.
  std::uint64_t OffsetAt(const std::uint8_t* p) const {
    return base_ + static_cast<std::uint64_t>(p - data_);
  }

  // Records `s` (with this cursor's current offset unless it carries one) if no error is
  // recorded yet; later reads do nothing.
  void Fail(Status s) {
    if (!status_.ok()) return;
    if (!s.byte_offset()) s.AtOffset(offset());
    status_ = std::move(s);
    size_ = pos_;
  }

  std::uint8_t U8(const char* field) {
    if (!Need(1, field)) return 0;
    return data_[pos_++];
  }
  std::uint16_t U16(const char* field) {
    if (!Need(2, field)) return 0;
    const auto v = LoadLe<std::uint16_t>(data_ + pos_);
    pos_ += 2;
    return v;
  }
  std::uint32_t U32(const char* field) {
    if (!Need(4, field)) return 0;
    const auto v = LoadLe<std::uint32_t>(data_ + pos_);
    pos_ += 4;
    return v;
  }
  std::uint64_t U64(const char* field) {
    if (!Need(8, field)) return 0;
    const auto v = LoadLe<std::uint64_t>(data_ + pos_);
    pos_ += 8;
    return v;
  }
  double Float(const char* field) {
    std::uint64_t bits = U64(field);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  OcamlInt Vint(const char* field) {
    std::uint8_t tag = U8(field);
    if (tag < 253) return tag;
    switch (tag) {
      case 253: return U16(field);
      case 254: return static_cast<std::int32_t>(U32(field));
      default: return OcamlIntOfInt64(U64(field));
    }
  }
  // The bytes up to the next NUL (which is consumed). A missing NUL is kTruncated at the
  // string's first byte.
  std::string_view String(const char* field) {
    if (!ok()) return {};
    // (memchr on an empty range may get a null data_, which it does not accept)
    const void* nul = pos_ < size_ ? std::memchr(data_ + pos_, 0, size_ - pos_) : nullptr;
    if (nul == nullptr) {
      Fail(Status(ErrorCode::kTruncated, "string is not NUL-terminated before the end")
               .WithField(field)
               .AtOffset(offset()));
      return {};
    }
    std::size_t len = static_cast<const std::uint8_t*>(nul) - (data_ + pos_);
    std::string_view s(reinterpret_cast<const char*>(data_ + pos_), len);
    pos_ += len + 1;
    return s;
  }
  // Raw access for hot decoding loops: the unread bytes [cursor(), limit()), and
  // Advance(p) to move the cursor to p (precondition: cursor() <= p <= limit()).
  const std::uint8_t* cursor() const { return data_ + pos_; }
  const std::uint8_t* limit() const { return data_ + size_; }
  void Advance(const std::uint8_t* p) { pos_ = static_cast<std::size_t>(p - data_); }

  void Skip(std::size_t n, const char* field) {
    if (Need(n, field)) pos_ += n;
  }

 private:
  bool Need(std::size_t n, const char* field) {
    if (size_ - pos_ >= n) [[likely]]
      return true;
    NeedFailed(n, field);
    return false;
  }
  // Kept out of line so that the fast path above inlines into every read.
  [[gnu::noinline, gnu::cold]] void NeedFailed(std::size_t n, const char* field) {
    if (status_.ok()) {
      status_ = Status(ErrorCode::kTruncated, "needs " + std::to_string(n) + " bytes, " +
                                                  std::to_string(size_ - pos_) + " remain")
                    .WithField(field)
                    .AtOffset(offset());
      size_ = pos_;
    }
  }

  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
  std::uint64_t base_ = 0;
  Status status_;
};

// ByteReader's reads without their checks, for a decoder that has checked once that a
// whole record is readable (the reader's fast path: one bounds check per event). It
// never fails (ok() is a constant, so the decoder's error branches compile away) and
// keeps only its position; offsets are the checked cursor's business.
class UncheckedReader {
 public:
  static constexpr bool kChecked = false;
  explicit UncheckedReader(const std::uint8_t* p) : p_(p) {}

  static constexpr bool ok() { return true; }
  [[gnu::always_inline]] std::uint8_t U8(const char* /*field*/) { return *p_++; }
  [[gnu::always_inline]] std::uint16_t U16(const char* /*field*/) {
    const auto v = LoadLe<std::uint16_t>(p_);
    p_ += 2;
    return v;
  }
  [[gnu::always_inline]] std::uint32_t U32(const char* /*field*/) {
    const auto v = LoadLe<std::uint32_t>(p_);
    p_ += 4;
    return v;
  }
  [[gnu::always_inline]] OcamlInt Vint(const char* /*field*/) { return VintUnchecked(p_); }
  const std::uint8_t* cursor() const { return p_; }
  void Advance(const std::uint8_t* p) { p_ = p; }

 private:
  const std::uint8_t* p_;
};

class ByteWriter {
 public:
  // The buffer is not zero-filled: only bytes already written are ever read back.
  explicit ByteWriter(std::size_t capacity)
      : buf_(MakeUninitArray<std::uint8_t>(capacity)), cap_(capacity) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return cap_ - pos_; }
  std::span<const std::uint8_t> bytes() const { return {buf_.get(), pos_}; }
  void Reset() {
    pos_ = 0;
    status_ = Status();
  }

  void U8(std::uint8_t v) {
    if (Room(1)) buf_[pos_++] = v;
  }
  void U16(std::uint16_t v) {
    if (!Room(2)) return;
    Store(pos_, v, 2);
    pos_ += 2;
  }
  void U32(std::uint32_t v) {
    if (!Room(4)) return;
    Store(pos_, v, 4);
    pos_ += 4;
  }
  void U64(std::uint64_t v) {
    if (!Room(8)) return;
    Store(pos_, v, 8);
    pos_ += 8;
  }
  void Float(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof d);
    U64(bits);
  }
  void Vint(OcamlInt v) {
    if (0 <= v && v <= 252) {
      U8(static_cast<std::uint8_t>(v));
    } else if (v == (v & 0xffff)) {
      U8(253);
      U16(static_cast<std::uint16_t>(v));
    } else if (v == static_cast<std::int32_t>(v)) {
      U8(254);
      U32(static_cast<std::uint32_t>(v));
    } else {
      U8(255);
      U64(static_cast<std::uint64_t>(v));
    }
  }
  void String(std::string_view s) {
    std::size_t nul = s.find('\0');
    if (nul != std::string_view::npos) s = s.substr(0, nul);
    if (!Room(s.size() + 1)) return;
    if (!s.empty()) std::memcpy(buf_.get() + pos_, s.data(), s.size());
    buf_[pos_ + s.size()] = 0;
    pos_ += s.size() + 1;
  }
  // Copies `bytes` as they are.
  void Bytes(std::span<const std::uint8_t> bytes) {
    if (!Room(bytes.size())) return;
    if (!bytes.empty()) std::memcpy(buf_.get() + pos_, bytes.data(), bytes.size());
    pos_ += bytes.size();
  }
  // Raw access for hot encoders that checked remaining() for a whole record up front
  // (one check per event instead of one per field): write at cursor(), at most
  // remaining() bytes, then Advance(p) to the end of what was written.
  std::uint8_t* cursor() { return buf_.get() + pos_; }
  void Advance(const std::uint8_t* p) { pos_ = static_cast<std::size_t>(p - buf_.get()); }
  // Reserves a field to be filled by Update*; returns its position.
  std::size_t Skip(std::size_t n) {
    std::size_t at = pos_;
    if (Room(n)) pos_ += n;
    return at;
  }
  void Update8(std::size_t at, std::uint8_t v) {
    if (at + 1 <= pos_) buf_[at] = v;
  }
  void Update16(std::size_t at, std::uint16_t v) {
    if (at + 2 <= pos_) Store(at, v, 2);
  }
  void Update32(std::size_t at, std::uint32_t v) {
    if (at + 4 <= pos_) Store(at, v, 4);
  }
  void Update64(std::size_t at, std::uint64_t v) {
    if (at + 8 <= pos_) Store(at, v, 8);
  }

 private:
  // Little-endian hosts only (checked below): one store, not one per byte.
  void Store(std::size_t at, std::uint64_t v, std::size_t n) {
    std::memcpy(buf_.get() + at, &v, n);
  }
  bool Room(std::size_t n) {
    if (cap_ - pos_ >= n && status_.ok()) [[likely]]
      return true;
    RoomFailed(n);
    return false;
  }
  [[gnu::noinline, gnu::cold]] void RoomFailed(std::size_t n) {
    if (status_.ok())
      status_ =
          Status(ErrorCode::kOutOfRange, "packet buffer overflow: needs " + std::to_string(n) +
                                             " bytes, " + std::to_string(cap_ - pos_) + " remain")
              .AtOffset(pos_);
  }

  std::unique_ptr<std::uint8_t[]> buf_;
  std::size_t cap_;
  std::size_t pos_ = 0;
  Status status_;
};

}  // namespace mpo::memtrace
