#include "bench/memtrace/recorded_trace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/common_prefix.h"

namespace mpo::memtrace::bench {

namespace {

template <class T>
bool Fits(std::int64_t v) {
  return 0 <= v && static_cast<std::uint64_t>(v) <= std::numeric_limits<T>::max();
}

struct DomainState {
  std::uint8_t slot = 0;
  OcamlInt next_id = 0;
  std::vector<OcamlInt> last;  // the previous alloc's backtrace
};

}  // namespace

RecordedTrace Record(std::span<const std::uint8_t> trace) {
  RecordedTrace out;
  auto r = TraceReader::Open(MemorySource(trace));
  if (!r.ok()) return out;
  std::map<std::uint16_t, DomainState> domains;
  std::unordered_map<OcamlInt, std::uint32_t> code_ids;
  std::int64_t prev_time = 0;
  while (const Event* ev = (*r)->NextEvent()) {
    auto it = domains.find(ev->domain);
    if (it == domains.end()) {
      if (domains.size() > 255) return RecordedTrace{};
      DomainState d;
      d.slot = static_cast<std::uint8_t>(domains.size());
      out.domain_ids.push_back(ev->domain);
      it = domains.emplace(ev->domain, std::move(d)).first;
    }
    DomainState& d = it->second;
    if (out.events.empty()) out.first_time = prev_time = ev->time;
    RecordedTrace::Rec rec;
    rec.slot = d.slot;
    rec.flags = static_cast<std::uint8_t>(ev->kind);
    const std::int64_t dt = static_cast<std::int64_t>(static_cast<std::uint64_t>(ev->time) -
                                                      static_cast<std::uint64_t>(prev_time));
    bool wide = ev->time < prev_time || !Fits<std::uint32_t>(dt);
    rec.dt = static_cast<std::uint32_t>(dt);
    prev_time = ev->time;
    std::size_t common = 0;
    std::size_t len = 0;
    if (ev->kind == EventKind::kAlloc) {
      const std::span<const OcamlInt> bt = ev->backtrace;
      common = CommonPrefix(bt, d.last);
      len = bt.size() - common;
      for (std::size_t i = common; i < bt.size(); ++i) {
        auto [c, added] = code_ids.emplace(bt[i], static_cast<std::uint32_t>(out.codes.size()));
        if (added) out.codes.push_back(bt[i]);
        out.suffixes.push_back(c->second);
      }
      d.last.assign(bt.begin(), bt.end());
      out.deepest = std::max(out.deepest, d.last.size());
      wide = wide || ev->obj_id != d.next_id || !Fits<std::uint32_t>(ev->length) ||
             !Fits<std::uint16_t>(ev->nsamples) || !Fits<std::uint16_t>(common) ||
             !Fits<std::uint16_t>(len);
      d.next_id = OcamlAdd(ev->obj_id, 1);
      rec.value = static_cast<std::uint32_t>(ev->length);
      rec.nsamples = static_cast<std::uint16_t>(ev->nsamples);
      rec.common = static_cast<std::uint16_t>(common);
      rec.suffix_len = static_cast<std::uint16_t>(len);
      rec.flags |= static_cast<std::uint8_t>(static_cast<unsigned>(ev->source) << 2);
    } else {
      wide = wide || !Fits<std::uint32_t>(ev->obj_id);
      rec.value = static_cast<std::uint32_t>(ev->obj_id);
    }
    if (wide) {
      rec.flags |= RecordedTrace::kWide;
      RecordedTrace::Wide w;
      w.ev = *ev;
      w.ev.backtrace = {};
      w.common = static_cast<std::uint32_t>(common);
      w.suffix_len = static_cast<std::uint32_t>(len);
      out.wide.push_back(w);
    }
    out.events.push_back(rec);
  }
  if (!(*r)->status().ok()) return RecordedTrace{};
  out.reader = std::move(*r);
  return out;
}

}  // namespace mpo::memtrace::bench
