#include "core/memtrace/internal/roundtrip_check.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::testing {

std::vector<Location> FramesFor(OcamlInt code) {
  const std::uint64_t u = OcamlUnsigned(code);
  std::vector<Location> v;
  const int n = static_cast<int>(u % 4);
  for (int i = 0; i < n; ++i) {
    Location l;
    l.filename = "file" + std::to_string((u >> 3) % 40) + ".ml";  // > 31 files: evictions
    l.defname = "Mod.fn" + std::to_string((u >> 5) % 37 + static_cast<std::uint64_t>(i));
    l.line = static_cast<OcamlInt>((u >> 7) % 2000000) - 1000;  // sometimes out of range
    l.start_char = static_cast<OcamlInt>((u >> 9) % 300);
    l.end_char = static_cast<OcamlInt>((u >> 11) % 1200);
    v.push_back(l);
  }
  if (u % 97 == 0) v.push_back(Location{std::string(5000, 'x'), 1, 1, 1, "big"});
  return v;
}

std::vector<Location> ExpectedFramesFor(OcamlInt code) {
  std::vector<Location> v = FramesFor(code);
  std::size_t worst = 9;
  for (const Location& l : v) worst += 6 + l.filename.size() + 1 + l.defname.size() + 1;
  if (v.size() > kMaxLocationFrames || worst > kMaxLocationLength) return {UnknownLocation()};
  auto clamp = [](OcamlInt x, OcamlInt lim) { return (x < 0 || x > lim) ? lim : x; };
  for (Location& l : v) {
    l.line = clamp(l.line, kLineMax);
    l.start_char = clamp(l.start_char, kStartCharMax);
    l.end_char = clamp(l.end_char, kEndCharMax);
  }
  return v;
}

namespace {

Status Mismatch(std::size_t i, const std::string& what, std::int64_t want, std::int64_t got) {
  return Status(ErrorCode::kInternal, "event " + std::to_string(i) + ": " + what + " wrote " +
                                          std::to_string(want) + ", read " + std::to_string(got));
}

struct Written {
  Event ev;
  std::vector<OcamlInt> bt;
};

}  // namespace

Status CheckRoundTrip(const std::vector<GenEvent>& events, int version,
                      std::int64_t obj_ids_per_chunk) {
  Info info;
  info.sample_rate = 1e-3;
  info.executable_name = "gen";
  info.host_name = "host";
  info.ocaml_runtime_params = "p";
  info.pid = 4242;
  info.start_time = 1700000000000000;
  info.context = "ctx";
  VectorSink sink;
  WriterOptions opts;
  opts.format_version = version;
  opts.obj_ids_per_chunk = obj_ids_per_chunk;
  auto w = TraceWriter::Create(sink, info, opts);
  if (!w.ok()) return w.status();
  std::map<OcamlInt, std::vector<Location>> frames;
  LocationLookup lookup = [&](OcamlInt c) { return &(frames[c] = FramesFor(c)); };
  std::vector<Written> written;
  std::map<std::uint16_t, std::vector<OcamlInt>> ids;      // allocs per domain
  std::map<std::uint16_t, std::vector<OcamlInt>> last_bt;  // per domain
  std::int64_t now = info.start_time;
  for (const GenEvent& g : events) {
    const std::uint16_t dom = version >= 3 ? g.domain : 0;
    now += std::max<std::int64_t>(0, g.dt);
    Written x;
    x.ev.time = now;
    x.ev.domain = dom;
    x.ev.kind = g.kind;
    if (g.kind == EventKind::kAlloc) {
      x.bt.assign(g.backtrace.begin(),
                  g.backtrace.begin() + std::min(g.backtrace.size(), kMaxGenBacktrace));
      auto id = (*w)->PutAlloc(dom, now, g.length, g.nsamples, g.source, x.bt, lookup);
      if (!id.ok()) return id.status();
      x.ev.obj_id = *id;
      x.ev.length = g.length;
      x.ev.nsamples = g.nsamples;
      x.ev.source = g.source;
      const auto& prev = last_bt[dom];
      std::size_t common = 0;
      while (common < prev.size() && common < x.bt.size() && prev[common] == x.bt[common]) ++common;
      x.ev.common_prefix = static_cast<OcamlInt>(common);
      last_bt[dom] = x.bt;
      ids[dom].push_back(*id);
    } else {
      auto& mine = ids[dom];
      if (mine.empty()) continue;
      const OcamlInt target = mine[mine.size() - 1 - g.target % mine.size()];
      Status s = g.kind == EventKind::kPromote ? (*w)->PutPromote(dom, now, target)
                                               : (*w)->PutCollect(dom, now, target);
      if (!s.ok()) return s;
      x.ev.obj_id = target;
    }
    written.push_back(std::move(x));
  }
  MPO_RETURN_IF_ERROR((*w)->Flush());

  auto r = TraceReader::Open(MemorySource(sink.data));
  if (!r.ok()) return r.status();
  if (!((*r)->info() == info)) return Status(ErrorCode::kInternal, "info differs");
  for (std::size_t i = 0; i <= written.size(); ++i) {
    auto ev = (*r)->Next();
    if (!ev.ok()) return ev.status();
    if (i == written.size()) {
      if (*ev != nullptr) return Status(ErrorCode::kInternal, "extra events read back");
      break;
    }
    if (*ev == nullptr)
      return Status(ErrorCode::kInternal, "missing events from " + std::to_string(i));
    const Event& got = **ev;
    const Written& want = written[i];
    if (got.kind != want.ev.kind) return Mismatch(i, "kind", int(want.ev.kind), int(got.kind));
    if (got.time != want.ev.time) return Mismatch(i, "time", want.ev.time, got.time);
    if (got.domain != want.ev.domain) return Mismatch(i, "domain", want.ev.domain, got.domain);
    if (got.obj_id != want.ev.obj_id) return Mismatch(i, "obj_id", want.ev.obj_id, got.obj_id);
    if (got.kind != EventKind::kAlloc) continue;
    if (got.length != want.ev.length) return Mismatch(i, "length", want.ev.length, got.length);
    if (got.nsamples != want.ev.nsamples)
      return Mismatch(i, "nsamples", want.ev.nsamples, got.nsamples);
    if (got.source != want.ev.source)
      return Mismatch(i, "source", int(want.ev.source), int(got.source));
    if (got.common_prefix != want.ev.common_prefix)
      return Mismatch(i, "common_prefix", want.ev.common_prefix, got.common_prefix);
    if (!std::equal(got.backtrace.begin(), got.backtrace.end(), want.bt.begin(), want.bt.end()))
      return Mismatch(i, "backtrace (length)", static_cast<std::int64_t>(want.bt.size()),
                      static_cast<std::int64_t>(got.backtrace.size()));
    for (OcamlInt code : got.backtrace) {
      const std::vector<Location>* locs = (*r)->LookupLocation(code);
      // Both caches start filled with code 0, so memtrace never writes a location event for
      // code 0: it is a cache hit the first time it is seen.
      if (code == 0 && locs == nullptr) continue;
      if (locs == nullptr || *locs != ExpectedFramesFor(code))
        return Status(ErrorCode::kInternal, "event " + std::to_string(i) + ": frames of code " +
                                                std::to_string(code) + " differ");
    }
  }
  if (!(*r)->warnings().empty())
    return Status(ErrorCode::kInternal, "reader warned: " + (*r)->warnings()[0].message);
  return Status::Ok();
}

}  // namespace mpo::memtrace::testing
