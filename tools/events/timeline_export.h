// The timeline exports of a ring file, Chrome trace-event JSON (core/export/chrome_trace.h)
// or Fuchsia FXT (core/export/fuchsia_trace.h), written to OUT atomically: the code path of
// `events chrome`, `events fuchsia` and `events record`.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "tools/events/ring_input.h"

namespace mpo::tools {

enum class TimelineFormat : std::uint8_t { kChrome, kFuchsia };

// Two passes over the ring, each streaming: the first finds the time origin and the
// pid, the second writes the export. Memory does not grow with the number of events.
// OUT naming the ring (also through a link) is refused before anything is written; on
// failure an old OUT is left as it was.
Status WriteTimeline(const std::string& ring, const std::string& out, const RingReadOptions& read,
                     TimelineFormat format);

}  // namespace mpo::tools
