// The consumer of a runtime events file: OCaml's caml_runtime_events_cursor.
//
// A Cursor maps `<dir>/<pid>.events` (or any file, or a copy of bytes for tests and
// fuzzing), validates the metadata header once, and then delivers events to typed
// callbacks with ReadPoll. The file is treated as hostile: every offset is checked
// against its size, and nothing read from it can make a poll crash, loop, or allocate
// more than the cursor's fixed buffers.
//
// Errors mirror OCaml's runtime_events_error (the OCaml name opens each message):
//   E_OPEN_FAILURE    kNotFound / kIo       E_MAP_FAILURE      kIo
//   E_CORRUPT_STREAM  kCorrupt (kTruncated, kUnsupportedVersion for the header)
//   E_NO_CURRENT_RING kFailedPrecondition   E_CURSOR_POLL_BUSY kBusy
//   E_CURSOR_NOT_OPEN kFailedPrecondition
// A corrupt message's field is "ring D: KIND", KIND naming what was refused ("alloc
// event", "counter event", "user int event", "custom event", "user event", "lost
// words"), "event" for a header that does not fit, or "lap" for a tail lapped too far
// (ReadRules::max_lap_words).
//
// Threading: one poll at a time per cursor; a concurrent or re-entrant ReadPoll (from
// a callback) is refused with kBusy. Close must not race with ReadPoll. Different
// cursors are independent. A file that another process truncates while it is mapped
// is kTruncated (E_CORRUPT_STREAM, field: the path) as soon as a poll reads a page
// the file no longer has, caught by the mapping's fault guard (fault_guard.h): OCaml's
// consumer dies of SIGBUS there. No event read from a vanished page is delivered, and
// every later poll fails the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/io/file_budget.h"
#include "core/ring/faults.h"
#include "core/ring/layout.h"
#include "core/ring/placement.h"

namespace mpo::ring {

// Callbacks of one ReadPoll. Each returns true to go on; false stops the poll without
// consuming that event (it is delivered again by the next poll). `ring` is the domain's
// ring index; timestamps are the producer's monotonic nanoseconds.
class EventCallbacks {
 public:
  virtual ~EventCallbacks() = default;
  virtual bool RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase);
  virtual bool RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase);
  virtual bool RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                              std::uint64_t value);
  // The 20 histogram words (kAllocBuckets; any other count is E_CORRUPT_STREAM, except
  // that RingRules::extra_alloc_buckets_dropped delivers the first 20 of more).
  virtual bool Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> buckets);
  // `data` is 0 when the event has no payload (ring_stop).
  virtual bool LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                              std::int64_t data);
  // Words of events overwritten by the producer before this cursor read them.
  virtual bool LostEvents(std::uint32_t ring, std::uint64_t words);
  // Padding words skipped in one visit of a ring (the producer pads to the ring's end
  // before an event that would straddle it); no event is lost. For word accounting.
  virtual void PaddingSkipped(std::uint32_t ring, std::uint64_t words);
  // User events; `name` is the event's registered name (at most 127 bytes).
  virtual bool UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name);
  virtual bool UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                       std::uint64_t value);
  virtual bool UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                        bool begin);
  // The payload words as written: see DecodeCustomPayload for the bytes.
  virtual bool UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                          std::span<const std::uint64_t> payload);
};

// The bytes of a custom user event: the last byte of the payload counts the padding
// bytes before it. kCorrupt if there is no payload or the count exceeds it.
Result<std::string_view> DecodeCustomPayload(std::span<const std::uint64_t> payload);

// The value OCaml delivers for an int payload: the low 63 bits, sign-extended.
constexpr std::int64_t OcamlIntOfPayload(std::uint64_t w) {
  return static_cast<std::int64_t>(w << 1) >> 1;
}

