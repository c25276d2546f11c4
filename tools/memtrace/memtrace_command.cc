#include "tools/memtrace/memtrace_command.h"

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/text_dump.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {
namespace {

using namespace mpo::memtrace;  // NOLINT(build/namespaces): tool-local convenience

// A progress bar on stderr for long runs, only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(std::uint64_t total) : total_(total), on_(total > (16u << 20) && isatty(2)) {}
  ~Progress() {
    if (on_ && shown_) std::fprintf(stderr, "\r%60s\r", "");
  }
  void Update(std::uint64_t done) {
    if (!on_ || (++calls_ & 0xffff) != 0) return;
    const int pct =
        static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total_));
    std::string bar(static_cast<std::size_t>(pct / 2), '#');
    std::fprintf(stderr, "\r[%-50s] %3d%%", bar.c_str(), pct);
    shown_ = true;
  }

 private:
  std::uint64_t total_;
  bool on_;
  bool shown_ = false;
  std::uint64_t calls_ = 0;
};

std::unique_ptr<ByteSource> OpenOrReport(const std::string& cmd, const std::string& path,
                                         io::FileId* id = nullptr) {
  auto src = OpenFileSource(path, id);
  if (!src.ok()) {
    ReportError(cmd, src.status());
    return nullptr;
  }
  return std::move(*src);
}

// Reads from `inner` until a write to stdout has failed, then fails: a dump of a huge
// trace then stops within a packet of the failed write instead of decoding the rest for
// nobody.
class UntilStdoutFails : public ByteSource {
 public:
  explicit UntilStdoutFails(ByteSource& inner) : inner_(inner) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    if (StdoutFailed()) return Status(ErrorCode::kIo, "write error").WithField("stdout");
    return inner_.ReadAt(offset, out);
  }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  ByteSource& inner_;
};

struct DumpOptions {
  std::string file;
  bool json = false;
  bool no_backtraces = false;
  bool oracle = false;
};

void RunDump(const DumpOptions& o) {
  auto file = OpenOrReport("memtrace dump", o.file);
  if (!file) return;
  UntilStdoutFails src(*file);
  FileTextSink out(stdout);
  Progress bar(src.size());
  const ProgressFn progress = [&bar](std::uint64_t done, std::uint64_t) { bar.Update(done); };
  Status s = o.json     ? WriteJsonLines(src, out, !o.no_backtraces, progress)
             : o.oracle ? WriteOracleDump(src, out, progress)
                        : WriteDumpTrace(src, out, !o.no_backtraces, progress);
  std::fflush(stdout);
  // A failed write is reported once, by main's FinishStdout.
  if (!s.ok() && !StdoutFailed()) ReportError("memtrace dump: " + o.file, s);
}

struct CheckOptions {
  std::string file;
  bool keep_going = false;
};

void RunCheck(const CheckOptions& o) {
  auto src = OpenOrReport("memtrace check", o.file);
  if (!src) return;
  auto opened = TraceReader::Open(std::move(src));
  if (!opened.ok()) {
    ReportError("memtrace check: " + o.file, opened.status());
    return;
  }
  TraceReader& r = **opened;
  Progress progress(r.file_size());
  std::uint64_t events = 0, bad_packets = 0, missing_locs = 0;
  Status first_error;
  while (true) {
    auto ev = r.Next();
    if (!ev.ok()) {
      if (first_error.ok()) first_error = ev.status();
      ++bad_packets;
      std::fprintf(stderr, "memprof-oracle: memtrace check: %s: %s\n", o.file.c_str(),
                   ev.status().ToString().c_str());
      if (o.keep_going && r.SkipToNextPacket()) continue;
      break;
    }
    if (*ev == nullptr) break;
    for (OcamlInt code : (*ev)->backtrace)
      if (r.LookupLocation(code) == nullptr) ++missing_locs;
    ++events;
    progress.Update(r.offset());
  }
  for (const ReaderWarning& w : r.warnings())
    std::fprintf(stderr, "memprof-oracle: memtrace check: warning at offset 0x%" PRIx64 ": %s\n",
                 w.offset, w.message.c_str());
  if (missing_locs > 0 && first_error.ok())
    first_error = Status(ErrorCode::kCorrupt, std::to_string(missing_locs) +
                                                  " backtrace entries use undefined location codes")
                      .WithField("backtrace: location code");
  std::printf("%s: v%03d, %" PRIu64 " packets, %" PRIu64 " events, %zu warnings", o.file.c_str(),
              r.version(), r.packets_read(), events, r.warnings().size());
  if (o.keep_going) std::printf(", %" PRIu64 " bad packets", bad_packets);
  std::printf(first_error.ok() ? ": ok\n" : ": INVALID\n");
  if (!first_error.ok()) {
    if (missing_locs > 0 && bad_packets == 0) ReportError("memtrace check: " + o.file, first_error);
    SetExitCode(kExitBadInput);
  }
}

