#include "core/memtrace/view/dump_line.h"

#include <charconv>

namespace mpo::memtrace {
namespace {

// Flags of the printf conversions dump_trace's lines use: `%d`, `%010d` (sign, then
// zeros up to the width) and `% 4d` (a space for the sign of a non-negative number,
// then spaces on the left up to the width).
enum class Pad : std::uint8_t { kNone, kZeros10, kSpaceSign4 };

// Writes `v` at `p` as printf would with `pad`; returns the end. At most 21 bytes.
char* PutInt(char* p, std::int64_t v, Pad pad) {
  // The magnitude in unsigned arithmetic, so that INT64_MIN has one too.
  const std::uint64_t mag =
      v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  char digits[20];
  const std::size_t n =
      static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, mag).ptr - digits);
  const bool sign = v < 0 || pad == Pad::kSpaceSign4;
  const char sign_char = v < 0 ? '-' : ' ';
  const std::size_t used = n + (sign ? 1 : 0);
  switch (pad) {
    case Pad::kNone: break;
    case Pad::kZeros10:
      if (sign) *p++ = sign_char;
      for (std::size_t i = used; i < 10; ++i) *p++ = '0';
      for (std::size_t i = 0; i < n; ++i) *p++ = digits[i];
      return p;
    case Pad::kSpaceSign4:
      for (std::size_t i = used; i < 4; ++i) *p++ = ' ';
      break;
  }
  if (sign) *p++ = sign_char;
  for (std::size_t i = 0; i < n; ++i) *p++ = digits[i];
  return p;
}

char* PutText(char* p, std::string_view s) {
  for (char c : s) *p++ = c;
  return p;
}

}  // namespace

DumpLineWriter::DumpLineWriter(TextSink& out, bool head_format)
    : out_(out), head_format_(head_format) {
  buf_.reserve(kFlushBytes + 4096);
}

void DumpLineWriter::Header(const DumpRecord& r) {
  if (r.kind == DumpKind::kMore) return;
  // Six numbers of at most 21 bytes, a domain of at most 5 digits and the words
  // between them: well under the size.
  char line[224];
  char* p = PutInt(line, r.dt, Pad::kZeros10);
  *p++ = ' ';
  p = PutInt(p, r.obj_id, Pad::kZeros10);
  switch (r.kind) {
    case DumpKind::kPromote: p = PutText(p, " promote\n"); break;
    case DumpKind::kCollect: p = PutText(p, " collect\n"); break;
    default:
      p = PutText(p, r.kind == DumpKind::kAlloc        ? " alloc "
                     : r.kind == DumpKind::kAllocMajor ? " alloc_major "
                                                       : " alloc_ext ");
      p = PutInt(p, r.nsamples, Pad::kNone);
      p = PutText(p, " len=");
      p = PutInt(p, r.length, Pad::kNone);
      if (head_format_) {
        p = PutText(p, " dom=");
        p = PutInt(p, r.domain, Pad::kNone);
      }
      *p++ = ' ';
      p = PutInt(p, r.common_prefix, Pad::kSpaceSign4);
      *p++ = ':';
      break;
  }
  buf_.append(line, static_cast<std::size_t>(p - line));
  if (buf_.size() >= kFlushBytes) Flush();
}

void DumpLineWriter::Flush() {
  if (!buf_.empty()) out_.Write(buf_);
  buf_.clear();
}

}  // namespace mpo::memtrace
