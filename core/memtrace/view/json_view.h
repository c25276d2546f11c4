// The schema 2 JSON Lines view of a memtrace trace (core/corpus/SCHEMA.md): what
// `memtrace dump --json` and `corpus decode` print, byte for byte.
#pragma once

#include <functional>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"

namespace mpo::memtrace::view {

struct JsonViewOptions {
  // false: no location records and no "backtrace" members (memtrace's fast path).
  bool backtraces = true;
  Limits limits;
  // Called now and then with (bytes decoded so far, file size).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// Writes the whole stream (header, records, trailer) as it decodes; a decoding error
// ends the stream with the error in the trailer. Returns that decoding status.
Status WriteJsonView(ByteSource& source, TextSink& out, const JsonViewOptions& options = {});

}  // namespace mpo::memtrace::view
