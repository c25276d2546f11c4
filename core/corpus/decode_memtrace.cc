// memtrace cases: the one memtrace view, with the options `memtrace dump --json` uses,
// so that the two print the same bytes.
#include "core/corpus/decode.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/text_dump.h"

namespace mpo::corpus {

memtrace::view::JsonViewOptions MemtraceJsonOptions(Verdicts verdicts,
                                                    const memtrace::Limits& limits) {
  memtrace::view::JsonViewOptions options;
  options.verdicts = verdicts;
  options.limits = limits;
  return options;
}

Status DecodeMemtrace(memtrace::ByteSource& source, DecodeForm form, TextSink& out,
                      Verdicts verdicts, const memtrace::Limits& limits) {
  if (form == DecodeForm::kJsonLines) {
    return memtrace::view::WriteJsonView(source, out, MemtraceJsonOptions(verdicts, limits));
  }
  // memtrace's own dump_trace text, then the reason a rejected trace stops.
  Status s = memtrace::WriteDumpTrace(source, out, true, {}, limits, verdicts);
  if (!s.ok()) out.Write("error: " + s.ToString() + "\n");
  return s;
}

}  // namespace mpo::corpus
