// Mutators that read a trace as events with the oracle's reader, edit the events, and
// write them again with the writer: valid traces that put a codec feature where byte
// edits would rarely reach it in one piece. A trace is read up to its first error (a seed
// already damaged by an earlier step keeps its readable prefix); one that cannot be
// opened, or whose events the writer refuses, is declined.
#include <algorithm>
#include <map>
#include <memory>

#include "core/corpus/fuzz/mutators.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::corpus::fuzz {
namespace {

using memtrace::AllocationSource;
using memtrace::EventKind;
using memtrace::Location;
using memtrace::OcamlInt;

struct Ev {
  EventKind kind = EventKind::kAlloc;
  std::uint16_t domain = 0;
  std::int64_t time = 0;
  OcamlInt obj_id = 0;  // alloc: its id in the source trace; promote/collect: the target
  OcamlInt length = 1, nsamples = 1;
  AllocationSource source = AllocationSource::kMinor;
  std::vector<OcamlInt> backtrace;
};

struct Model {
  memtrace::Info info;
  int version = 0;
  std::vector<Ev> events;
  std::map<OcamlInt, std::vector<Location>> locations;
  OcamlInt next_code = 1;  // above every code used
};

// Traces this large are left to the byte mutators: reading and writing one per mutant
// would set the fuzzer's pace.
constexpr std::size_t kMaxEvents = 20000;

bool Read(std::span<const std::uint8_t> bytes, Model& m) {
  memtrace::ReaderOptions o;
  auto r = memtrace::TraceReader::Open(memtrace::MemorySource(bytes), o);
  if (!r.ok()) return false;
  memtrace::TraceReader& reader = **r;
  m.info = reader.info();
  m.version = reader.version();
  while (m.events.size() < kMaxEvents) {
    const memtrace::Event* e = reader.NextEvent();
    if (e == nullptr) break;
    Ev ev{e->kind,   e->domain,   e->time,   e->obj_id,
          e->length, e->nsamples, e->source, {e->backtrace.begin(), e->backtrace.end()}};
    bool known = true;
    for (OcamlInt code : ev.backtrace) {
      m.next_code = std::max(m.next_code, code + 1);
      if (m.locations.count(code) != 0) continue;
      const std::vector<Location>* frames = reader.LookupLocation(code);
      if (frames == nullptr) {
        known = false;
        break;
      }
      m.locations[code] = *frames;
    }
    if (known) m.events.push_back(std::move(ev));
  }
  return true;
}

// Writes the model as `version` (2 or 3). Ids are those the writer assigns; a promote or
// collect of an id the written trace never allocated is left out, and times are kept in
// order (a v3 trace's domains merge into one stream in v2).
bool Write(const Model& m, int version, std::vector<std::uint8_t>& out, std::size_t max_size) {
  memtrace::VectorSink sink;
  memtrace::Info info = m.info;
  if (version < 3) info.initial_domain = 0;
  memtrace::WriterOptions o;
  o.format_version = version;
  auto w = memtrace::TraceWriter::Create(sink, info, o);
  if (!w.ok()) return false;
  auto lookup = [&m](OcamlInt code) -> const std::vector<Location>* {
    auto it = m.locations.find(code);
    return it == m.locations.end() ? nullptr : &it->second;
  };
  std::map<OcamlInt, OcamlInt> ids;  // source id -> written id
  std::map<std::uint16_t, std::int64_t> last_time;
  for (const Ev& e : m.events) {
    const std::uint16_t domain = version < 3 ? 0 : e.domain;
    std::int64_t& last = last_time.try_emplace(domain, info.start_time).first->second;
    const std::int64_t t = std::max(e.time, last);
    last = t;
    if (e.kind == EventKind::kAlloc) {
      auto id = (*w)->PutAlloc(domain, t, e.length, e.nsamples, e.source, e.backtrace, lookup);
      if (!id.ok()) return false;
      ids[e.obj_id] = *id;
    } else {
      auto it = ids.find(e.obj_id);
      if (it == ids.end()) continue;
      const Status s = e.kind == EventKind::kPromote ? (*w)->PutPromote(domain, t, it->second)
                                                     : (*w)->PutCollect(domain, t, it->second);
      if (!s.ok()) return false;
    }
    if (sink.data.size() > max_size) return false;
  }
  if (!(*w)->Flush().ok() || sink.data.size() > max_size) return false;
  out = std::move(sink.data);
  return true;
}

// Where new events go: before event `at` (0..size), at the time and in the domain of the
// event before it.
struct Place {
  std::size_t at = 0;
  std::int64_t time = 0;
  std::uint16_t domain = 0;
};
Place PickPlace(FuzzRng& rng, const Model& m) {
  Place p;
  p.at = rng.Below(m.events.size() + 1);
  p.time = p.at == 0 ? m.info.start_time : m.events[p.at - 1].time;
  p.domain = p.at == 0 ? m.info.initial_domain : m.events[p.at - 1].domain;
  return p;
}

Ev AllocAt(const Place& p, std::vector<OcamlInt> backtrace) {
  Ev e;
  e.domain = p.domain;
  e.time = p.time;
  e.obj_id = -1;  // never the target of a promote or collect
  e.backtrace = std::move(backtrace);
  return e;
}

}  // namespace

