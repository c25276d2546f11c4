#include "tools/events/dump_command.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/json_view.h"
#include "tools/events/ring_input.h"
#include "tools/exit_code.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

struct DumpOptions {
  std::vector<std::string> source;  // FILE, or DIR PID
  RingReadOptions read;
  std::vector<std::string> tags;  // NAME=TAG
  bool json = false;
  Verdicts verdicts = Verdicts::kStrict;  // --as
};

// The schema 2 stream (core/ring/view/json_view.h) on stdout. A ring that cannot be
// read (no file, not a regular file) is an I/O error with no stream; a bad one gets its
// stream, ended by the error, and the error on stderr too.
void RunDumpJson(const RingSource& src, ring::OcamlVersion version, std::size_t batch,
                 Verdicts verdicts) {
  auto cursor = OpenRing(src.path, batch, verdicts);
  if (!cursor.ok() && ExitCodeFor(cursor.status()) == kExitUsage) {
    return ReportError("events dump " + src.path, cursor.status());
  }
  FileTextSink out(stdout);
  const Status s = ring::view::WriteJsonView(cursor, version, out);
  if (!s.ok()) ReportError("events dump " + src.path, s);
}

void RunDump(const DumpOptions& o) {
  auto src = ParseRingSource(o.source);
  if (!src.ok()) return ReportError("events dump", src.status());
  auto version = ParseVersion(o.read.version, src->path);
  auto tags = ParseTags(o.tags);
  if (!version.ok()) return ReportError("events dump", version.status());
  if (!tags.ok()) return ReportError("events dump", tags.status());
  if (o.json) return RunDumpJson(*src, *version, o.read.batch, o.verdicts);
  auto cursor = OpenRing(src->path, o.read.batch, o.verdicts);
  if (!cursor.ok()) return ReportError("events dump " + src->path, cursor.status());
  ring::GoldenLineWriter writer(*version, *tags);
  auto r = Drain(*cursor, writer, [&] { std::fputs(writer.TakeText().c_str(), stdout); });
  if (!r.ok()) return ReportError("events dump " + src->path, r.status());
  std::printf("# read_poll calls=%llu total_events=%llu\n",
              static_cast<unsigned long long>(r->first),
              static_cast<unsigned long long>(r->second));
  if (!writer.error().ok()) return ReportError("events dump " + src->path, writer.error());
}

}  // namespace

void AddDumpCommand(CLI::App& events) {
  auto o = std::make_shared<DumpOptions>();
  CLI::App* dump = events.add_subcommand(
      "dump", "Print every event as OCaml's consumer delivers it (golden text lines)");
  dump->add_option("source", o->source, "DIR PID, or FILE")->required()->expected(1, 2);
  dump->add_flag("--json", o->json,
                 "the decoded view as schema 2 JSON Lines instead (core/corpus/SCHEMA.md): a "
                 "header line, one record per event, an end line with the error (if any) and "
                 "the record count; a bad ring still gets its stream and exits 1");
  dump->add_option("--tag", o->tags, "NAME=TAG: the OCaml tag of a user event (default UNK)");
  AddRingReadOptions(dump, o->read);
  AddVerdictsOption(dump, &o->verdicts, VerdictFormat::kRing);
  dump->callback([o] { RunDump(*o); });
}

}  // namespace mpo::tools
