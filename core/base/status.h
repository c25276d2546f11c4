// Typed errors for everything that crosses the library boundary.
//
// The library never throws and never aborts on bad input: a function that can fail
// returns a `Status` (no value) or a `Result<T>` (a value or a Status). A Status names
// the kind of failure (`ErrorCode`), the field or check involved, and, for decoders, the
// byte offset (and bit offset within that byte, for bit-packed fields) where it was
// detected. Only tools/ turn a Status into a message and an exit code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace mpo {

// Pick the most specific code that applies.
enum class ErrorCode : std::uint8_t {
  kOk = 0,
  kInvalidArgument,     // a caller-supplied parameter is out of its domain
  kFailedPrecondition,  // the operation is not allowed in the current state
  kTruncated,           // input ended in the middle of a structure
  kCorrupt,             // input violates a format invariant (data loss)
  kUnsupportedVersion,  // a format version this implementation does not read
  kOutOfRange,          // a value read from input exceeds the range the format allows
  kIo,                  // the operating system refused (open, mmap, write, ...)
  kBusy,                // a concurrent or re-entrant call was refused
  kNotFound,            // a named thing does not exist
  kResourceExhausted,   // memory refused (OCaml's Out_of_memory)
  kInternal,            // a bug in this library
};

// A stable lower-case name, used in messages and JSON ("corrupt", "truncated", ...).
std::string_view ErrorCodeName(ErrorCode code);

// One pointer wide: an OK status (the common case, returned and moved on every hot path)
// holds nothing, so returning it or a Result<T> costs no more than returning a pointer.
// Context attached to an OK status is dropped: it describes no failure.
class [[nodiscard]] Status {
 public:
  // The OK status.
  Status() = default;
  Status(ErrorCode code, std::string message) {
    if (code == ErrorCode::kOk) return;
    rep_ = std::make_unique<Rep>();
    rep_->code = code;
    rep_->message = std::move(message);
  }
  Status(const Status& other) : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status Ok() { return Status(); }

  bool ok() const { return rep_ == nullptr; }
  ErrorCode code() const { return rep_ ? rep_->code : ErrorCode::kOk; }
  const std::string& message() const { return rep_ ? rep_->message : Empty(); }
  const std::string& field() const { return rep_ ? rep_->field : Empty(); }
  std::optional<std::uint64_t> byte_offset() const {
    return rep_ ? rep_->byte_offset : std::nullopt;
  }
  std::optional<std::uint8_t> bit_offset() const { return rep_ ? rep_->bit_offset : std::nullopt; }

  // Builders that attach context; they return *this so they can be chained.
  Status& WithField(std::string field) & {
    if (rep_) rep_->field = std::move(field);
    return *this;
  }
  Status&& WithField(std::string field) && { return std::move(WithField(std::move(field))); }
  Status& AtOffset(std::uint64_t byte, std::optional<std::uint8_t> bit = std::nullopt) & {
    if (rep_) {
      rep_->byte_offset = byte;
      rep_->bit_offset = bit;
    }
    return *this;
  }
  Status&& AtOffset(std::uint64_t byte, std::optional<std::uint8_t> bit = std::nullopt) && {
    return std::move(AtOffset(byte, bit));
  }

  // "corrupt: packet header: size field at offset 0x1a2 (bit 3): <message>".
  std::string ToString() const;

  friend bool operator==(const Status& a, const Status& b) {
    if (!a.rep_ || !b.rep_) return a.rep_ == b.rep_;
    return *a.rep_ == *b.rep_;
  }

 private:
  struct Rep {
    ErrorCode code = ErrorCode::kOk;
    std::string message;
    std::string field;
    std::optional<std::uint64_t> byte_offset;
    std::optional<std::uint8_t> bit_offset;
    friend bool operator==(const Rep&, const Rep&) = default;
  };
  static const std::string& Empty();

  std::unique_ptr<Rep> rep_;
};

// A value or an error. Holding an OK Status as the error is a programming error: the
// constructor turns it into kInternal so that it can never be mistaken for a value.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    if (std::get<Status>(v_).ok()) v_ = Status(ErrorCode::kInternal, "Result built from OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  // Precondition for the accessors: ok() (respectively !ok() for status()).
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The error, or OK when a value is held.
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace mpo

// Propagates a non-OK Status from an expression returning Status.
#define MPO_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::mpo::Status mpo_status_ = (expr);        \
    if (!mpo_status_.ok()) return mpo_status_; \
  } while (0)
