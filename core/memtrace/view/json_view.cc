#include "core/memtrace/view/json_view.h"

#include "core/memtrace/view/json_view_impl.h"

namespace mpo::memtrace::view {

Status WriteJsonView(ByteSource& source, TextSink& out, const JsonViewOptions& options) {
  return WriteJsonViewWith<NoFaults>(source, out, options);
}

}  // namespace mpo::memtrace::view
