// The correct reader, compiled once (trace_reader.h declares it extern).
#include "core/memtrace/trace_reader_impl.h"

namespace mpo::memtrace {

template class BasicTraceReader<NoFaults>;

}  // namespace mpo::memtrace
