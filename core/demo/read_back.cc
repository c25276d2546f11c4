#include "core/demo/read_back.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"

namespace mpo::demo {
namespace {

using memtrace::EventKind;
using memtrace::OcamlInt;

std::string EventText(EventKind k) {
  switch (k) {
    case EventKind::kAlloc: return "alloc";
    case EventKind::kPromote: return "promote";
    case EventKind::kCollect: return "collect";
  }
  return "?";
}

// The sites as `memtrace stats --callers 1` attributes them (the one rule,
// core/memtrace/analysis/trace_analysis.h: the innermost frame, here the workload's
// allocation point, and its nearest caller frame).
void FillSites(const std::string& path, DemoReport& r, std::vector<std::string>& failures) {
  auto src = memtrace::OpenFileSource(path);
  if (!src.ok()) {
    failures.push_back("trace: " + src.status().message());
    return;
  }
  memtrace::analysis::AnalysisOptions o;
  o.callers = 1;
  auto a = memtrace::analysis::AnalyzeTrace(**src, o);
  if (!a.ok()) {
    failures.push_back("trace: " + a.status().message());
    return;
  }
  for (const memtrace::analysis::Site& s : a->sites) {  // by samples, descending
    SiteFigures f;
    f.name = memtrace::analysis::SiteText(s);
    if (s.names.size() > 1) f.name += " <- " + memtrace::analysis::CallersText(s);
    f.allocs = s.allocated.blocks;
    f.samples = s.allocated.samples;
    f.sampled_words = s.allocated.words;
    r.sites.push_back(std::move(f));
  }
}

}  // namespace

void CheckTrace(const TraceExpectations& x, DemoReport& r, std::vector<std::string>& failures) {
  auto reader = memtrace::TraceReader::OpenFile(x.path);
  if (!reader.ok()) {
    failures.push_back("trace: " + reader.status().message());
    return;
  }
  memtrace::TraceReader& rd = **reader;
  if (rd.version() != x.format_version) {
    failures.push_back("trace: format version " + std::to_string(rd.version()));
  }
  std::size_t i = 0;
  bool reported = false;
  auto mismatch = [&](const std::string& what) {
    if (!reported) {
      failures.push_back("trace event " + std::to_string(i) + ": " + what);
      reported = true;
    }
  };
  std::map<OcamlInt, std::int64_t> alloc_time;
  std::map<OcamlInt, std::pair<memtrace::AllocationSource, bool>> objects;  // promoted?
  std::map<OcamlInt, std::int64_t> collect_time;
  std::unordered_map<OcamlInt, bool> codes;
  while (const memtrace::Event* e = rd.NextEvent()) {
    switch (e->kind) {
      case EventKind::kAlloc: ++r.trace_allocs; break;
      case EventKind::kPromote: ++r.trace_promotes; break;
      case EventKind::kCollect: ++r.trace_collects; break;
    }
    if (i >= x.expected.size()) {
      mismatch("not in what the engine saw (" + EventText(e->kind) + " of object " +
               std::to_string(e->obj_id) + ")");
    } else {
      const Expected& want = x.expected[i];
      if (e->kind != want.kind || e->obj_id != want.id) {
        mismatch("trace has " + EventText(e->kind) + " of object " + std::to_string(e->obj_id) +
                 ", the engine saw " + EventText(want.kind) + " of object " +
                 std::to_string(want.id));
      } else if (x.format_version == 3 && e->domain != want.stream) {
        mismatch("domain " + std::to_string(e->domain) + ", expected " +
                 std::to_string(want.stream));
      } else if (e->kind == EventKind::kAlloc &&
                 (e->length != want.length || e->nsamples != want.nsamples ||
                  e->source != want.source ||
                  !std::equal(e->backtrace.begin(), e->backtrace.end(), want.backtrace.begin(),
                              want.backtrace.end()))) {
        mismatch("allocation of object " + std::to_string(e->obj_id) +
                 " differs (length, samples, source or backtrace)");
      }
    }
    if (e->kind == EventKind::kAlloc) {
      alloc_time[e->obj_id] = e->time;
      objects[e->obj_id] = {e->source, false};
      for (OcamlInt code : e->backtrace) codes.emplace(code, true);
    } else if (e->kind == EventKind::kPromote) {
      auto it = objects.find(e->obj_id);
      if (it != objects.end()) it->second.second = true;
    } else {
      collect_time[e->obj_id] = e->time;
    }
    ++i;
  }
  if (!rd.status().ok()) failures.push_back("trace: " + rd.status().message());
  if (!rd.warnings().empty()) {
    failures.push_back("trace: reader warning: " + rd.warnings().front().message);
  }
  if (i < x.expected.size()) {
    mismatch("trace ends; the engine saw " + std::to_string(x.expected.size()) + " events");
  }
  // Every location the trace names decodes to the frames we gave the tracer.
  for (const auto& [code, unused] : codes) {
    const auto* got = rd.LookupLocation(code);
    const auto* want = x.frames->Lookup(code);
    if (got == nullptr || *got != *want) {
      failures.push_back("trace: locations of code " + std::to_string(code) + " differ");
      break;
    }
  }
  // Every object is collected once, after its allocation.
  for (const auto& [id, src] : objects) {
    auto c = collect_time.find(id);
    if (c == collect_time.end()) {
      failures.push_back("trace: object " + std::to_string(id) + " never collected");
      break;
    }
    if (c->second < alloc_time[id]) {
      failures.push_back("trace: object " + std::to_string(id) + " collected before its alloc");
      break;
    }
    if (src.first == memtrace::AllocationSource::kExternal) continue;
    ++r.sampled_blocks;
    if (src.first == memtrace::AllocationSource::kMinor) {
      ++r.minor_sampled;
      if (src.second) ++r.promoted;
    }
    if (c->second >= x.teardown_us) ++r.survived_to_end;
  }
  FillSites(x.path, r, failures);
}

namespace {

class RingTally : public ring::EventCallbacks {
 public:
  bool RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) override {
    ++begins;
    open[{ring, phase}] = ts;
    return true;
  }
  bool RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) override {
    ++ends;
    auto it = open.find({ring, phase});
    if (it != open.end()) {
      auto& t = time[{ring, phase}];
      t.first += 1;
      t.second += ts - it->second;
      open.erase(it);
    } else {
      ++unmatched;
    }
    return true;
  }
  bool RuntimeCounter(std::uint32_t, std::uint64_t, unsigned, std::uint64_t) override {
    ++counters;
    return true;
  }
  bool LifecycleEvent(std::uint32_t, std::uint64_t, unsigned kind, std::int64_t) override {
    ++lifecycle;
    if (kind == static_cast<unsigned>(ring::Lifecycle::kRingStop)) ++stops;
    return true;
  }
  bool LostEvents(std::uint32_t, std::uint64_t words) override {
    lost += words;
    return true;
  }
  void PaddingSkipped(std::uint32_t, std::uint64_t words) override { padding += words; }
  std::uint64_t begins = 0, ends = 0, counters = 0, lifecycle = 0, stops = 0, lost = 0;
  std::uint64_t padding = 0;
  std::uint64_t unmatched = 0;
  std::map<std::pair<std::uint32_t, unsigned>, std::uint64_t> open;
  std::map<std::pair<std::uint32_t, unsigned>, std::pair<std::uint64_t, std::uint64_t>> time;
};

