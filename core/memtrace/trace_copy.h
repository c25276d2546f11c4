// Decode a trace and write it again (memtrace's test/copy.ml): the basis of the
// byte-identity conformance checks and of `memtrace copy`.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace {

struct CopyStats {
  std::uint64_t events = 0;
  // What the reader skipped with a warning (a truncated final packet, a packet of another
  // process), as a second read of the input would report it: the copy's reader met the
  // same packets. A caller that must not hide damage refuses the copy when it is not
  // empty, without reading the input again.
  std::vector<ReaderWarning> warnings;
  // The input was already what the writer writes (CopyMode::kFast's identity copy), and
  // its own bytes were written.
  bool unchanged = false;
};

// How CopyTrace writes. Every mode writes the same bytes; the slower ones are the
// references that tests and the copy fuzzer hold the faster ones to.
enum class CopyMode : std::uint8_t {
  // A trace that is already what the writer would write (CanonicalCheck: v2 or v3, one
  // stream, the format version asked for) is copied as it is, after being decoded and
  // checked in full; any other is encoded again as kReencode does.
  kFast,
  // Every event encoded again; the writer compares each backtrace with the previous one
  // only past the reader's common prefix (WriterOptions::trust_common_prefix).
  kReencode,
  // Every event encoded again, backtraces compared whole.
  kReference,
};

// Reads `in` and writes the same events to `out` in format `format_version` (2 or 3).
// Streaming. Fails with the reader's or the writer's typed error; every event keeps its
// exact time (the writer flushes on any gap the 25-bit event time cannot carry).
// `progress` (optional) gets (bytes read so far, input size) now and then; with kFast
// it may start again from 0 once, when a trace turns out to need encoding.
// Threads: with kFast, an input of 64 KiB or more whose source reads concurrently is
// written to a sink that can restart on a second thread while it is checked; if the
// check fails, the sink is restarted and the trace encoded (what a failed Restart()
// says is returned).
Status CopyTrace(ByteSource& in, ByteSink& out, int format_version, CopyStats* stats = nullptr,
                 const std::function<void(std::uint64_t, std::uint64_t)>& progress = {},
                 const Limits& limits = {}, CopyMode mode = CopyMode::kFast);

}  // namespace mpo::memtrace
