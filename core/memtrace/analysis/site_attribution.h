// Where an external allocation is attributed: to the code that asked for it, not to
// memtrace's own tracer.
//
// memtrace records `Memtrace.External.alloc ~bytes` (an `alloc_ext` event) with the
// backtrace of the tracer's call, so memtrace 0.2.3 traces end every external allocation's
// stack in the tracer's frame, `Memtrace__Memprof_tracer.ext_alloc_slowpath` (and in
// `...ext_alloc` when that one is inlined into its caller): every external allocation of
// a program would be one site. Newer writers leave these frames out themselves. The rule,
// the same for the site tables (stats, leaks, compare, report) and the stacks (folded, the
// report's flame graphs): for an external allocation only, the innermost frames whose
// definition is the tracer's (`ext_alloc` or `ext_alloc_slowpath` of module
// `Memtrace__Memprof_tracer`, or `Memtrace.Memprof_tracer` as an unmangled build names it)
// are passed over, so the site is the frame that called `Memtrace.External.alloc`. A
// backtrace made of tracer frames only keeps them (there is no caller to name). Other
// allocations, and tracer frames that are not innermost, are left as they are.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "core/memtrace/event.h"
#include "core/memtrace/ocaml_int.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::analysis {

// Whether `defname` (as memtrace stores a frame's definition name) is the tracer's own.
bool IsTracerFrame(std::string_view defname);

// How many innermost frames of `backtrace` (in the order of backtrace_frames.h) an
// allocation from `source` passes over: 0 unless it is external.
std::size_t TracerFramesToSkip(const TraceReader& reader, AllocationSource source,
                               std::span<const OcamlInt> backtrace);

}  // namespace mpo::memtrace::analysis
