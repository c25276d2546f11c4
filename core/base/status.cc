#include "core/base/status.h"

#include <cstdio>

namespace mpo {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kFailedPrecondition: return "failed precondition";
    case ErrorCode::kTruncated: return "truncated";
    case ErrorCode::kCorrupt: return "corrupt";
    case ErrorCode::kUnsupportedVersion: return "unsupported version";
    case ErrorCode::kOutOfRange: return "out of range";
    case ErrorCode::kIo: return "i/o error";
    case ErrorCode::kBusy: return "busy";
    case ErrorCode::kNotFound: return "not found";
    case ErrorCode::kResourceExhausted: return "resource exhausted";
    case ErrorCode::kInternal: return "internal error";
  }
  return "unknown error";
}

const std::string& Status::Empty() {
  static const std::string empty;
  return empty;
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  const Rep& r = *rep_;
  std::string out(ErrorCodeName(r.code));
  out += ": ";
  if (!r.field.empty()) {
    out += r.field;
    if (r.byte_offset) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " at offset 0x%llx",
                    static_cast<unsigned long long>(*r.byte_offset));
      out += buf;
      if (r.bit_offset) out += " (bit " + std::to_string(*r.bit_offset) + ")";
    }
    out += ": ";
  } else if (r.byte_offset) {
    char buf[64];
    std::snprintf(buf, sizeof buf,
                  "at offset 0x%llx: ", static_cast<unsigned long long>(*r.byte_offset));
    out += buf;
  }
  out += r.message;
  return out;
}

}  // namespace mpo