struct CopyOptions {
  std::string in, out;
  int version = 0;
};

// A copy must not hide damage the reader skipped with a warning (a truncated final
// packet, a packet from another process): the copy would read as a clean trace.
Status RefuseSkippedData(ByteSource& src) {
  ReaderOptions fast;
  fast.parse_backtraces = false;
  auto r = TraceReader::Open(BorrowSource(src), fast);
  if (!r.ok()) return r.status();
  while ((*r)->NextEvent() != nullptr) {
  }
  if (!(*r)->status().ok()) return (*r)->status();
  const auto& warnings = (*r)->warnings();
  if (warnings.empty()) return Status::Ok();
  const ReaderWarning& w = warnings.front();
  const bool truncated = w.message.find("truncated") != std::string::npos;
  return Status(truncated ? ErrorCode::kTruncated : ErrorCode::kCorrupt,
                "the reader skipped data (" + w.message + "; " + std::to_string(warnings.size()) +
                    " warning(s) in all), which a copy would hide; no output written")
      .AtOffset(w.offset);
}

void RunCopy(const CopyOptions& o) {
  io::FileId in_id;
  auto src = OpenOrReport("memtrace copy", o.in, &in_id);
  if (!src) return;
  int version = o.version;
  if (version == 0) {
    auto r = TraceReader::Open(BorrowSource(*src));
    if (!r.ok()) {
      ReportError("memtrace copy: " + o.in, r.status());
      return;
    }
    version = std::max(2, (*r)->version());
  }
  // Written beside OUT and renamed over it only once complete: on any error below, an
  // existing OUT is left as it was and the temporary file is removed.
  auto sink = AtomicFileSink::Create(o.out, std::span<const io::FileId>(&in_id, 1));
  if (!sink.ok()) {
    ReportError("memtrace copy", sink.status());
    return;
  }
  CopyStats stats;
  Progress bar(src->size());
  Status s = CopyTrace(*src, **sink, version, &stats,
                       [&bar](std::uint64_t done, std::uint64_t) { bar.Update(done); });
  if (s.ok()) s = RefuseSkippedData(*src);
  if (!s.ok()) return ReportError("memtrace copy: " + o.in, s);
  if (Status c = (*sink)->Commit(); !c.ok()) ReportError("memtrace copy", c);
}

std::string Frames(TraceReader& r, OcamlInt code) {
  const std::vector<Location>* locs = r.LookupLocation(code);
  if (locs == nullptr) return "<undefined " + std::to_string(code) + ">";
  if (locs->empty()) return "$" + std::to_string(code);
  std::string s;
  for (const Location& l : *locs) s += (s.empty() ? "" : " ") + LocationToString(l);
  return s;
}

struct DiffOptions {
  std::string a, b;
};

