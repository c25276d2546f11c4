#include "core/memtrace/view/json_view.h"

namespace mpo::memtrace::view {

Status WriteJsonView(ByteSource&, TextSink&, const JsonViewOptions&) {
  return Status(ErrorCode::kInternal, "memtrace JSON view: not implemented yet");
}

}  // namespace mpo::memtrace::view
