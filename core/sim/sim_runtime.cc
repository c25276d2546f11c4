#include "core/sim/sim_runtime.h"

#include "core/sim/sim_runtime_impl.h"

namespace mpo::sim {

void CHeapFaults::Fail(memprof::CHeapSite site, std::uint64_t skip, std::uint64_t count) {
  sites_[Index(site)].skip = skip;
  sites_[Index(site)].fail = count;
}

void CHeapFaults::Clear() {
  for (Site& s : sites_) s.skip = s.fail = 0;
}

bool CHeapFaults::Allow(memprof::CHeapSite site) {
  Site& s = sites_[Index(site)];
  ++s.attempts;
  if (s.skip > 0) {
    --s.skip;
    return true;
  }
  if (s.fail == 0) return true;
  --s.fail;
  ++s.refusals;
  return false;
}

// The production instantiation is compiled once here.
template class BasicSimRuntime<memprof::NoFaults>;

}  // namespace mpo::sim
