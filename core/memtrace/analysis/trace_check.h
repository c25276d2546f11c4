// `memtrace check`: a whole trace decoded through its view (view/trace_view.h: every
// reader check and the undefined-location-code policy), counting what it holds and
// collecting its errors; and that result as `check --json` prints it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/progress.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::analysis {

struct TraceCheckOptions {
  ReaderOptions reader;
  // Past a bad packet or an undefined code, as far as the view can go on (every error is
  // collected); else the first error ends the check.
  bool keep_going = false;
  ProgressFn progress;  // per event: (offset, file size); may be empty
  // Each error after the header, when it is found (a tool prints it there); may be empty.
  std::function<void(const Status&)> on_error;
};

struct TraceCheck {
  bool header_read = false;  // false: the header did not read, `errors` holds why
  int version = 0;
  Info info;
  std::int64_t last_time = 0;  // of the last event read (the start time without one)
  std::uint64_t packets = 0, events = 0, locations = 0;
  std::uint64_t undefined_codes = 0;  // errors that were the view's undefined-code policy
  std::uint64_t bad_packets = 0;      // the other errors (the reader's)
  std::vector<ReaderWarning> warnings;
  std::vector<Status> errors;  // in file order; at most one without keep_going
  bool valid() const { return errors.empty(); }
};

TraceCheck CheckTrace(std::unique_ptr<ByteSource> source, const TraceCheckOptions& options);

// `{"file":S,"trace":{...}|null,"valid":B,"packets":N,"events":N,"locations":N,
// "undefined_location_codes":N,"bad_packets":N,"warnings":[{"offset":N,"message":S}],
// "error":null|ERROR,"errors":[ERROR,...]}` and a newline: "trace" is stats' member
// (analysis_text.h; null when the header did not read), ERROR the schema 2 error object
// (core/base/view_json.h), "error" the first of "errors".
std::string FormatTraceCheckJson(const TraceCheck& c, const std::string& file);

}  // namespace mpo::memtrace::analysis
