#include "core/memprof/engine.h"

#include "core/sync/std_platform.h"

namespace mpo::memprof {

// The production instantiation is compiled once here.
template class Engine<sync::StdPlatform>;
template class Domain<sync::StdPlatform>;

}  // namespace mpo::memprof
