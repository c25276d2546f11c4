// Structure-aware round trip: the input bytes are read as a program of events (domains,
// time gaps including >30 s and 25-bit wraps, huge lengths, backtraces sharing prefixes,
// promotions and collections), written with TraceWriter (v2 or v3) and read back; any
// difference traps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/memtrace/internal/roundtrip_check.h"

namespace {

class Bytes {
 public:
  Bytes(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool empty() const { return i_ >= n_; }
  std::uint64_t Take(int nbytes) {
    std::uint64_t v = 0;
    for (int k = 0; k < nbytes; ++k) v = (v << 8) | (i_ < n_ ? d_[i_++] : 0);
    return v;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
  std::size_t i_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::memtrace;
  using mpo::memtrace::testing::GenEvent;
  Bytes in(data, size);
  const int version = (in.Take(1) & 1) ? 3 : 2;
  const std::int64_t chunk = 1 + static_cast<std::int64_t>(in.Take(1) % 64);
  std::vector<GenEvent> events;
  std::vector<OcamlInt> bt;
  while (!in.empty() && events.size() < 2000) {
    GenEvent g;
    const std::uint8_t op = static_cast<std::uint8_t>(in.Take(1));
    g.domain = static_cast<std::uint16_t>((op >> 2) & 3);
    const std::uint8_t gap = static_cast<std::uint8_t>(in.Take(1));
    g.dt = gap < 200 ? gap : gap < 250 ? static_cast<std::int64_t>(in.Take(3)) * 8 : 31000000;
    switch (op & 3) {
      case 0:
        g.kind = EventKind::kPromote;
        g.target = static_cast<std::uint32_t>(in.Take(1));
        break;
      case 1:
        g.kind = EventKind::kCollect;
        g.target = static_cast<std::uint32_t>(in.Take(1));
        break;
      default: {
        g.kind = EventKind::kAlloc;
        const std::uint8_t shape = static_cast<std::uint8_t>(in.Take(1));
        g.length = (shape & 0x80) ? static_cast<OcamlInt>(in.Take(8) >> 2) : (shape & 31);
        g.nsamples = 1 + ((shape >> 5) & 1) * static_cast<OcamlInt>(in.Take(1));
        g.source = static_cast<AllocationSource>(((shape >> 6) & 1) * (1 + (op >> 4) % 2));
        const std::size_t keep = bt.empty() ? 0 : in.Take(1) % (bt.size() + 1);
        bt.resize(keep);
        const std::size_t add = in.Take(1) % 24;
        for (std::size_t k = 0; k < add && bt.size() < testing::kMaxGenBacktrace; ++k) {
          const std::uint8_t c = static_cast<std::uint8_t>(in.Take(1));
          bt.push_back(c < 250 ? 0x1000 + 8 * (c % 60) : static_cast<OcamlInt>(in.Take(8)) >> 1);
        }
        g.backtrace = bt;
      }
    }
    events.push_back(std::move(g));
  }
  mpo::Status s = testing::CheckRoundTrip(events, version, chunk);
  if (!s.ok()) {
    std::fprintf(stderr, "round trip failed: %s\n", s.ToString().c_str());
    __builtin_trap();
  }
  return 0;
}
