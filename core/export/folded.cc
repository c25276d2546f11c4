#include "core/export/folded.h"

#include <map>
#include <unordered_map>
#include <vector>

#include "core/memtrace/trace_reader.h"

namespace mpo::exporter {
namespace {

using memtrace::OcamlInt;

std::string Clean(std::string s) {
  for (char& c : s)
    if (c == ';' || c == '\n' || c == '\r') c = '_';
  return s;
}

// The caller-first frames of a code, joined by ';'.
std::string CodeFrames(const memtrace::TraceReader& r, OcamlInt code) {
  const std::vector<memtrace::Location>* locs = r.LookupLocation(code);
  if (locs == nullptr || locs->empty()) return "<unknown " + std::to_string(code) + ">";
  std::string out;
  for (auto it = locs->rbegin(); it != locs->rend(); ++it) {
    if (!out.empty()) out += ';';
    out += Clean(it->defname + " (" + it->filename + ":" + std::to_string(it->line) + ")");
  }
  return out;
}

}  // namespace

Result<std::string> FoldedStacks(std::unique_ptr<memtrace::ByteSource> source,
                                 FoldedWeight weight) {
  auto opened = memtrace::TraceReader::Open(std::move(source));
  if (!opened.ok()) return opened.status();
  memtrace::TraceReader& r = **opened;
  // Stacks keyed by their codes first (cheap), rendered once at the end.
  std::map<std::vector<OcamlInt>, std::uint64_t> counts;
  std::vector<OcamlInt> key;
  while (const memtrace::Event* ev = r.NextEvent()) {
    if (ev->kind != memtrace::EventKind::kAlloc) continue;
    const std::uint64_t w =
        static_cast<std::uint64_t>(weight == FoldedWeight::kSamples ? ev->nsamples : ev->length);
    if (w == 0 || ev->nsamples <= 0) continue;
    key.assign(ev->backtrace.begin(), ev->backtrace.end());
    counts[key] += w;
  }
  if (!r.status().ok()) return r.status();
  std::unordered_map<OcamlInt, std::string> names;
  std::map<std::string, std::uint64_t> lines;  // distinct codes may render alike
  for (const auto& [codes, n] : counts) {
    std::string stack;
    for (OcamlInt c : codes) {
      auto it = names.find(c);
      if (it == names.end()) it = names.emplace(c, CodeFrames(r, c)).first;
      if (!stack.empty()) stack += ';';
      stack += it->second;
    }
    if (stack.empty()) stack = "<no backtrace>";
    lines[stack] += n;
  }
  std::string out;
  for (const auto& [stack, n] : lines) out += stack + " " + std::to_string(n) + "\n";
  return out;
}

}  // namespace mpo::exporter
