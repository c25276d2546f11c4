#include "core/memtrace/view/text_dump.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/memtrace/common_prefix.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/view/dump_line.h"
#include "core/memtrace/view/dump_pipeline.h"
#include "core/memtrace/view/event_names.h"

namespace mpo::memtrace {
namespace {

// printf into the sink through a line buffer (flushed when large).
class Printer {
 public:
  explicit Printer(TextSink& out) : out_(out) {}
  ~Printer() { Flush(); }
  void operator()(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (static_cast<std::size_t>(n) < sizeof buf) {
      pending_.append(buf, n);
    } else {
      std::string big(n + 1, '\0');
      va_start(ap, fmt);
      std::vsnprintf(big.data(), big.size(), fmt, ap);
      va_end(ap);
      big.resize(n);
      pending_ += big;
    }
    if (pending_.size() > (1 << 16)) Flush();
  }
  void Str(std::string_view s) {
    pending_.append(s);
    if (pending_.size() > (1 << 16)) Flush();
  }
  void Flush() {
    if (!pending_.empty()) out_.Write(pending_);
    pending_.clear();
  }

 private:
  TextSink& out_;
  std::string pending_;
};

std::uint64_t Le(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The raw packet walk of oracle_dump.ml (fixed v2 offsets) / oracle_dump3.ml.
Status RawWalk(ByteSource& src, bool v3_format, Printer& p) {
  const std::uint64_t len = src.size();
  std::uint64_t off = 0;
  for (int i = 0;; ++i) {
    if (off + kHeaderSizeV2 > len) {
      if (off != len) p("trailing_bytes %" PRIu64 "\n", len - off);
      return Status::Ok();
    }
    std::uint8_t h[kHeaderSizeV3] = {};
    auto got = src.ReadAt(off, h);
    if (!got.ok()) return got.status();
    const std::uint64_t size_bits = Le(h + header_offset::kPacketSize, 4);
    const std::int64_t size = static_cast<std::int64_t>(size_bits / 8);
    const unsigned version = static_cast<unsigned>(Le(h + header_offset::kVersion, 2));
    const bool has_domain = v3_format && HasDomainStreams(static_cast<int>(version));
    const std::size_t d = DomainShift(has_domain);
    char dom[32] = "";
    if (has_domain) {
      std::snprintf(dom, sizeof dom, " domain=%u",
                    static_cast<unsigned>(Le(h + header_offset::kDomain, 2)));
    }
    p("packet %d off=%" PRIu64 " size=%" PRId64 " magic=0x%08" PRIx64
      " version=%u time_begin=%" PRIu64 " time_end=%" PRIu64 " flush_duration=%" PRIu64
      " pid=%" PRIu64 "%s verifier_ix=%u verifier_pred=%u verifier_value=0x%016" PRIx64
      " alloc_id_begin=%" PRIu64 " alloc_id_end=%" PRIu64 "\n",
      i, off, size, Le(h + header_offset::kMagic, 4), version, Le(h + header_offset::kTimeBegin, 8),
      Le(h + header_offset::kTimeEnd, 8), Le(h + header_offset::kFlushDuration, 4),
      Le(h + header_offset::kPid, 8), dom,
      static_cast<unsigned>(Le(h + header_offset::kVerifierIxV2 + d, 2)),
      static_cast<unsigned>(Le(h + header_offset::kVerifierPredV2 + d, 2)),
      Le(h + header_offset::kVerifierValueV2 + d, 8), Le(h + header_offset::kAllocIdBeginV2 + d, 8),
      Le(h + header_offset::kAllocIdEndV2 + d, 8));
    if (size <= 0) {
      p("bad_packet_size %" PRId64 "\n", size);
      return Status::Ok();
    }
    off += static_cast<std::uint64_t>(size);
  }
}

bool FirstPacketIsV3(ByteSource& src) {
  std::uint8_t h[header_offset::kVersion + 2];
  auto got = src.ReadAt(0, h);
  return got.ok() && *got == sizeof h &&
         HasDomainStreams(static_cast<int>(Le(h + header_offset::kVersion, 2)));
}

std::string LocList(const std::vector<Location>& locs) {
  std::string s;
  for (std::size_t i = 0; i < locs.size(); ++i) {
    if (i) s += " | ";
    s += LocationToString(locs[i]);
  }
  return s;
}

std::string FormatG17(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (std::isnan(d)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// The backtrace entries a dump has seen: each code with the offset of the first event
// using it (where an undefined code is reported).
using FirstUses = std::unordered_map<OcamlInt, std::uint64_t>;

std::vector<OcamlInt> SortedCodes(const FirstUses& used) {
  std::vector<OcamlInt> codes;
  codes.reserve(used.size());
  for (const auto& [code, offset] : used) codes.push_back(code);
  std::sort(codes.begin(), codes.end());
  return codes;
}

// The event loop the two text forms share: calls `each(event, dt)` for every event in
// order, dt being the microseconds since the trace's start (memtrace's `Timedelta`),
// and reports progress. Stops at the first error: the reader's, or one `each` returns.
template <class Each>
Status ForEachEvent(TraceReader& r, const ProgressFn& progress, Each&& each) {
  const std::int64_t start = r.info().start_time;
  while (const Event* e = r.NextEvent()) {
    if (progress) progress(r.offset(), r.file_size());
    const auto dt = static_cast<std::int64_t>(static_cast<std::uint64_t>(e->time) - start);
    MPO_RETURN_IF_ERROR(each(*e, dt));
  }
  return r.status();
}

// dump_trace's text of each backtrace entry (a space before each of its locations, or
// ` $CODE` when it has none), rendered once: deep backtraces repeat a few codes millions
// of times. The texts are bounded like the materialised locations they render; those
// kept are never changed or moved (a node-based map), so another thread may read them.
class EntryTexts {
 public:
  explicit EntryTexts(std::uint64_t budget) : left_(budget) {}

  // The text of `code` for the event just read: kept (stable) or, beyond the budget, in
  // a scratch string valid until the next call (*stable false).
  Result<const std::string*> Find(TraceReader& r, OcamlInt code, bool* stable) {
    *stable = true;
    Recent& slot = recent_[Slot(code)];
    if (slot.text != nullptr && slot.code == code) return slot.text;
    const std::string* text = nullptr;
    if (auto it = kept_.find(code); it != kept_.end()) {
      text = &it->second;
    } else {
      auto found = r.LocationOfEntry(code, r.event_offset());
      if (!found.ok()) return found.status();
      const std::vector<Location>* locs = *found;
      scratch_.clear();
      if (locs->empty()) {
        scratch_ += " $" + std::to_string(code);
      } else {
        for (const Location& l : *locs) {
          scratch_ += ' ';
          scratch_ += LocationToString(l);
        }
      }
      if (scratch_.size() > left_) {
        *stable = false;
        return &scratch_;
      }
      left_ -= scratch_.size();
      text = &kept_.emplace(code, scratch_).first->second;
    }
    slot = {code, text};
    return text;
  }

 private:
  // A direct-mapped front for the map: most entries hit the few codes seen last.
  struct Recent {
    OcamlInt code = 0;
    const std::string* text = nullptr;
  };
  static constexpr int kRecentBits = 12;
  static std::size_t Slot(OcamlInt code) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(code) * 0x9E3779B97F4A7C15u) >>
                                    (64 - kRecentBits));
  }

  std::unordered_map<OcamlInt, std::string> kept_;
  std::vector<Recent> recent_ = std::vector<Recent>(std::size_t{1} << kRecentBits);
  std::uint64_t left_;
  std::string scratch_;
};

// Each domain's previous backtrace as the dump printed it. A domain's consecutive
// backtraces share long prefixes: their texts need no second look-up and, with two
// threads, no second hand-over (the writer keeps the same list, dump_pipeline.h).
struct PreviousBacktrace {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<OcamlInt> codes;
  std::vector<const std::string*> texts;  // nullptr: a text the cache did not keep
  std::vector<std::uint64_t> ends;        // ends[i]: bytes of texts 0..i
  std::size_t first_unkept = kNone;

