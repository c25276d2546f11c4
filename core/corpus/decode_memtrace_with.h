// The memtrace JSON Lines decode of decode.h (DecodeMemtrace) over the view of any
// reader (core/memtrace/faults.h): what `corpus decode` prints, for tests that decode
// the corpus with deliberately broken readers (memtrace_mutants.h). Tests only include
// it (it instantiates the view and reader for `Faults`).
#pragma once

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/base/verdicts.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/trace_reader_impl.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/json_view_impl.h"
#include "core/memtrace/view/trace_view_impl.h"

namespace mpo::corpus {

// The view options DecodeMemtrace's JSON Lines form uses (decode_memtrace.cc).
memtrace::view::JsonViewOptions MemtraceJsonOptions(Verdicts verdicts,
                                                    const memtrace::Limits& limits);

template <class Faults>
Status DecodeMemtraceJsonWith(memtrace::ByteSource& source, TextSink& out,
                              Verdicts verdicts = Verdicts::kStrict,
                              const memtrace::Limits& limits = {}) {
  return memtrace::view::WriteJsonViewWith<Faults>(source, out,
                                                   MemtraceJsonOptions(verdicts, limits));
}

}  // namespace mpo::corpus
