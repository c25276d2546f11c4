#include "tools/memtrace/dump_command.h"

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <thread>

#include "core/base/text_sink.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/text_dump.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

using namespace mpo::memtrace;  // NOLINT(build/namespaces): tool-local convenience

// Reads from `inner` until a write to stdout has failed, then fails: a dump of a huge
// trace then stops within a packet of the failed write instead of decoding the rest for
// nobody.
class UntilStdoutFails : public ByteSource {
 public:
  explicit UntilStdoutFails(ByteSource& inner) : inner_(inner) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    if (StdoutFailed()) return Status(ErrorCode::kIo, "write error").WithField("stdout");
    return inner_.ReadAt(offset, out);
  }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  ByteSource& inner_;
};

struct DumpOptions {
  std::string file;
  bool json = false;
  bool no_backtraces = false;
  bool oracle = false;
  // Two threads when there are two cores: the same bytes, and no more CPU time than one
  // (bench/scaling/README.md); a busy machine at worst runs them one after the other.
  unsigned threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  Limits limits;
  Verdicts verdicts = Verdicts::kStrict;
};

void RunDump(const DumpOptions& o) {
  auto file = OpenOrReport("memtrace dump", o.file);
  if (!file) return;
  UntilStdoutFails src(*file);
  FileTextSink out(stdout);
  Progress bar("memtrace dump", "bytes", src.size());
  const ProgressFn progress = BytesProgress(bar);
  Status s;
  if (o.json) {
    view::JsonViewOptions options;
    options.backtraces = !o.no_backtraces;
    options.limits = o.limits;
    options.progress = progress;
    options.verdicts = o.verdicts;
    s = view::WriteJsonView(src, out, options);
  } else if (o.oracle) {
    s = WriteOracleDump(src, out, progress, o.limits);
  } else {
    s = WriteDumpTrace(src, out, !o.no_backtraces, progress, o.limits, o.verdicts, o.threads);
  }
  bar.Clear();
  std::fflush(stdout);
  // A failed write is reported once, by main's FinishStdout.
  if (!s.ok() && !StdoutFailed()) ReportError("memtrace dump: " + o.file, s);
}

}  // namespace

void AddMemtraceDumpCommand(CLI::App& memtrace) {
  auto dump = std::make_shared<DumpOptions>();
  CLI::App* d =
      memtrace.add_subcommand("dump", "Print a trace (memtrace's dump_trace text by default)");
  d->add_option("file", dump->file, "trace file")->required();
  d->add_flag("--json", dump->json,
              "the decoded view as schema 2 JSON Lines (core/corpus/SCHEMA.md): a header, "
              "one line per location (before first use), event or skipped packet, a trailer "
              "with the record count and the error");
  d->add_flag("--no-backtraces", dump->no_backtraces, "skip backtraces (fast path)");
  d->add_flag("--oracle", dump->oracle, "the golden oracle_dump format");
  d->add_option("--threads", dump->threads,
                "dump_trace text: 2 (the default on a machine with 2 or more cores) decodes "
                "on this thread while a second one formats and writes the text; 1 does it "
                "all on one thread (the same bytes; 2 is faster on long traces when a second "
                "core is free: bench/scaling/README.md)")
      ->check(CLI::Range(1, 2));
  AddLimitOptions(d, &dump->limits);
  // The golden oracle_dump form keeps the strict reader.
  AddVerdictsOption(d, &dump->verdicts, VerdictFormat::kMemtrace)->excludes("--oracle");
  d->callback([dump] { RunDump(*dump); });
}

}  // namespace mpo::tools
