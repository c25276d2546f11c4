#include "tools/events/fuchsia_command.h"

#include <memory>
#include <string>

#include "tools/events/timeline_export.h"
#include "tools/exit_code.h"

namespace mpo::tools {
namespace {

struct FuchsiaOptions {
  std::string file, out;
  RingReadOptions read;
};

}  // namespace

void AddFuchsiaCommand(CLI::App& events) {
  auto o = std::make_shared<FuchsiaOptions>();
  CLI::App* fuchsia = events.add_subcommand(
      "fuchsia",
      "Write a Fuchsia trace (FXT, binary; what olly writes by default), which Perfetto and "
      "ui.perfetto.dev open natively: the same timeline as `events chrome` (process = the "
      "ring's pid, one thread per domain named \"domain N\", counters named \"NAME (domain "
      "N)\" so each domain has its own counter track, balanced durations with a \"note\" "
      "argument on repairs, lost_events instants at their domain's previous or next event "
      "time), timestamps in producer nanoseconds. Streamed: memory does not grow with the "
      "ring's size. OUT is written beside itself and renamed into place only on success; OUT "
      "naming the input (also via a link) is refused.");
  fuchsia->add_option("file", o->file, "the .events file")->required();
  fuchsia->add_option("out", o->out, "output .fxt file")->required();
  AddRingReadOptions(fuchsia, o->read);
  fuchsia->callback([o] {
    if (Status s = WriteTimeline(o->file, o->out, o->read, TimelineFormat::kFuchsia); !s.ok()) {
      ReportError("events fuchsia", s);
    }
  });
}

}  // namespace mpo::tools