  // How many leading entries of `bt` repeat this backtrace with kept texts that fit in
  // `budget` (else 0: the caller then finds where the budget runs out, entry by entry);
  // forgets the rest, so that the caller appends bt's next entries. The first `known`
  // entries (the reader's common prefix: the dump prints every event it reads, in order)
  // are not compared.
  std::size_t Reuse(std::span<const OcamlInt> bt, std::uint64_t budget, std::size_t known) {
    const std::size_t n = std::min({bt.size(), codes.size(), first_unkept});
    std::size_t k = CommonPrefix(bt.first(n), std::span<const OcamlInt>(codes).first(n), known);
    if (k > 0 && ends[k - 1] > budget) k = 0;
    codes.resize(k);
    texts.resize(k);
    ends.resize(k);
    first_unkept = kNone;
    return k;
  }
  void Append(OcamlInt code, const std::string& text, bool kept) {
    if (!kept && first_unkept == kNone) first_unkept = codes.size();
    ends.push_back((ends.empty() ? 0 : ends.back()) + text.size());
    codes.push_back(code);
    texts.push_back(kept ? &text : nullptr);
  }
};

// Where DumpEvents's lines go with one thread: formatted at once.
class DirectLines {
 public:
  DirectLines(TextSink& out, bool head_format) : w_(out, head_format) {}
  void Begin(const DumpRecord& rec) { w_.Header(rec); }
  void Reused(const PreviousBacktrace& prev, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) w_.Entry(*prev.texts[i]);
  }
  void Entry(const std::string& text, [[maybe_unused]] bool stable) { w_.Entry(text); }
  void EndAlloc() { w_.EndLine(); }
  void EndEvent() {}
  void Cut() {}
  void Finish() { w_.Flush(); }