void RunDiff(const DiffOptions& o) {
  auto sa = OpenOrReport("memtrace diff", o.a);
  auto sb = OpenOrReport("memtrace diff", o.b);
  if (!sa || !sb) return;
  auto ra = TraceReader::Open(std::move(sa));
  auto rb = TraceReader::Open(std::move(sb));
  if (!ra.ok()) return ReportError("memtrace diff: " + o.a, ra.status());
  if (!rb.ok()) return ReportError("memtrace diff: " + o.b, rb.status());
  TraceReader& A = **ra;
  TraceReader& B = **rb;
  auto differ = [&](const std::string& where, const std::string& field, const std::string& va,
                    const std::string& vb) {
    std::printf("%s: %s: %s | %s\n", where.c_str(), field.c_str(), va.c_str(), vb.c_str());
    SetExitCode(kExitBadInput);
  };
  const Info& ia = A.info();
  const Info& ib = B.info();
  auto str = [](auto v) { return std::to_string(v); };
  if (ia.sample_rate != ib.sample_rate) {
    char a[40], b[40];
    std::snprintf(a, sizeof a, "%.17g", ia.sample_rate);
    std::snprintf(b, sizeof b, "%.17g", ib.sample_rate);
    return differ("info", "sample_rate", a, b);
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
  const char* kinds[] = {"alloc", "promote", "collect"};
  for (std::uint64_t i = 0;; ++i) {
    auto ea = A.Next();
    auto eb = B.Next();
    if (!ea.ok()) return ReportError("memtrace diff: " + o.a, ea.status());
    if (!eb.ok()) return ReportError("memtrace diff: " + o.b, eb.status());
    const std::string where = "event " + std::to_string(i);
    if (*ea == nullptr || *eb == nullptr) {
      if (*ea != *eb) differ(where, "presence", *ea ? "event" : "<end>", *eb ? "event" : "<end>");
      return;
    }
    const Event& x = **ea;
    const Event& y = **eb;
    if (x.kind != y.kind) return differ(where, "kind", kinds[int(x.kind)], kinds[int(y.kind)]);
    if (x.time - ia.start_time != y.time - ib.start_time)
      return differ(where, "dt", str(x.time - ia.start_time), str(y.time - ib.start_time));
    if (x.domain != y.domain) return differ(where, "domain", str(x.domain), str(y.domain));
    if (x.obj_id != y.obj_id) return differ(where, "obj_id", str(x.obj_id), str(y.obj_id));
    if (x.kind != EventKind::kAlloc) continue;
    if (x.length != y.length) return differ(where, "length", str(x.length), str(y.length));
    if (x.nsamples != y.nsamples)
      return differ(where, "nsamples", str(x.nsamples), str(y.nsamples));
    if (x.source != y.source)
      return differ(where, "source", AllocationSourceName(x.source),
                    AllocationSourceName(y.source));
    if (x.backtrace.size() != y.backtrace.size())
      return differ(where, "backtrace length", str(x.backtrace.size()), str(y.backtrace.size()));
    for (std::size_t k = 0; k < x.backtrace.size(); ++k) {
      std::string fa = Frames(A, x.backtrace[k]), fb = Frames(B, y.backtrace[k]);
      if (fa != fb) return differ(where, "backtrace[" + std::to_string(k) + "]", fa, fb);
    }
  }
}

struct StatsOptions {
  std::string file;
  std::size_t top = 10;
};

struct Site {
  std::uint64_t allocs = 0;
  std::uint64_t samples = 0;
  std::uint64_t words = 0;
};

void RunStats(const StatsOptions& o) {
  auto src = OpenOrReport("memtrace stats", o.file);
  if (!src) return;
  auto opened = TraceReader::Open(std::move(src));
  if (!opened.ok()) return ReportError("memtrace stats: " + o.file, opened.status());
  TraceReader& r = **opened;
  Progress progress(r.file_size());
  std::uint64_t allocs = 0, promotes = 0, collects = 0, samples = 0, words = 0;
  std::uint64_t by_source[3] = {0, 0, 0};
  std::unordered_map<OcamlInt, Site> sites;  // by allocation-site location code
  struct Live {
    std::int64_t time;
    bool promoted;
  };
  std::unordered_map<OcamlInt, Live> live;
  std::vector<std::int64_t> lifetimes;
  std::uint64_t collected_promoted = 0;
  std::int64_t last_time = r.info().start_time;
  while (true) {
    auto ev = r.Next();
    if (!ev.ok()) return ReportError("memtrace stats: " + o.file, ev.status());
    if (*ev == nullptr) break;
    const Event& e = **ev;
    last_time = e.time;
    progress.Update(r.offset());
    switch (e.kind) {
      case EventKind::kAlloc: {
        ++allocs;
        samples += static_cast<std::uint64_t>(e.nsamples);
        words += static_cast<std::uint64_t>(e.length);
        ++by_source[static_cast<int>(e.source)];
        if (!e.backtrace.empty()) {
          Site& s = sites[e.backtrace.back()];
          ++s.allocs;
          s.samples += static_cast<std::uint64_t>(e.nsamples);
          s.words += static_cast<std::uint64_t>(e.length);
        }
        live[e.obj_id] = {e.time, false};
        break;
      }
      case EventKind::kPromote: {
        ++promotes;
        auto it = live.find(e.obj_id);
        if (it != live.end()) it->second.promoted = true;
        break;
      }
      case EventKind::kCollect: {
        ++collects;
        auto it = live.find(e.obj_id);
        if (it != live.end()) {
          lifetimes.push_back(e.time - it->second.time);
          collected_promoted += it->second.promoted;
          live.erase(it);
        }
        break;
      }
    }
  }
  const Info& info = r.info();
  std::printf("trace: %s (v%03d), %s, pid %" PRId64 ", sample rate %g\n", o.file.c_str(),
              r.version(), info.executable_name.c_str(), info.pid, info.sample_rate);
  std::printf("duration: %.6f s\n", static_cast<double>(last_time - info.start_time) / 1e6);
  std::printf("events: %" PRIu64 " allocs (%" PRIu64 " minor, %" PRIu64 " major, %" PRIu64
              " external), %" PRIu64 " promotes, %" PRIu64 " collects\n",
              allocs, by_source[0], by_source[1], by_source[2], promotes, collects);
  std::printf("samples: %" PRIu64 ", sampled words: %" PRIu64 "\n", samples, words);
  const double a = allocs ? static_cast<double>(allocs) : 1.0;
  std::printf("promotion rate: %.4f, collection rate: %.4f, still live at end: %zu\n",
              static_cast<double>(promotes) / a, static_cast<double>(collects) / a, live.size());
  if (!lifetimes.empty()) {
    std::sort(lifetimes.begin(), lifetimes.end());
    double sum = 0;
    for (auto l : lifetimes) sum += static_cast<double>(l);
    std::printf("lifetimes (us, collected objects): mean %.1f, median %" PRId64 ", p90 %" PRId64
                ", max %" PRId64 "; promoted before collection: %" PRIu64 "\n",
                sum / static_cast<double>(lifetimes.size()), lifetimes[lifetimes.size() / 2],
                lifetimes[lifetimes.size() * 9 / 10], lifetimes.back(), collected_promoted);
  }
  std::vector<std::pair<OcamlInt, Site>> v(sites.begin(), sites.end());
  auto print_top = [&](const char* title, auto key) {
    std::sort(v.begin(), v.end(), [&](const auto& x, const auto& y) {
      return key(x.second) != key(y.second) ? key(x.second) > key(y.second) : x.first < y.first;
    });
    std::printf("top allocation sites by %s:\n", title);
    for (std::size_t i = 0; i < std::min(o.top, v.size()); ++i)
      std::printf("  %10" PRIu64 " samples %12" PRIu64 " words  %s\n", v[i].second.samples,
                  v[i].second.words, Frames(r, v[i].first).c_str());
  };
  print_top("samples", [](const Site& s) { return s.samples; });
  print_top("words", [](const Site& s) { return s.words; });
}

}  // namespace

