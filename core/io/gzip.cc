#include "core/io/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <new>

namespace mpo::io {
namespace {

constexpr int kGzipOnlyWindow = 16 + MAX_WBITS;  // 16: a gzip header and trailer, not zlib's
constexpr std::size_t kStep = std::size_t{1} << 20;

class Inflater {
 public:
  Inflater() { ok_ = inflateInit2(&z_, kGzipOnlyWindow) == Z_OK; }
  ~Inflater() {
    if (ok_) inflateEnd(&z_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  bool ok() const { return ok_; }
  z_stream& z() { return z_; }

 private:
  z_stream z_{};
  bool ok_ = false;
};

Status Bad(ErrorCode code, const std::string& why, const std::string& path, std::uint64_t at) {
  return Status(code, "gzip: " + why).WithField(path).AtOffset(at);
}

}  // namespace

Result<std::vector<std::uint8_t>> Gunzip(std::span<const std::uint8_t> compressed,
                                         const FileBudget& budget, const std::string& path) {
  Inflater inflater;
  if (!inflater.ok()) {
    return Status(ErrorCode::kResourceExhausted, "gzip: cannot start zlib").WithField(path);
  }
  z_stream& z = inflater.z();
  std::vector<std::uint8_t> out;
  std::size_t used = 0;
  std::size_t consumed = 0;
  // One byte past the budget tells "exactly the budget" from "more than it".
  const std::uint64_t cap = budget.max_bytes + 1;
  try {
    while (true) {
      if (used == out.size()) {
        if (out.size() >= cap) return OverBudget(budget, path);
        out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(cap, out.size() + kStep)));
      }
      const std::size_t in_left = compressed.size() - consumed;
      z.next_in = const_cast<Bytef*>(compressed.data() + consumed);  // zlib's API is not const
      z.avail_in = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
      z.next_out = out.data() + used;
      z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - used, 1u << 30));
      const uInt in_before = z.avail_in;
      const uInt out_before = z.avail_out;
      const int rc = inflate(&z, Z_NO_FLUSH);
      consumed += in_before - z.avail_in;
      used += out_before - z.avail_out;
      if (rc == Z_STREAM_END) {
        if (consumed == compressed.size()) break;
        if (compressed.size() - consumed < 2 || compressed[consumed] != 0x1f ||
            compressed[consumed + 1] != 0x8b) {
          return Bad(ErrorCode::kCorrupt, "bytes after the last member are not a gzip member", path,
                     consumed);
        }
        if (inflateReset(&z) != Z_OK) {
          return Bad(ErrorCode::kCorrupt, "cannot restart zlib", path, consumed);
        }
        continue;
      }
      if (rc == Z_OK) continue;
      if (rc == Z_BUF_ERROR && z.avail_out == 0) continue;  // needs more room: grow
      if (rc == Z_BUF_ERROR) {
        return Bad(ErrorCode::kTruncated, "the stream ends inside a member", path, consumed);
      }
      if (rc == Z_MEM_ERROR) throw std::bad_alloc();
      return Bad(ErrorCode::kCorrupt, z.msg != nullptr ? z.msg : "bad compressed data", path,
                 consumed);
    }
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory inflating gzip").WithField(path);
  }
  out.resize(used);
  return out;
}

}  // namespace mpo::io
