// The view of the correct reader, compiled once (trace_view.h declares it extern).
#include "core/memtrace/view/trace_view_impl.h"

namespace mpo::memtrace::view {

template class BasicTraceView<NoFaults>;

}  // namespace mpo::memtrace::view