void AddMemtraceCommands(CLI::App& app) {
  CLI::App* mt = app.add_subcommand("memtrace", "Read, check, convert and compare memtrace traces");
  mt->require_subcommand(1);

  auto dump = std::make_shared<DumpOptions>();
  CLI::App* d = mt->add_subcommand("dump", "Print a trace (memtrace's dump_trace text by default)");
  d->add_option("file", dump->file, "trace file")->required();
  d->add_flag("--json", dump->json, "one JSON object per line");
  d->add_flag("--no-backtraces", dump->no_backtraces, "skip backtraces (fast path)");
  d->add_flag("--oracle", dump->oracle, "the golden oracle_dump format");
  d->callback([dump] { RunDump(*dump); });

  auto check = std::make_shared<CheckOptions>();
  CLI::App* c = mt->add_subcommand("check", "Validate a trace");
  c->add_option("file", check->file, "trace file")->required();
  c->add_flag("--keep-going", check->keep_going, "report every bad packet");
  c->callback([check] { RunCheck(*check); });

  auto copy = std::make_shared<CopyOptions>();
  CLI::App* cp = mt->add_subcommand(
      "copy",
      "Decode and re-encode a trace. OUT is written beside its name and renamed into place "
      "only when complete; OUT may not be IN (nor a link to it), and an input the reader "
      "skips data of (a truncated final packet) is refused (exit 1)");
  cp->add_option("in", copy->in, "input trace")->required();
  cp->add_option("out", copy->out, "output trace")->required();
  cp->add_option("--format-version", copy->version, "2 or 3 (default: the input's)")
      ->check(UnsignedIn(2, 3));
  cp->callback([copy] { RunCopy(*copy); });

  auto diff = std::make_shared<DiffOptions>();
  CLI::App* df = mt->add_subcommand("diff", "First semantic difference between two traces");
  df->add_option("a", diff->a, "first trace")->required();
  df->add_option("b", diff->b, "second trace")->required();
  df->callback([diff] { RunDiff(*diff); });

  auto stats = std::make_shared<StatsOptions>();
  CLI::App* st = mt->add_subcommand("stats", "Totals, top allocation sites, rates, lifetimes");
  st->add_option("file", stats->file, "trace file")->required();
  st->add_option("--top", stats->top, "number of sites to list, in [0, 10^9]")
      ->check(UnsignedIn(0, 1'000'000'000));
  st->callback([stats] { RunStats(*stats); });
}

}  // namespace mpo::tools
