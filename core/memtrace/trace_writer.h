// Writer of memtrace traces in format v2 (what memtrace 0.2.3 writes) or v3 (memtrace
// HEAD), mirroring Trace.Writer and Trace.Writer.Multiplexed_domains.
//
// 1. Data. One per-domain writer per domain seen: a 32 KiB event packet being filled, the
//    locations that missed the backtrace cache in this packet, the location MTF state, the
//    backtrace cache, the previous backtrace (for the common prefix) and a range of object
//    ids. Memory: a few packets per domain, independent of the trace length.
// 2. Packets. The first packet holds the trace info. An event packet is flushed before an
//    event when it has less room than a maximal event (100 + 4096 bytes), when more than
//    128 new locations are pending, when the event is more than 30 s after the packet's
//    start, or (v3) when the domain's object-id chunk is exhausted. A flush writes the
//    pending locations first, in as many location packets as needed (each filled while more
//    than 4096 bytes remain), then the event packet. Explicit Flush() and a switch to
//    another domain flush too.
// 3. Object ids. v2: one counter. v3: chunks of `obj_ids_per_chunk` (10,000) ids taken
//    from one counter shared by all domains; a domain takes a chunk when first seen and
//    whenever its chunk runs out.
// 4. Allocations use the short form (codes 101..116) for minor, single-sample objects of
//    1..16 words with fewer than 256 new backtrace entries; otherwise the long form.
// 5. Fork safety. Before writing a packet the writer asks `getpid`; if the pid changed,
//    nothing more is written and every call returns kFailedPrecondition.
// Failure: a Status per call; after any failure the writer is stopped (sticky) and writes
// nothing more; packets written before stay written. Bad arguments (out-of-order times,
// wrong object ids, a domain in a v2 trace, a negative promote delta) are
// kInvalidArgument and stop nothing.
// Threading: one thread at a time (memtrace's multiplexed writer has the same rule).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/packet_header.h"

namespace mpo::memtrace {

struct WriterOptions {
  int format_version = 3;                  // 2 or 3
  std::int64_t obj_ids_per_chunk = 10000;  // v3 only
  ColumnPacking column_packing = ColumnPacking::kCurrent;
  // Copying a trace: when an alloc event carries another id than the writer would assign
  // (domains whose chunks were taken in another order than their events appear), end the
  // packet and continue from the event's id, in the chunk that contains it.
  bool adopt_object_ids = false;
  // Copying a trace: every alloc event given to PutEvent comes from one TraceReader, in
  // the order read, and none is left out. Then an event's `common_prefix` entries (at
  // most its backtrace's length) are already known to equal the previous alloc's of the
  // domain, and only the entries after them are compared. Wrong if the promise is broken.
  bool trust_common_prefix = false;
  // Called before each packet is written; default: the info's pid never changes.
  std::function<std::int64_t()> getpid;
};

// The frames of a location code, or nullptr when unknown (the write then fails with
// kNotFound). Called only for codes that miss the backtrace cache. The writer keeps the
// pointer until the packet is flushed (it does not copy the frames): the vector must stay
// valid and unchanged until the next Flush or the writer's destruction. TraceReader's
// LookupLocation pointers satisfy this.
using LocationLookup = std::function<const std::vector<Location>*(OcamlInt code)>;

class TraceWriter {
 public:
  // Writes the trace-info packet at once.
  static Result<std::unique_ptr<TraceWriter>> Create(ByteSink& sink, const Info& info,
                                                     WriterOptions options = {});
  ~TraceWriter();

  // `backtrace` is caller first, allocation site last. Returns the new object id.
  Result<OcamlInt> PutAlloc(std::uint16_t domain, std::int64_t time, OcamlInt length,
                            OcamlInt nsamples, AllocationSource source,
                            std::span<const OcamlInt> backtrace, const LocationLookup& lookup);
  Status PutPromote(std::uint16_t domain, std::int64_t time, OcamlInt obj_id);
  Status PutCollect(std::uint16_t domain, std::int64_t time, OcamlInt obj_id);
  // Writes a decoded event; an alloc must carry the id the writer assigns (unless
  // `adopt_object_ids`).
  Status PutEvent(const Event& ev, const LocationLookup& lookup);
  // The id the next alloc of `domain` will get (may flush, as memtrace does).
  Result<OcamlInt> NextAllocId(std::uint16_t domain);
  // Flushes the current domain's packet (the others are flushed already).
  Status Flush();

 private:
  struct DomainWriter;
  TraceWriter(ByteSink& sink, const Info& info, WriterOptions options);
  Result<DomainWriter*> WriterFor(std::uint16_t domain);
  Status FlushAt(DomainWriter& w, std::int64_t now);
  // Per-event helpers: false (or nullptr) and *err set on failure (*err untouched on
  // success).
  // Flushes if needed and writes the event header; returns where the event's fields go,
  // with room for kMaxEventSize bytes from the header on (one check per event).
  std::uint8_t* BeginEvent(DomainWriter& w, unsigned code, std::int64_t now, Status* err);
  bool NeedsFlush(const DomainWriter& w, std::int64_t now) const;
  void NewPacket(DomainWriter& w);
  bool CheckUsable(std::uint16_t domain, std::int64_t time, Status* err);
  bool CheckUsableSlow(std::uint16_t domain, std::int64_t time, Status* err);
  Status PutIdEvent(std::uint16_t domain, std::int64_t time, OcamlInt obj_id, bool promote);
  Status PutAllocEvent(const Event& ev, const LocationLookup& lookup);
  // An alloc id other than the one the writer would assign, with adopt_object_ids.
  bool AdoptObjectId(DomainWriter& w, OcamlInt obj_id, Status* err);
  // PutAlloc once CheckUsable has passed for `w` (the current domain's writer); sets *id.
  bool PutUsableAlloc(DomainWriter& w, std::int64_t time, OcamlInt length, OcamlInt nsamples,
                      AllocationSource source, std::span<const OcamlInt> bt,
                      const LocationLookup& lookup, std::size_t known_common, OcamlInt* id,
                      Status* err);

  ByteSink& sink_;
  Info info_;
  WriterOptions options_;
  std::int64_t pid_;
  OcamlInt global_ids_ = 0;
  std::unordered_map<std::uint16_t, std::unique_ptr<DomainWriter>> writers_;
  DomainWriter* last_ = nullptr;
  std::uint16_t last_domain_ = 0;
  Status stopped_;
  ByteWriter location_packet_;
};

}  // namespace mpo::memtrace