 private:
  DumpLineWriter w_;
};

// With two: handed to the writing thread (dump_pipeline.h), stable texts by address.
class PipedLines {
 public:
  PipedLines(TextSink& out, bool head_format) : pipe_(out, head_format) {}
  bool started() const { return pipe_.started(); }
  void Begin(const DumpRecord& rec) { pipe_.batch().records.push_back(rec); }
  void Reused([[maybe_unused]] const PreviousBacktrace& prev, std::size_t k) {
    pipe_.batch().records.back().reused = static_cast<std::uint32_t>(k);
  }
  void Entry(const std::string& text, bool stable) {
    DumpBatch& b = pipe_.batch();
    if (stable) {
      b.entries.push_back(&text);
    } else {
      b.entries.push_back(nullptr);
      b.copied.push_back(text);
    }
    ++b.records.back().entries;
    pipe_.MaybeSplit();
  }
  void EndAlloc() {}
  void EndEvent() { pipe_.EndRecord(); }
  void Cut() { pipe_.batch().records.back().ends_line = false; }
  void Finish() { pipe_.Finish(); }

 private:
  DumpPipeline pipe_;
};

DumpKind AllocKind(AllocationSource s) {
  switch (s) {
    case AllocationSource::kMinor: return DumpKind::kAlloc;
    case AllocationSource::kMajor: return DumpKind::kAllocMajor;
    case AllocationSource::kExternal: break;
  }
  return DumpKind::kAllocExt;
}

// The dump_trace loop, for either kind of Lines. On an error inside an alloc line, the
// part already produced is still written (without its newline), as memtrace's tool
// would have printed it.
template <class Lines>
Status DumpEvents(TraceReader& r, const ProgressFn& progress, const Limits& limits,
                  EntryTexts& texts, Lines& lines) {
  std::uint64_t text_left = limits.max_output_bytes;
  std::vector<PreviousBacktrace> previous;  // by domain
  Status s = ForEachEvent(r, progress, [&](const Event& e, std::int64_t dt) -> Status {
    DumpRecord rec;
    rec.dt = dt;
    rec.obj_id = e.obj_id;
    switch (e.kind) {
      case EventKind::kPromote: rec.kind = DumpKind::kPromote; break;
      case EventKind::kCollect: rec.kind = DumpKind::kCollect; break;
      case EventKind::kAlloc:
        rec.kind = AllocKind(e.source);
        rec.nsamples = e.nsamples;
        rec.length = e.length;
        rec.domain = e.domain;
        rec.common_prefix = e.common_prefix;
        break;
    }
    lines.Begin(rec);
    if (e.kind == EventKind::kAlloc) {
      if (e.domain >= previous.size()) previous.resize(std::size_t{e.domain} + 1);
      PreviousBacktrace& prev = previous[e.domain];
      const std::size_t k = prev.Reuse(e.backtrace, text_left, KnownCommonPrefix(e.common_prefix));
      if (k > 0) {
        text_left -= prev.ends[k - 1];
        lines.Reused(prev, k);
      }
      for (OcamlInt code : e.backtrace.subspan(k)) {
        bool stable = true;
        auto text = texts.Find(r, code, &stable);
        if (!text.ok()) {
          lines.Cut();
          return text.status();
        }
        const std::size_t added = (*text)->size();
        if (added > text_left) {
          lines.Cut();
          return LimitExceeded("location text written", limits.max_output_bytes,
                               "--max-output-bytes")
              .AtOffset(r.event_offset());
        }
        text_left -= added;
        prev.Append(code, **text, stable);
        lines.Entry(**text, stable);
      }
      lines.EndAlloc();
    }
    lines.EndEvent();
    return Status::Ok();
  });
  lines.Finish();
  return s;
}

}  // namespace