struct CursorOptions {
  // Messages copied before one fence and head re-check. 1 is OCaml's algorithm.
  std::size_t batch_messages = 16;
  // Whose verdict a malformed file gets: a verdict mode's ring rules, RulesOf(mode).ring
  // (core/base/verdicts.h, conformance/VERDICTS.md); kStrict's by default. OCaml 5.3's
  // consumer's: the geometry checks of placement.h; a message may end past the tail if it
  // ends before the ring's physical end (the position then passes the tail); a tail more
  // than a ring ahead re-reads the ring (for at most ReadRules::max_lap_words, then
  // kCorrupt: OCaml reads on and may never end); lost words are delivered as OCaml's C int
  // holds them (the low 32 bits, sign-extended); a custom (or unknown-type) user event
  // whose name slot is empty is dropped unread. kStrict also refuses a head 2^63 or more
  // words ahead of the reader. Modes that do not judge rings have kStrict's ring rules.
  RingRules rules;
};

// Lost words as OCaml 5.3's consumer reports them: through a C int.
constexpr std::uint64_t OcamlLostWords(std::uint64_t words) {
  return static_cast<std::uint64_t>(
      static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(words))));
}

// What a ring read from stdin or inflated from gzip may hold (OCaml's largest rings are
// 64 MB).
inline constexpr io::FileBudget kRingInMemory{"ring file read into memory (stdin or gzip)",
                                              std::uint64_t{256} << 20};

class Cursor {
 public:
  // `<dir>/<pid>.events`; dir "" is the current directory.
  static Result<Cursor> Open(const std::string& dir, std::int64_t pid, CursorOptions o = {});
  // `path` "-" is stdin; stdin and gzip files are read into a private copy (inflated, at
  // most kRingInMemory), a plain file is mapped. A memtrace trace is refused (kUnsupportedVersion)
  // with a message naming the command that reads it.
  static Result<Cursor> OpenFile(const std::string& path, CursorOptions o = {});
  // The ring of this process, whose path the producer reports (empty: not started).
  static Result<Cursor> OpenCurrent(const std::string& current_path, CursorOptions o = {});
  // A private copy of `bytes` (tests, fuzzing).
  static Result<Cursor> FromBytes(std::span<const std::byte> bytes, CursorOptions o = {});

  Cursor(Cursor&&) noexcept;
  Cursor& operator=(Cursor&&) noexcept;
  ~Cursor();

  // Delivers events of every ring, round robin from where the last poll stopped, at
  // most `max_events` (0: no limit). Returns the number of events counted as OCaml
  // counts them (user unit events are not: header::IsCounted); n >> 2 under
  // RingRules::poll_count_as_int_val, as OCaml 5.0.0's read_poll returns it.
  // Differences from OCaml, each on purpose: a ring is read up to the tail seen when
  // the visit starts, so a poll ends even if the producer never stops (OCaml re-reads
  // the tail after every message); once max_events is reached no further ring is
  // visited (OCaml's do-while still takes one event from each remaining ring); a
  // header that looks corrupt is re-checked against head before it is reported, so a
  // message overwritten during the copy is a loss, never E_CORRUPT_STREAM.
  Result<std::uint64_t> ReadPoll(EventCallbacks& callbacks, std::uint64_t max_events = 0);

  // The same poll by a consumer with fault policy `Faults` (faults.h); ReadPoll is
  // ReadPollWith<NoFaults>. Defined in cursor_impl.h, for tests of broken consumers.
  template <class Faults>
  Result<std::uint64_t> ReadPollWith(EventCallbacks& callbacks, std::uint64_t max_events = 0);
  // FromBytes, for a cursor whose ReadPoll is ReadPollWith<Faults> (cursor_impl.h): so
  // that every view over a cursor reads through a broken consumer. Tests only.
  template <class Faults>
  static Result<Cursor> FromBytesWith(std::span<const std::byte> bytes, CursorOptions o = {});

  const MetadataHeader& metadata() const;
  // After Close every ReadPoll fails with E_CURSOR_NOT_OPEN.
  void Close();

 private:
  struct State;
  explicit Cursor(std::unique_ptr<State> s);
  static Result<Cursor> Build(std::unique_ptr<State> s, CursorOptions o);
  std::unique_ptr<State> s_;
};

}  // namespace mpo::ring
