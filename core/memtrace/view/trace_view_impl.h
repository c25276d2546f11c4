// The definitions of BasicTraceView (trace_view.h): included by trace_view.cc, which
// compiles the view of the correct reader, and by test-only instantiations of mutants.
#pragma once

#include <algorithm>

#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace::view {

template <class Faults>
Result<std::unique_ptr<BasicTraceView<Faults>>> BasicTraceView<Faults>::Open(
    std::unique_ptr<ByteSource> source, const ReaderOptions& options) {
  auto reader = Reader::Open(std::move(source), options);
  if (!reader.ok()) return reader.status();
  return std::make_unique<BasicTraceView>(std::move(*reader));
}

template <class Faults>
const Record* BasicTraceView<Faults>::PendingRecord() {
  const std::span<const OcamlInt> bt = pending_->backtrace;
  while (scan_ < bt.size()) {
    const OcamlInt code = bt[scan_++];
    if (!emitted_.Insert(code)) [[likely]]
      continue;
    bool found;
    const std::span<const CompactFrame> frames = reader_->CompactFramesOf(code, &found);
    if (!found) {
      // LocationOfEntry builds the policy's error (its message names the code).
      auto undefined = reader_->LocationOfEntry(code, pending_offset_);
      error_ = undefined.ok() ? Status(ErrorCode::kInternal, "location lookup disagrees")
                              : undefined.status();
      failed_ = true;
      pending_ = nullptr;
      return nullptr;
    }
    rec_.kind = RecordKind::kLocation;
    rec_.offset = pending_offset_;
    rec_.code = code;
    rec_.frames = frames;
    return &rec_;
  }
  rec_.kind = RecordKind::kEvent;
  rec_.offset = pending_offset_;
  rec_.event = pending_;
  pending_ = nullptr;
  return &rec_;
}

template <class Faults>
const Record* BasicTraceView<Faults>::Next() {
  // The common case first: an event whose new entries are all known, read and delivered
  // in one call.
  if (pending_ != nullptr || failed_) [[unlikely]]
    return failed_ ? nullptr : SlowNext();
  const std::vector<ReaderWarning>& warnings = reader_->warnings();
  if (warned_ != warnings.size() || finished_) [[unlikely]]
    return SlowNext();
  const Event* e = reader_->NextEvent();
  if (e == nullptr || warned_ != warnings.size()) [[unlikely]] {
    pending_ = e;
    finished_ = e == nullptr;
    if (e != nullptr) StartPending();
    return SlowNext();
  }
  pending_ = e;
  StartPending();
  // Known entries are passed over with a lookup that never grows the set; PendingRecord
  // emits the location of the first unknown one (if any), or the event.
  const std::span<const OcamlInt> bt = e->backtrace;
  while (scan_ < bt.size() && emitted_.Contains(bt[scan_])) ++scan_;
  return PendingRecord();
}

template <class Faults>
void BasicTraceView<Faults>::StartPending() {
  pending_offset_ = reader_->event_offset();
  // The first common_prefix entries are the previous backtrace's of this domain (or the
  // whole backtrace is, when the prefix is longer than it): checked with that event.
  scan_ = check_all_
              ? 0
              : static_cast<std::size_t>(std::min<std::uint64_t>(
                    static_cast<std::uint64_t>(std::max<OcamlInt>(pending_->common_prefix, 0)),
                    pending_->backtrace.size()));
}

template <class Faults>
const Record* BasicTraceView<Faults>::SlowNext() {
  // Packets skipped while reading the pending event (or before the end) come first.
  const std::vector<ReaderWarning>& warnings = reader_->warnings();
  if (warned_ < warnings.size()) {
    const ReaderWarning& w = warnings[warned_++];
    rec_.kind = RecordKind::kSkippedPacket;
    rec_.offset = w.offset;
    rec_.reason = w.message;
    return &rec_;
  }
  if (pending_ != nullptr) return PendingRecord();
  if (!finished_) return Next();
  error_ = reader_->status();
  reader_failed_ = !error_.ok();
  failed_ = reader_failed_;
  return nullptr;
}

template <class Faults>
const Event* BasicTraceView<Faults>::NextEvent() {
  while (const Record* r = Next())
    if (r->kind == RecordKind::kEvent) return r->event;
  return nullptr;
}

template <class Faults>
bool BasicTraceView<Faults>::SkipAfterError() {
  if (error_.ok()) return false;
  if (reader_failed_) {
    if (!reader_->SkipToNextPacket()) return false;
    finished_ = false;
    reader_failed_ = false;
  }
  error_ = Status();
  failed_ = false;
  pending_ = nullptr;
  // A failed event may have left entries in its domain's backtrace that no delivered
  // event carried: common prefixes no longer say what was checked.
  check_all_ = true;
  return true;
}

}  // namespace mpo::memtrace::view
