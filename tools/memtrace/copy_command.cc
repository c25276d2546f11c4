#include "tools/memtrace/copy_command.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

using namespace mpo::memtrace;  // NOLINT(build/namespaces): tool-local convenience

struct CopyOptions {
  std::string in, out;
  int version = 0;
  bool reencode = false;
  Limits limits;
};

// A copy must not hide damage the reader skipped with a warning (a truncated final
// packet, a packet from another process): the copy would read as a clean trace. The
// copy's own reader collected the warnings (no second read of the input).
Status RefuseSkippedData(const std::vector<ReaderWarning>& warnings) {
  if (warnings.empty()) return Status::Ok();
  const ReaderWarning& w = warnings.front();
  const bool truncated = w.message.find("truncated") != std::string::npos;
  return Status(truncated ? ErrorCode::kTruncated : ErrorCode::kCorrupt,
                "the reader skipped data (" + w.message + "; " + std::to_string(warnings.size()) +
                    " warning(s) in all), which a copy would hide; no output written")
      .AtOffset(w.offset);
}

void RunCopy(const CopyOptions& o) {
  io::FileId in_id;
  auto src = OpenOrReport("memtrace copy", o.in, &in_id);
  if (!src) return;
  // Written beside OUT and renamed over it only once complete: on any error below, an
  // existing OUT is left as it was and the temporary file is removed. Created before
  // anything of IN is read, so an OUT that cannot be written is refused at once.
  auto sink = AtomicFileSink::Create(o.out, std::span<const io::FileId>(&in_id, 1));
  if (!sink.ok()) {
    ReportError("memtrace copy", sink.status());
    return;
  }
  int version = o.version;
  if (version == 0) {
    auto r = TraceReader::Open(BorrowSource(*src));
    if (!r.ok()) {
      ReportError("memtrace copy: " + o.in, r.status());
      return;
    }
    version = std::max(2, (*r)->version());
  }
  CopyStats stats;
  Progress bar("memtrace copy", "bytes", src->size());
  Status s = CopyTrace(*src, **sink, version, &stats, BytesProgress(bar), o.limits,
                       o.reencode ? CopyMode::kReencode : CopyMode::kFast);
  if (s.ok()) s = RefuseSkippedData(stats.warnings);
  bar.Clear();
  if (!s.ok()) return ReportError("memtrace copy: " + o.in, s);
  if (Status c = (*sink)->Commit(); !c.ok()) ReportError("memtrace copy", c);
}

}  // namespace

void AddMemtraceCopyCommand(CLI::App& memtrace) {
  auto copy = std::make_shared<CopyOptions>();
  CLI::App* cp = memtrace.add_subcommand(
      "copy",
      "Decode and re-encode a trace (one that re-encoding would give back byte for byte is "
      "decoded and checked in full, then copied as it is). OUT is written beside its name "
      "and renamed into place only when complete; OUT may not be IN (nor a link to it), and "
      "an input the reader skips data of (a truncated final packet) is refused (exit 1)");
  cp->add_option("in", copy->in, "input trace")->required();
  cp->add_option("out", copy->out, "output trace")->required();
  cp->add_option("--format-version", copy->version, "2 or 3 (default: the input's)")
      ->check(UnsignedIn(2, 3));
  cp->add_flag("--reencode", copy->reencode,
               "encode every event again, even when the trace is already what the writer "
               "writes (the same bytes; the input is read once instead of twice)");
  AddLimitOptions(cp, &copy->limits);
  cp->callback([copy] { RunCopy(*copy); });
}

}  // namespace mpo::tools
