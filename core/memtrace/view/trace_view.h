// The one decoded view of a memtrace trace: the records every memtrace command reads,
// in file order, under one policy.
//
// Records:
// - kSkippedPacket: a packet the reader skipped with a warning (another pid, a truncated
//   final packet, a packet that does not continue the stream), where it was skipped:
//   before the next event.
// - kLocation: a location code's frames, once per code, just before the first event
//   whose backtrace uses it (a consumer can resolve every event from what it has read).
// - kEvent: an event and the byte offset of its header.
// Policy: an event whose backtrace uses a code no location event defined is a typed
// error, kCorrupt "backtrace: location code" at that event's offset (memtrace's lookup
// fails there too); the event is not delivered. Without backtraces
// (ReaderOptions::parse_backtraces = false) there are no location records.
//
// Cost: a backtrace shares its first `common_prefix` entries with the previous one of
// its domain, whose codes were already checked, so only the new suffix is looked up (a
// probe of an open-addressing set per new entry). Frames are handed out as the reader
// stores them (strings interned), never copied.
// Threading: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/code_set.h"

namespace mpo::memtrace::view {

enum class RecordKind : std::uint8_t { kLocation, kEvent, kSkippedPacket };

struct Record {
  RecordKind kind = RecordKind::kEvent;
  // kEvent: the event's offset; kLocation: the offset of the event that first uses the
  // code; kSkippedPacket: the packet's offset.
  std::uint64_t offset = 0;
  const Event* event = nullptr;          // kEvent
  OcamlInt code = 0;                     // kLocation
  std::span<const CompactFrame> frames;  // kLocation, strings in TraceView::strings()
  std::string_view reason;               // kSkippedPacket: the reader's warning text
};

// `Faults`: the reader's test seam (core/memtrace/faults.h); TraceView below is the view.
template <class Faults = NoFaults>
class BasicTraceView {
 public:
  using Reader = BasicTraceReader<Faults>;
  static Result<std::unique_ptr<BasicTraceView>> Open(std::unique_ptr<ByteSource> source,
                                                      const ReaderOptions& options = {});
  explicit BasicTraceView(std::unique_ptr<Reader> reader) : reader_(std::move(reader)) {}

  const Reader& reader() const { return *reader_; }
  const Info& info() const { return reader_->info(); }
  int version() const { return reader_->version(); }
  const StringInterner& strings() const { return reader_->strings(); }

  // The next record, or nullptr at the end of the trace or on error (status() tells them
  // apart: OK at the end). The record stays valid until the next call.
  const Record* Next();
  // The next event, passing over the other records (the policy still applies).
  const Event* NextEvent();
  const Status& status() const { return error_; }

  // After an error: forgets it and carries on (`memtrace check --keep-going`). A
  // reader's error moves to the next packet (false when there is no way to go on); an
  // undefined code drops its event. Every later backtrace is then checked in full.
  bool SkipAfterError();

 private:
  // Sets rec_ to the next location record of the pending event, or the event itself.
  const Record* PendingRecord();
  // Where the pending event's entries need checking from.
  void StartPending();
  // Everything but the common case: skipped packets, the end, errors.
  const Record* SlowNext();

  std::unique_ptr<Reader> reader_;
  Record rec_;
  Status error_;
  bool failed_ = false;  // error_ is set
  bool reader_failed_ = false;
  bool finished_ = false;
  bool check_all_ = false;
  std::size_t warned_ = 0;
  // The event read but not delivered yet, and the next of its entries to check.
  const Event* pending_ = nullptr;
  std::uint64_t pending_offset_ = 0;
  std::size_t scan_ = 0;
  CodeSet emitted_;
};

using TraceView = BasicTraceView<NoFaults>;
// Compiled once, in trace_view.cc (definitions: trace_view_impl.h).
extern template class BasicTraceView<NoFaults>;

}  // namespace mpo::memtrace::view