bool RewriteVersion(MutationContext& c) {
  Model m;
  if (!Read(c.bytes, m)) return false;
  const int to = m.version == 3 ? 2 : 3;
  if (!Write(m, to, c.bytes, c.max_size)) return false;
  c.note = "v" + std::to_string(m.version) + " as v" + std::to_string(to);
  return true;
}

bool HitNRun(MutationContext& c) {
  Model m;
  if (!Read(c.bytes, m)) return false;
  // Run lengths around the count byte's edges (hit1, 127/128, 255/256: a new block).
  static constexpr int kRuns[] = {1, 2, 127, 128, 129, 254, 255, 256, 257, 300, 511, 512, 513};
  const int n = c.rng.Chance(3, 4) ? kRuns[c.rng.Index(std::size(kRuns))]
                                   : static_cast<int>(c.rng.Between(1, 600));
  std::vector<OcamlInt> run;
  for (int i = 0; i <= n; ++i) {
    const OcamlInt code = m.next_code++;
    m.locations[code] = {Location{"fz/run" + std::to_string(i % 40) + ".ml", 1 + i % 900, 1, 9,
                                  "Run.f" + std::to_string(i % 50)}};
    run.push_back(code);
  }
  // The codes are first written as misses in pieces under the 4096-byte backtrace limit,
  // then the whole run twice: the first time sets the predictions across the pieces, the
  // second is one hit and n predictions.
  const Place p = PickPlace(c.rng, m);
  std::vector<Ev> added;
  for (std::size_t from = 0; from < run.size(); from += 300) {
    const auto begin = run.begin() + static_cast<std::ptrdiff_t>(from);
    const auto end = run.begin() + static_cast<std::ptrdiff_t>(std::min(run.size(), from + 300));
    added.push_back(AllocAt(p, std::vector<OcamlInt>(begin, end)));
  }
  added.push_back(AllocAt(p, run));
  // An unrelated backtrace between the two: the second run shares no common prefix.
  const OcamlInt other = m.next_code++;
  m.locations[other] = {Location{"fz/other.ml", 1, 1, 2, "Other.f"}};
  added.push_back(AllocAt(p, {other}));
  added.push_back(AllocAt(p, run));
  m.events.insert(m.events.begin() + static_cast<std::ptrdiff_t>(p.at), added.begin(), added.end());
  if (!Write(m, m.version == 3 ? 3 : 2, c.bytes, c.max_size)) return false;
  c.note = "run of " + std::to_string(n) + " before event " + std::to_string(p.at);
  return true;
}

bool MtfRefs(MutationContext& c) {
  Model m;
  if (!Read(c.bytes, m)) return false;
  // Each new location names the entry at a chosen slot of a move-to-front list of
  // filenames (and, per file, of defnames) kept as the tables keep theirs: 31 entries, a
  // hit moves its entry to the front, a new name evicts the last. Slots 0..30 are hits
  // (when that many names exist), 31 a new name; the seed's own names share the tables,
  // so the slots the reader sees are shifted, which is more variety still.
  constexpr std::size_t kSlots = 31;
  const std::size_t count = 1 + c.rng.Below(c.rng.Chance(1, 2) ? 40 : 120);
  std::vector<std::string> files;
  std::map<std::string, std::vector<std::string>> defs;
  std::size_t new_file = 0, new_def = 0;
  auto use = [&](std::vector<std::string>& table, std::size_t slot, auto make) {
    std::string name;
    if (slot < table.size()) {
      name = table[slot];
      table.erase(table.begin() + static_cast<std::ptrdiff_t>(slot));
    } else {
      name = make();
      if (table.size() == kSlots) table.pop_back();
    }
    table.insert(table.begin(), name);
    return name;
  };
  auto slot = [&c] {
    return c.rng.Chance(1, 3) ? kSlots : c.rng.Chance(1, 2) ? c.rng.Below(4) : c.rng.Below(kSlots);
  };
  const Place p = PickPlace(c.rng, m);
  std::vector<Ev> added;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string file =
        use(files, slot(), [&] { return "fz/mtf" + std::to_string(new_file++) + ".ml"; });
    const std::string def =
        use(defs[file], slot(), [&] { return "Mtf.d" + std::to_string(new_def++); });
    const OcamlInt code = m.next_code++;
    m.locations[code] = {Location{file, 1 + static_cast<OcamlInt>(i), 0, 4, def}};
    added.push_back(AllocAt(p, {code}));
  }
  m.events.insert(m.events.begin() + static_cast<std::ptrdiff_t>(p.at), added.begin(), added.end());
  if (!Write(m, m.version == 3 ? 3 : 2, c.bytes, c.max_size)) return false;
  c.note = std::to_string(count) + " locations before event " + std::to_string(p.at);
  return true;
}

}  // namespace mpo::corpus::fuzz
