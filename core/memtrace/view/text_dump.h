// Text forms of a trace.
//
// - Oracle dump: the golden format of ../shared/testdata/memtrace/*.oracle_dump.txt (see
//   golden-format-tools/oracle_dump.ml for v1/v2 traces, oracle_dump3.ml for v3): a raw
//   walk of every packet header, the trace info, every event and backtrace, the
//   locations used, a summary. Byte-identical to memtrace's output for valid traces.
// - dump_trace: memtrace's `dump_trace` tool output, the format users know (0.2.3's for
//   v1/v2 traces; HEAD's, which adds `dom=N` to alloc lines, for v3).
// (The JSON form is the decoded view's: core/memtrace/view/json_view.h.)
// Both stream: lines are written as events are read. On a decoding error the lines
// written so far stay written and the typed error is returned. `limits` bound the
// decoding (limits.h); dump_trace, which repeats each entry's location text, also
// stops at limits.max_output_bytes of such text.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "core/base/ocaml_quoted.h"
#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/progress.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace {

// The sinks live in core/base/text_sink.h (shared with the ring views).
using mpo::FileTextSink;
using mpo::StringTextSink;
using mpo::TextSink;

// `source` is read twice (raw header walk, then decoding); it is not owned.
Status WriteOracleDump(ByteSource& source, TextSink& out, const ProgressFn& progress = {},
                       const Limits& limits = {});
// Without backtraces, alloc lines end after the common prefix (memtrace's fast path).
// threads = 2: this thread decodes and a second one formats and writes the text
// (dump_pipeline.h); the bytes and the status are the same for 1 and 2.
Status WriteDumpTrace(ByteSource& source, TextSink& out, bool parse_backtraces = true,
                      const ProgressFn& progress = {}, const Limits& limits = {},
                      Verdicts verdicts = Verdicts::kStrict, unsigned threads = 1);

// OCaml's `%h` (hex float). (`%S` is mpo::OcamlQuoted, core/base/ocaml_quoted.h.)
std::string OcamlHexFloat(double d);

}  // namespace mpo::memtrace