std::string OcamlHexFloat(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "infinity" : "-infinity";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

Status WriteOracleDump(ByteSource& source, TextSink& out, const ProgressFn& progress,
                       const Limits& limits) {
  Printer p(out);
  const bool v3 = FirstPacketIsV3(source);
  p(v3 ? "# oracle_dump3 v1 (memtrace HEAD reader)\n"
       : "# oracle_dump v1 (memtrace 0.2.3 reader)\n");
  p("file_size %" PRIu64 "\n", source.size());
  MPO_RETURN_IF_ERROR(RawWalk(source, v3, p));
  ReaderOptions opts;
  opts.limits = limits;
  auto opened = TraceReader::Open(BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  TraceReader& r = **opened;
  const Info& info = r.info();
  p("info.sample_rate %s %s\n", FormatG17(info.sample_rate).c_str(),
    OcamlHexFloat(info.sample_rate).c_str());
  p("info.word_size %d\n", info.word_size);
  p("info.executable_name %s\n", OcamlQuoted(info.executable_name).c_str());
  p("info.host_name %s\n", OcamlQuoted(info.host_name).c_str());
  p("info.ocaml_runtime_params %s\n", OcamlQuoted(info.ocaml_runtime_params).c_str());
  p("info.pid %" PRId64 "\n", info.pid);
  if (v3) p("info.initial_domain %d\n", info.initial_domain);
  p("info.start_time %" PRId64 "\n", info.start_time);
  if (info.context)
    p("info.context some %s\n", OcamlQuoted(*info.context).c_str());
  else
    p("info.context none\n");
  std::int64_t n = 0, na = 0, np = 0, nc = 0, nmin = 0, nmaj = 0, next = 0, max_bt = 0;
  OcamlInt tot_samples = 0, tot_words = 0;
  std::int64_t last_dt = 0;
  FirstUses used;
  std::string line;
  MPO_RETURN_IF_ERROR(ForEachEvent(r, progress, [&](const Event& e, std::int64_t dt) {
    last_dt = dt;
    char dom[24] = "";
    if (v3) std::snprintf(dom, sizeof dom, " dom=%u", e.domain);
    switch (e.kind) {
      case EventKind::kAlloc: {
        ++na;
        tot_samples = OcamlAdd(tot_samples, e.nsamples);
        tot_words = OcamlAdd(tot_words, e.length);
        max_bt = std::max<std::int64_t>(max_bt, e.backtrace.size());
        switch (e.source) {
          case AllocationSource::kMinor: ++nmin; break;
          case AllocationSource::kMajor: ++nmaj; break;
          case AllocationSource::kExternal: ++next; break;
        }
        p("ev %" PRId64 " dt=%" PRId64 "%s %s id=%" PRId64 " src=%s len=%" PRId64
          " nsamples=%" PRId64 " common_prefix=%" PRId64 " bt_len=%zu\n",
          n, dt, dom, view::EventKindName(e.kind), e.obj_id, view::AllocationSourceName(e.source),
          e.length, e.nsamples, e.common_prefix, e.backtrace.size());
        line = "  bt ";
        char hex[24];
        for (std::size_t i = 0; i < e.backtrace.size(); ++i) {
          used.try_emplace(e.backtrace[i], r.event_offset());
          int k = std::snprintf(hex, sizeof hex, i ? ",%" PRIx64 : "%" PRIx64,
                                OcamlUnsigned(e.backtrace[i]));
          line.append(hex, k);
        }
        line += '\n';
        p.Str(line);
        break;
      }
      case EventKind::kPromote:
      case EventKind::kCollect:
        ++(e.kind == EventKind::kPromote ? np : nc);
        p("ev %" PRId64 " dt=%" PRId64 "%s %s id=%" PRId64 "\n", n, dt, dom,
          view::EventKindName(e.kind), e.obj_id);
        break;
    }
    ++n;
    return Status::Ok();
  }));
  const std::vector<OcamlInt> codes = SortedCodes(used);
  p("locations %zu\n", codes.size());
  for (OcamlInt code : codes) {
    auto found = r.LocationOfEntry(code, used[code]);
    if (!found.ok()) return found.status();
    const std::vector<Location>* locs = *found;
    p("loc %" PRIx64 " %zu ", OcamlUnsigned(code), locs->size());
    p.Str(LocList(*locs));
    p.Str("\n");
  }
  p("summary events=%" PRId64 " allocs=%" PRId64 " minor=%" PRId64 " major=%" PRId64
    " external=%" PRId64 " promotes=%" PRId64 " collects=%" PRId64 " total_nsamples=%" PRId64
    " total_len_words=%" PRId64 " max_bt_len=%" PRId64 " last_dt=%" PRId64 "\n",
    n, na, nmin, nmaj, next, np, nc, tot_samples, tot_words, max_bt, last_dt);
  return Status::Ok();
}

Status WriteDumpTrace(ByteSource& source, TextSink& out, bool parse_backtraces,
                      const ProgressFn& progress, const Limits& limits, Verdicts verdicts,
                      unsigned threads) {
  ReaderOptions opts;
  opts.parse_backtraces = parse_backtraces;
  opts.limits = limits;
  opts.rules = RulesOf(verdicts).memtrace;
  auto opened = TraceReader::Open(BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  TraceReader& r = **opened;
  // memtrace HEAD's dump_trace (the tool that reads v3) adds the domain to alloc lines.
  const bool head_format = HasDomainStreams(r.version());
  // Declared before the lines, which may still point into it until they finish.
  EntryTexts texts(limits.max_location_bytes / 4);
  if (threads != 1) {
    PipedLines lines(out, head_format);
    if (lines.started()) return DumpEvents(r, progress, limits, texts, lines);
    // No second thread to be had: the same bytes from this one.
  }
  DirectLines lines(out, head_format);
  return DumpEvents(r, progress, limits, texts, lines);
}

}  // namespace mpo::memtrace
