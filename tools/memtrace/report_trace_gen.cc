// Writes, with the project's own writer, a small valid trace that is hostile to a report
// page: a 6,000-deep recursion (one frame repeated, as a non-tail List.map gives) whose
// site's name is not UTF-8, 400 distinct sites under 20 callers (many flame nodes), and a
// 3,500-byte name (near the largest location the format holds) repeated 2,500 deep. For
// report_cli_test.sh.
//
//   report_trace_gen OUT
#include <cstdio>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {
namespace {

int Run(const std::string& path) {
  std::vector<std::vector<Location>> frames;  // location code -> its frames
  auto add = [&frames](std::string defname, std::string file, OcamlInt line) {
    frames.push_back({Location{std::move(file), line, 1, 2, std::move(defname)}});
    return static_cast<OcamlInt>(frames.size());  // codes from 1: 0 is the cache's empty slot
  };
  const OcamlInt rec = add("Stdlib__List.map", "list.ml", 92);
  const OcamlInt bad = add(std::string("bad\xff\xfe") + "name", "odd.ml", 1);
  const OcamlInt main = add("Main.run", "main.ml", 1);
  const OcamlInt long_name = add(std::string(3500, 'x'), "long.ml", 3);
  std::vector<OcamlInt> callers, sites;
  for (int i = 0; i < 20; ++i)
    callers.push_back(add("Caller.c" + std::to_string(i), "c.ml", i + 1));
  for (int i = 0; i < 400; ++i) sites.push_back(add("Site.s" + std::to_string(i), "s.ml", i + 1));
  const LocationLookup lookup = [&frames](OcamlInt code) -> const std::vector<Location>* {
    if (code < 1 || static_cast<std::size_t>(code) > frames.size()) return nullptr;
    return &frames[static_cast<std::size_t>(code - 1)];
  };

  auto sink = AtomicFileSink::Create(path);
  if (!sink.ok()) return std::fprintf(stderr, "%s\n", sink.status().ToString().c_str()), 2;
  Info info;
  info.sample_rate = 1e-3;
  info.executable_name = "report_trace_gen";
  info.host_name = "host";
  info.pid = 1;
  info.start_time = 1'000'000;
  auto w = TraceWriter::Create(**sink, info);
  if (!w.ok()) return std::fprintf(stderr, "%s\n", w.status().ToString().c_str()), 1;
  std::int64_t t = info.start_time;
  auto put = [&](const std::vector<OcamlInt>& bt, OcamlInt samples) {
    auto id = (*w)->PutAlloc(0, ++t, 4, samples, AllocationSource::kMinor, bt, lookup);
    return id.ok() ? Status::Ok() : id.status();
  };
  std::vector<OcamlInt> deep(6000, rec);
  deep.insert(deep.begin(), main);
  deep.push_back(bad);
  Status s = put(deep, 50);
  for (std::size_t i = 0; s.ok() && i < sites.size(); ++i)
    s = put({main, callers[i % callers.size()], sites[i]}, static_cast<OcamlInt>(1 + i % 7));
  if (s.ok()) s = put(std::vector<OcamlInt>(2500, long_name), 60);
  if (s.ok()) s = (*w)->Flush();
  if (s.ok()) s = (*sink)->Commit();
  if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
  return 0;
}

}  // namespace
}  // namespace mpo::memtrace

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: report_trace_gen OUT\n"), 2;
  return mpo::memtrace::Run(argv[1]);
}
