#include "tools/events/chrome_command.h"

#include <memory>
#include <string>

#include "tools/events/timeline_export.h"
#include "tools/exit_code.h"

namespace mpo::tools {
namespace {

struct ChromeOptions {
  std::string file, out;
  RingReadOptions read;
};

}  // namespace

void AddChromeCommand(CLI::App& events) {
  auto o = std::make_shared<ChromeOptions>();
  CLI::App* chrome = events.add_subcommand(
      "chrome",
      "Write Chrome trace-event JSON (Perfetto, chrome://tracing): one process (the ring's "
      "pid, named by process_name), one thread per domain (tid = domain index, thread_name "
      "\"domain N\"); counters are C events named \"NAME (domain N)\", so each domain has "
      "its own counter track; phases and user spans are B/E balanced per domain even on a "
      "wrapped ring (an E whose B was lost becomes an instant, spans still open at the end "
      "are closed at the domain's last event, each with args.note); lost_events instants sit "
      "at their domain's previous (else next) event time; ts in microseconds, no "
      "displayTimeUnit. Streamed: memory does not grow with the ring's size. OUT is written "
      "beside itself and renamed into place only on success; OUT naming the input (also via "
      "a link) is refused.");
  chrome->add_option("file", o->file, "the .events file")->required();
  chrome->add_option("out", o->out, "output JSON file")->required();
  AddRingReadOptions(chrome, o->read);
  chrome->callback([o] {
    if (Status s = WriteTimeline(o->file, o->out, o->read, TimelineFormat::kChrome); !s.ok()) {
      ReportError("events chrome", s);
    }
  });
}

}  // namespace mpo::tools
