#include "tools/events/timeline_export.h"

#include <string_view>
#include <vector>

#include "core/export/chrome_trace.h"
#include "core/export/fuchsia_trace.h"
#include "core/io/input_file.h"
#include "core/io/output_file.h"
#include "core/io/readable_input.h"
#include "core/ring/view/event_decoder.h"
#include "tools/events/pid_arg.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

using ring::view::RingEvent;

// Feeds every event of a fresh cursor on the ring to `writer`, then finishes it; counts
// the events on `progress` from `done`.
template <class Writer>
Status StreamRing(const std::string& ring, const RingReadOptions& read, ring::OcamlVersion version,
                  Writer& writer, Progress& progress, std::uint64_t done) {
  auto cursor = OpenRing(ring, read.batch);
  if (!cursor.ok()) return cursor.status();
  ring::view::EventCollector collector(version, [&](const RingEvent& e) {
    writer.Add(e);
    progress.Update(++done);
  });
  auto r = Drain(*cursor, collector, [] {});
  if (!r.ok()) return r.status();
  if (!collector.error().ok()) return collector.error();
  writer.Finish();
  return Status();
}

}  // namespace

Status WriteTimeline(const std::string& ring, const std::string& out_path,
                     const RingReadOptions& read, TimelineFormat format) {
  if (ring == io::kStdinPath) {
    return Status(ErrorCode::kInvalidArgument,
                  "an export reads the ring twice, which stdin cannot give; save it to a file "
                  "first (`events dump` and `events stats` read stdin)")
        .WithField("file");
  }
  auto version = ParseVersion(read.version, ring);
  if (!version.ok()) return version.status();
  auto scan_cursor = OpenRing(ring, read.batch);
  if (!scan_cursor.ok()) return scan_cursor.status();
  auto id = io::IdentityOf(ring);
  if (!id.ok()) return id.status();
  std::vector<io::FileId> inputs;
  if (id->has_value()) inputs.push_back(**id);
  // Refuses OUT == the ring (also through a link) before anything is written.
  auto out = io::AtomicOutput::Create(out_path, inputs);
  if (!out.ok()) return out.status();

  // Events of both passes: the total is known once the first has counted them.
  Progress progress(format == TimelineFormat::kChrome ? "events chrome" : "events fuchsia",
                    "events", 0);
  exporter::ChromeTraceScan scan;
  std::uint64_t events = 0;
  ring::view::EventCollector scanner(*version, [&](const RingEvent& e) {
    scan.Add(e);
    progress.Update(++events);
  });
  auto r = Drain(*scan_cursor, scanner, [] {});
  if (!r.ok()) return r.status();
  if (!scanner.error().ok()) return scanner.error();
  scan_cursor->Close();
  progress.SetTotal(2 * events);

  auto write = [&](std::string_view text) { (void)out->Write(text); };
  // A wrapped ring lost its ring_start, and the pid with it; OCaml's file name keeps it.
  const std::int64_t pid = PidOfRingFileName(ring, 1);
  Status s;
  if (format == TimelineFormat::kChrome) {
    exporter::ChromeTraceWriter writer(scan.origin(), scan.pid(pid), write);
    s = StreamRing(ring, read, *version, writer, progress, events);
  } else {
    exporter::FuchsiaTraceWriter writer(scan.pid(pid), write);
    s = StreamRing(ring, read, *version, writer, progress, events);
  }
  progress.Clear();
  if (!s.ok()) return s;
  // Write errors are sticky; Commit reports the first and removes the temporary file.
  return out->Commit();
}

}  // namespace mpo::tools
