// The reader's half of the canonical check (ReaderOptions::check_canonical): an observer
// that the event decoder (trace_reader_impl.h) calls with each event it has decoded and
// where its fields lay, so that the check never sits inside the decoding.
//
// 1. What it checks, event by event: every vint in its shortest form, the short alloc
//    form exactly when the writer takes it (UsesShortAlloc), and packets holding location
//    events only or other events only. The backtrace codewords are the backtrace codec's
//    (BacktraceReader::CheckCanonical); packets, their headers and the location packets
//    are CanonicalCheck's (canonical_check.h).
// 2. Two observers with the same calls: CanonicalEvents checks, NoCanonicalEvents does
//    nothing and compiles away. The decoder takes the observer as a template parameter
//    (kActive tells the backtrace codec whether to check too), so the reader's unchecked
//    loop carries no test of the option.
// 3. Each call is made once the fields it names are decoded and every check of the
//    event before it passed; a call never fails, it only clears ok().
#pragma once

#include <cstdint>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"
#include "core/memtrace/event.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/writer_rules.h"

namespace mpo::memtrace {

class CanonicalEvents {
 public:
  static constexpr bool kActive = true;

  // A packet about to be read, whose domain's backtrace cache is `backtraces`: nothing in
  // it yet, and the cache slot its verifier names as it stands before the packet.
  void OnPacket(const PacketHeader& h, const BacktraceReader& backtraces) {
    packet_locations_ = packet_events_ = false;
    const std::uint16_t ix = h.verifier.ix;
    packet_slot_ = ix < kCacheSize ? backtraces.Slot(ix) : CacheVerifier{ix, 0, 0};
  }
  void OnLocation() {
    canonical_ &= !packet_events_;
    packet_locations_ = true;
  }
  // A promote or collect whose delta, `delta`, was the vint at `vint`.
  void OnIdDelta(const std::uint8_t* vint, OcamlInt delta) {
    OnFields(VintIsCanonical(vint, delta));
  }
  // A short alloc's common prefix and a long alloc's three vints, as read.
  void OnShortAlloc(const std::uint8_t* common_vint, OcamlInt common) {
    OnFields(VintIsCanonical(common_vint, common));
  }
  void OnLongAlloc(const std::uint8_t* length_vint, OcamlInt length,
                   const std::uint8_t* nsamples_vint, OcamlInt nsamples,
                   const std::uint8_t* common_vint, OcamlInt common) {
    OnFields(VintIsCanonical(length_vint, length) && VintIsCanonical(nsamples_vint, nsamples) &&
             VintIsCanonical(common_vint, common));
  }
  // An alloc with its backtrace decoded by `backtraces`: the writer's form (short or
  // long) for it. A backtrace shorter than its common prefix was refused by the
  // backtrace codec's own check, which then answers for it.
  void OnBacktrace(bool is_short, const Event& e, const BacktraceReader& backtraces) {
    const std::size_t new_entries = e.backtrace.size() - static_cast<std::size_t>(e.common_prefix);
    canonical_ &= UsesShortAlloc(e.length, e.nsamples, e.source, new_entries) == is_short ||
                  !backtraces.canonical();
  }
  // The trace was read past this observer (an unchecked loop): it can no longer say yes.
  void Abandon() { canonical_ = false; }

  // Every event so far coded as the writer codes it (sticky).
  bool ok() const { return canonical_; }
  const CacheVerifier& packet_slot() const { return packet_slot_; }

 private:
  // An alloc, promote or collect with `fields` as the writer codes them, in a packet of
  // such events only.
  void OnFields(bool fields) {
    canonical_ &= fields & !packet_locations_;
    packet_events_ = true;
  }

  bool canonical_ = true;
  bool packet_locations_ = false;
  bool packet_events_ = false;
  CacheVerifier packet_slot_;
};

// CanonicalEvents' calls, doing nothing.
struct NoCanonicalEvents {
  static constexpr bool kActive = false;
  void OnLocation() {}
  void OnIdDelta(const std::uint8_t* /*vint*/, OcamlInt /*delta*/) {}
  void OnShortAlloc(const std::uint8_t* /*common_vint*/, OcamlInt /*common*/) {}
  void OnLongAlloc(const std::uint8_t* /*length_vint*/, OcamlInt /*length*/,
                   const std::uint8_t* /*nsamples_vint*/, OcamlInt /*nsamples*/,
                   const std::uint8_t* /*common_vint*/, OcamlInt /*common*/) {}
  void OnBacktrace(bool /*is_short*/, const Event& /*e*/, const BacktraceReader& /*backtraces*/) {}
};

}  // namespace mpo::memtrace
