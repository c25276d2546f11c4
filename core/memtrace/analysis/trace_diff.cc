#include "core/memtrace/analysis/trace_diff.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <unordered_set>

#include "core/base/json_writer.h"
#include "core/base/splitmix64.h"
#include "core/memtrace/analysis/site_name.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/event_names.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace {
namespace {

struct PairHash {
  std::size_t operator()(const std::pair<OcamlInt, OcamlInt>& p) const {
    return std::hash<OcamlInt>()(p.first) * kGoldenGamma ^ std::hash<OcamlInt>()(p.second);
  }
};

}  // namespace

std::optional<TraceDifference> DiffTraces(ByteSource& a, ByteSource& b, DiffFailure* failure,
                                          const Limits& limits) {
  auto fail = [failure](int side, Status s) {
    *failure = DiffFailure{side, std::move(s)};
    return std::nullopt;
  };
  ReaderOptions opts;
  opts.limits = limits;
  // Both through the decoded view: an undefined location code is its typed error.
  auto va = view::TraceView::Open(BorrowSource(a), opts);
  if (!va.ok()) return fail(0, va.status());
  auto vb = view::TraceView::Open(BorrowSource(b), opts);
  if (!vb.ok()) return fail(1, vb.status());
  view::TraceView& A = **va;
  view::TraceView& B = **vb;
  auto differ = [](std::string where, std::string field, std::string va, std::string vb) {
    return TraceDifference{std::move(where), std::move(field), std::move(va), std::move(vb)};
  };
  const Info& ia = A.info();
  const Info& ib = B.info();
  auto str = [](auto v) { return std::to_string(v); };
  // Bit patterns, not values: a trace whose rate is NaN still agrees with itself.
  if (std::bit_cast<std::uint64_t>(ia.sample_rate) !=
      std::bit_cast<std::uint64_t>(ib.sample_rate)) {
    char x[40], y[40];
    std::snprintf(x, sizeof x, "%.17g", ia.sample_rate);
    std::snprintf(y, sizeof y, "%.17g", ib.sample_rate);
    return differ("info", "sample_rate", x, y);
  }
  if (ia.word_size != ib.word_size)
    return differ("info", "word_size", str(ia.word_size), str(ib.word_size));
  if (ia.executable_name != ib.executable_name)
    return differ("info", "executable_name", ia.executable_name, ib.executable_name);
  if (ia.host_name != ib.host_name) return differ("info", "host_name", ia.host_name, ib.host_name);
  if (ia.ocaml_runtime_params != ib.ocaml_runtime_params)
    return differ("info", "ocaml_runtime_params", ia.ocaml_runtime_params, ib.ocaml_runtime_params);
  if (ia.pid != ib.pid) return differ("info", "pid", str(ia.pid), str(ib.pid));
  if (ia.start_time != ib.start_time)
    return differ("info", "start_time", str(ia.start_time), str(ib.start_time));
  if (ia.context != ib.context)
    return differ("info", "context", ia.context.value_or("<none>"), ib.context.value_or("<none>"));
  // Entry pairs whose frames render alike; cleared when large (it only saves work).
  std::unordered_set<std::pair<OcamlInt, OcamlInt>, PairHash> same;
  constexpr std::size_t kMaxSame = 1 << 16;
  for (std::uint64_t i = 0;; ++i) {
    const Event* x = A.NextEvent();
    if (x == nullptr && !A.status().ok()) return fail(0, A.status());
    const Event* y = B.NextEvent();
    if (y == nullptr && !B.status().ok()) return fail(1, B.status());
    const std::string where = "event " + std::to_string(i);
    if (x == nullptr || y == nullptr) {
      if (x != y) return differ(where, "presence", x ? "event" : "<end>", y ? "event" : "<end>");
      return std::nullopt;
    }
    if (x->kind != y->kind)
      return differ(where, "kind", view::EventKindName(x->kind), view::EventKindName(y->kind));
    // Both events are at or after their trace's start: exact as unsigned.
    const std::uint64_t dx =
        static_cast<std::uint64_t>(x->time) - static_cast<std::uint64_t>(ia.start_time);
    const std::uint64_t dy =
        static_cast<std::uint64_t>(y->time) - static_cast<std::uint64_t>(ib.start_time);
    if (dx != dy) return differ(where, "dt", str(dx), str(dy));
    if (x->domain != y->domain) return differ(where, "domain", str(x->domain), str(y->domain));
    if (x->obj_id != y->obj_id) return differ(where, "obj_id", str(x->obj_id), str(y->obj_id));
    if (x->kind != EventKind::kAlloc) continue;
    if (x->length != y->length) return differ(where, "length", str(x->length), str(y->length));
    if (x->nsamples != y->nsamples)
      return differ(where, "nsamples", str(x->nsamples), str(y->nsamples));
    if (x->source != y->source)
      return differ(where, "source", view::AllocationSourceName(x->source),
                    view::AllocationSourceName(y->source));
    if (x->backtrace.size() != y->backtrace.size())
      return differ(where, "backtrace length", str(x->backtrace.size()), str(y->backtrace.size()));
    for (std::size_t k = 0; k < x->backtrace.size(); ++k) {
      const std::pair<OcamlInt, OcamlInt> key{x->backtrace[k], y->backtrace[k]};
      if (same.contains(key)) continue;
      auto fa = SiteName(A.reader(), key.first, A.reader().event_offset());
      if (!fa.ok()) return fail(0, fa.status());
      auto fb = SiteName(B.reader(), key.second, B.reader().event_offset());
      if (!fb.ok()) return fail(1, fb.status());
      if (*fa != *fb) return differ(where, "backtrace[" + std::to_string(k) + "]", *fa, *fb);
      if (same.size() >= kMaxSame) same.clear();
      same.insert(key);
    }
  }
}

std::string FormatTraceDiffJson(const std::string& a_file, const std::string& b_file,
                                const std::optional<TraceDifference>& d) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("a");
  w.String(a_file);
  w.Key("b");
  w.String(b_file);
  w.Key("equal");
  w.Bool(!d);
  w.Key("difference");
  if (!d) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("where");
    w.String(d->where);
    w.Key("field");
    w.String(d->field);
    w.Key("a");
    w.String(d->a);
    w.Key("b");
    w.String(d->b);
    w.EndObject();
  }
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::memtrace
