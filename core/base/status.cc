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

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out(ErrorCodeName(code_));
  out += ": ";
  if (!field_.empty()) {
    out += field_;
    if (byte_offset_) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " at offset 0x%llx",
                    static_cast<unsigned long long>(*byte_offset_));
      out += buf;
      if (bit_offset_) out += " (bit " + std::to_string(*bit_offset_) + ")";
    }
    out += ": ";
  } else if (byte_offset_) {
    char buf[64];
    std::snprintf(buf, sizeof buf,
                  "at offset 0x%llx: ", static_cast<unsigned long long>(*byte_offset_));
    out += buf;
  }
  out += message_;
  return out;
}

}  // namespace mpo
