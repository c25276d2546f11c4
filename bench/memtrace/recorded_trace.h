// The events of a trace held for replaying into a writer, packed so that a replay streams
// about as much memory as the trace's own bytes (a writer fed by a reader or a tracer gets
// each event hot; a benchmark that streamed 80-byte Events would time its own memory
// traffic as the writer's).
//
// An event takes 16 bytes; an alloc's backtrace keeps only the entries after its common
// prefix with the previous alloc of its domain (what a reader hands over), each as a
// 4-byte index into the trace's distinct codes. An event with a field that does not fit
// (a time step or value over 32 bits, a prefix or count over 16, an alloc id other than
// its domain's previous one plus one) is kept whole in `wide`, in order.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/memtrace/event.h"
#include "core/memtrace/ocaml_int.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::bench {

struct RecordedTrace {
  struct Rec {
    std::uint32_t dt = 0;     // time since the previous event
    std::uint32_t value = 0;  // alloc: length; promote, collect: obj_id
    std::uint16_t common = 0;
    std::uint16_t suffix_len = 0;
    std::uint16_t nsamples = 0;
    std::uint8_t slot = 0;   // the domain's index in order of appearance: domain_ids[slot]
    std::uint8_t flags = 0;  // kind | source << 2 | kWide
  };
  static constexpr std::uint8_t kWide = 0x80;
  struct Wide {
    Event ev;  // backtrace empty
    std::uint32_t common = 0;
    std::uint32_t suffix_len = 0;
  };

  std::unique_ptr<TraceReader> reader;  // owns the locations a lookup returns
  std::vector<Rec> events;
  std::vector<Wide> wide;
  std::vector<std::uint32_t> suffixes;  // indices into `codes`
  std::vector<OcamlInt> codes;
  std::vector<std::uint16_t> domain_ids;
  std::int64_t first_time = 0;
  std::size_t deepest = 0;

  // Calls f(event, slot, common) for every event in order; an alloc's backtrace is
  // rebuilt in bts[slot] (see Buffers) and valid until the next alloc of that slot.
  template <class F>
  void Replay(std::vector<std::vector<OcamlInt>>& bts, F&& f) const;
  std::vector<std::vector<OcamlInt>> Buffers() const {
    return std::vector<std::vector<OcamlInt>>(domain_ids.size(), std::vector<OcamlInt>(deepest));
  }
};

// Reads the whole trace; a reader that fails, or a trace of more than 256 domains, gives
// a RecordedTrace without a reader.
RecordedTrace Record(std::span<const std::uint8_t> trace);

template <class F>
void RecordedTrace::Replay(std::vector<std::vector<OcamlInt>>& bts, F&& f) const {
  std::vector<OcamlInt> next_id(domain_ids.size(), 0);
  std::int64_t time = first_time;
  const Wide* w = wide.data();
  const std::uint32_t* suffix = suffixes.data();
  const OcamlInt* const code = codes.data();
  Event ev;
  for (const Rec& rec : events) {
    std::uint32_t common = rec.common;
    std::uint32_t len = rec.suffix_len;
    if (rec.flags & kWide) [[unlikely]] {
      ev = w->ev;
      common = w->common;
      len = w->suffix_len;
      time = ev.time;
      ++w;
    } else {
      time += rec.dt;
      ev.kind = static_cast<EventKind>(rec.flags & 3);
      ev.time = time;
      ev.domain = domain_ids[rec.slot];
      if (ev.kind == EventKind::kAlloc) {
        ev.obj_id = next_id[rec.slot];
        ev.length = rec.value;
        ev.nsamples = rec.nsamples;
        ev.source = static_cast<AllocationSource>((rec.flags >> 2) & 3);
      } else {
        ev.obj_id = rec.value;
      }
    }
    if (ev.kind == EventKind::kAlloc) {
      next_id[rec.slot] = OcamlAdd(ev.obj_id, 1);
      OcamlInt* const bt = bts[rec.slot].data();
      for (std::uint32_t i = 0; i < len; ++i) bt[common + i] = code[suffix[i]];
      suffix += len;
      ev.common_prefix = common;
      ev.backtrace = {bt, common + len};
    }
    f(static_cast<const Event&>(ev), rec.slot, common);
  }
}

}  // namespace mpo::memtrace::bench
