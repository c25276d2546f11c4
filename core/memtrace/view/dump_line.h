// The dump_trace text of one event, built without printf: the fields a decoded event
// contributes (DumpRecord) and the buffer that turns them into lines (DumpLineWriter).
// The same code formats for `--threads 1` (straight from the decoder) and for the
// writing thread of `--threads 2` (from the batches of dump_pipeline.h), so both print
// the same bytes.
//
// An alloc line is its header (Header), one text per backtrace entry (Entry: each text
// starts with its own space) and a newline (EndLine). Promote and collect lines are
// whole after Header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/text_sink.h"

namespace mpo::memtrace {

// kMore continues the previous alloc line with more entries (no header): a batch handed
// to another thread may end in the middle of a deep backtrace.
enum class DumpKind : std::uint8_t { kAlloc, kAllocMajor, kAllocExt, kPromote, kCollect, kMore };

struct DumpRecord {
  std::int64_t dt = 0;  // microseconds since the trace's start
  std::int64_t obj_id = 0;
  std::int64_t nsamples = 0;
  std::int64_t length = 0;
  std::int64_t common_prefix = 0;
  // Batches only: the leading entries repeated from the previous alloc line of the same
  // domain (alloc kinds), then the entry texts that follow in the batch.
  std::uint32_t reused = 0;
  std::uint32_t entries = 0;
  std::uint16_t domain = 0;
  DumpKind kind = DumpKind::kAlloc;
  bool ends_line = true;  // alloc/kMore: false when the line goes on or an error cut it
};

// Appends lines to a buffer and writes it to `out` whenever it passes kFlushBytes (and
// in Flush). `head_format`: memtrace HEAD's alloc lines, with `dom=N` (v3 traces).
class DumpLineWriter {
 public:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 18;

  DumpLineWriter(TextSink& out, bool head_format);
  DumpLineWriter(const DumpLineWriter&) = delete;
  DumpLineWriter& operator=(const DumpLineWriter&) = delete;

  void Header(const DumpRecord& r);
  void Entry(std::string_view text) {
    buf_.append(text);
    if (buf_.size() >= kFlushBytes) Flush();
  }
  void EndLine() { buf_ += '\n'; }
  void Flush();

 private:
  TextSink& out_;
  bool head_format_;
  std::string buf_;
};

}  // namespace mpo::memtrace