// Words the events read took in the ring.
std::uint64_t EventWords(const RingTally& t) {
  return tracer::kPhaseEventWords * (t.begins + t.ends) + tracer::kCounterEventWords * t.counters +
         tracer::kLifecycleEventWords * (t.lifecycle - t.stops) +
         tracer::kRingStopEventWords * t.stops;
}

}  // namespace

void CheckRing(const std::string& path, const tracer::RingReporter::Written& w, DemoReport& r,
               std::vector<std::string>& failures) {
  auto cursor = ring::Cursor::OpenFile(path);
  if (!cursor.ok()) {
    failures.push_back("ring: " + cursor.status().message());
    return;
  }
  RingTally tally;
  while (true) {
    auto n = cursor->ReadPoll(tally);
    if (!n.ok()) {
      failures.push_back("ring: " + n.status().message());
      return;
    }
    if (*n == 0) break;
  }
  r.ring_events = tally.begins + tally.ends + tally.counters + tally.lifecycle;
  r.ring_lost_words = tally.lost;
  // Padding counts on both sides: a lost range can hold padding as well as events, so
  // only the sums compare.
  const std::uint64_t written_words = w.words;
  const std::uint64_t read_words = EventWords(tally) + tally.padding;
  if (written_words != read_words + tally.lost) {
    failures.push_back("ring: wrote " + std::to_string(written_words) +
                       " words (events and padding), read " + std::to_string(read_words) + " and " +
                       std::to_string(tally.lost) + " reported lost");
  }
  if (tally.lost == 0 && (tally.unmatched != 0 || !tally.open.empty())) {
    failures.push_back("ring: phase begin/end events do not pair up");
  }
  for (const auto& [key, t] : tally.time) {
    auto name = ring::PhaseName(ring::OcamlVersion::k5_3, key.second);
    r.phases.push_back(
        {key.first, name ? std::string(*name) : std::to_string(key.second), t.first, t.second});
  }
}

}  // namespace mpo::demo
