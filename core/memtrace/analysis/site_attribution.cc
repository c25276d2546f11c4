#include "core/memtrace/analysis/site_attribution.h"

#include "core/memtrace/analysis/backtrace_frames.h"

namespace mpo::memtrace::analysis {

bool IsTracerFrame(std::string_view defname) {
  for (std::string_view module : {"Memtrace__Memprof_tracer.", "Memtrace.Memprof_tracer."}) {
    if (!defname.starts_with(module)) continue;
    const std::string_view fn = defname.substr(module.size());
    return fn == "ext_alloc" || fn == "ext_alloc_slowpath";
  }
  return false;
}

std::size_t TracerFramesToSkip(const TraceReader& reader, AllocationSource source,
                               std::span<const OcamlInt> backtrace) {
  if (source != AllocationSource::kExternal) return 0;
  std::size_t tracer = 0;
  bool caller = false;
  VisitFramesInnermostFirst(reader, backtrace, [&](const CompactFrame& f) {
    if (IsTracerFrame(reader.strings().Get(f.defname))) {
      ++tracer;
      return true;
    }
    caller = true;
    return false;
  });
  return caller ? tracer : 0;
}

}  // namespace mpo::memtrace::analysis
