// A runtime events stream as a Fuchsia trace (FXT), the binary format olly writes by
// default and Perfetto (ui.perfetto.dev, trace_processor) reads natively. Written one
// record at a time: memory does not depend on the number of events.
//
// The file, in 64-bit little-endian words (fuchsia.dev/fuchsia-src/reference/tracing/
// trace-format):
//   magic number record            0x0016547846040010
//   provider info (id 1, "memprof-oracle"), provider section (id 1)
//   initialization record          1e9 ticks per second: ticks are producer nanoseconds
//   kernel object: process         koid = pid, named "OCaml process PID"
//   then, as the stream goes:
//   string records                 each name, category and argument name on first use
//                                  (indexes 1..32767; past that, strings are inline)
//   thread record + kernel object  before a domain's first event: thread koid = the
//                                  ring index, named "domain N", its process the pid;
//                                  thread refs 1..255 for rings 0..254, inline beyond
//   event records                  the items of core/export/ring_timeline.h:
//     duration begin/end (2/3)     phases (category "runtime"), user spans ("user"),
//                                  balanced per domain; an end made by a repair and an
//                                  instant made of an end carry a string arg "note"
//     counter (1)                  name "NAME (domain N)" (Perfetto keys counter tracks
//                                  by process and name), int64 arg "value", counter id
//                                  = the ring index
//     instant (0)                  lifecycle (int64 "data" when not 0), user unit, user
//                                  int (int64 "value"), user custom (string "payload",
//                                  OCaml's escaping), alloc (string "buckets", "[a,b,..]"),
//                                  lost_events (int64 "words", at the time of the
//                                  previous, else next, event of its domain)
// Names are bytes from the file, written as they are (Perfetto does not require UTF-8).
// A string is cut at kMaxString bytes, so that every record stays under the format's
// 4095-word limit whatever the input (real names are at most 127 bytes, custom payloads
// 1024 bytes before escaping).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/export/ring_timeline.h"
#include "core/ring/view/ring_event.h"

namespace mpo::exporter {

class FuchsiaTraceWriter {
 public:
  static constexpr std::size_t kMaxString = 4096;
  // Writes the file's opening records through `write` at once.
  FuchsiaTraceWriter(std::int64_t pid, std::function<void(std::string_view)> write);
  // The timeline calls back into this object: it stays where it was built.
  FuchsiaTraceWriter(const FuchsiaTraceWriter&) = delete;
  FuchsiaTraceWriter& operator=(const FuchsiaTraceWriter&) = delete;

  void Add(const RingEvent& e) { timeline_.Add(e); }
  // Closes what is open (ring_timeline.h) and flushes; call once, after the last event.
  void Finish();

 private:
  // A string reference: a table index, or the inline form (0x8000 | length) whose
  // bytes follow in the record.
  struct StrRef {
    std::uint16_t ref;
    std::string_view inline_bytes;  // empty unless inline
  };
  // One argument being added to an event record.
  struct Arg {
    std::uint8_t type;
    StrRef name;
    std::uint64_t word;  // int64 value or koid
    StrRef value;        // string arguments
  };
  // Names, categories and argument names: a table index once written (they repeat).
  StrRef Intern(std::string_view s);
  // Argument values (payloads, buckets): always inline, so that values that never
  // repeat do not fill the string table or this writer's memory.
  static StrRef Inline(std::string_view s);
  void EmitItem(const TimelineItem& item);
  void WriteThread(std::uint32_t ring);
  void WriteEvent(std::uint8_t type, const RingEvent& e, std::uint64_t ts, std::string_view cat,
                  std::string_view name, const Arg* args, std::size_t nargs, bool counter_id);
  void Word(std::uint64_t w);
  void Bytes(std::string_view s);  // padded to a word
  void MaybeFlush();

  std::int64_t pid_;
  std::function<void(std::string_view)> write_;
  RingTimeline timeline_;
  std::unordered_map<std::string, std::uint16_t> strings_;
  std::string buffer_;
  std::string scratch_;  // names built per event (counters, buckets, payloads)
  std::string scratch2_;
};

}  // namespace mpo::exporter
