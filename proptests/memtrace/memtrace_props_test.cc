// RapidCheck properties of the memtrace codec: event streams round-trip exactly through
// writer and reader (v2 and v3, several domains, gaps over 30 s, 25-bit wraps, huge
// lengths, shared prefixes); backtraces round-trip through the cache including prediction
// overflow; the MTF table agrees with a naive list; the cursor never reads past the end.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <list>
#include <string>
#include <vector>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"
#include "core/memtrace/internal/roundtrip_check.h"
#include "core/memtrace/mtf_table.h"

namespace mpo::memtrace {
namespace {

using testing::GenEvent;

rc::Gen<OcamlInt> GenCode() {
  return rc::gen::weightedOneOf<OcamlInt>({
      {8,
       rc::gen::map(rc::gen::inRange<int>(0, 64), [](int i) { return OcamlInt{0x4000} + 8 * i; })},
      {1,
       rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                    [](std::int64_t v) { return OcamlIntOfInt64(static_cast<std::uint64_t>(v)); })},
  });
}

rc::Gen<std::vector<GenEvent>> GenStream() {
  return rc::gen::exec([] {
    const int n = *rc::gen::inRange(0, 300);
    const int ndomains = *rc::gen::inRange(1, 5);
    std::vector<GenEvent> out;
    std::vector<std::vector<OcamlInt>> bts(ndomains);
    for (int i = 0; i < n; ++i) {
      GenEvent g;
      g.domain = static_cast<std::uint16_t>(*rc::gen::inRange(0, ndomains));
      g.dt = *rc::gen::weightedOneOf<std::int64_t>({
          {10, rc::gen::inRange<std::int64_t>(0, 50)},
          {2, rc::gen::inRange<std::int64_t>(0, 1 << 26)},  // 25-bit wraps
          {1, rc::gen::just<std::int64_t>(30000001)},       // over 30 s
      });
      const int kind = *rc::gen::inRange(0, 10);
      if (kind < 7) {
        g.kind = EventKind::kAlloc;
        g.length = *rc::gen::weightedOneOf<OcamlInt>({
            {6, rc::gen::inRange<OcamlInt>(0, 20)},
            {1, rc::gen::just<OcamlInt>(0x81234567)},
            {1, rc::gen::inRange<OcamlInt>(-(OcamlInt{1} << 62), (OcamlInt{1} << 62) - 1)},
        });
        g.nsamples = *rc::gen::weightedOneOf<OcamlInt>(
            {{4, rc::gen::just<OcamlInt>(1)}, {1, rc::gen::inRange<OcamlInt>(0, 100000)}});
        g.source = static_cast<AllocationSource>(*rc::gen::inRange(0, 3));
        auto& bt = bts[g.domain];
        bt.resize(*rc::gen::inRange<std::size_t>(0, bt.size() + 1));  // shared prefix
        const int add = *rc::gen::inRange(0, 30);
        for (int k = 0; k < add && bt.size() < testing::kMaxGenBacktrace; ++k)
          bt.push_back(*GenCode());
        g.backtrace = bt;
      } else {
        g.kind = kind < 9 ? EventKind::kCollect : EventKind::kPromote;
        g.target = static_cast<std::uint32_t>(*rc::gen::inRange(0, 40));
      }
      out.push_back(std::move(g));
    }
    return out;
  });
}

RC_GTEST_PROP(MemtraceProps, EventStreamsRoundTripV3, ()) {
  const auto events = *GenStream();
  const std::int64_t chunk = *rc::gen::element<std::int64_t>(3, 50, 10000);
  Status s = testing::CheckRoundTrip(events, 3, chunk);
  RC_ASSERT(s.ok());
}

RC_GTEST_PROP(MemtraceProps, EventStreamsRoundTripV2, ()) {
  const auto events = *GenStream();
  Status s = testing::CheckRoundTrip(events, 2);
  RC_ASSERT(s.ok());
}

RC_GTEST_PROP(MemtraceProps, BacktracesRoundTripThroughTheCache, ()) {
  BacktraceWriter w;
  BacktraceReader r;
  std::vector<OcamlInt> prev;
  const int n = *rc::gen::inRange(1, 20);
  for (int i = 0; i < n; ++i) {
    // Runs of a short cycle make long prediction blocks (over 255: overflow).
    std::vector<OcamlInt> bt(prev.begin(),
                             prev.begin() + *rc::gen::inRange<std::size_t>(0, prev.size() + 1));
    const int period = *rc::gen::inRange(1, 5);
    const int run = *rc::gen::inRange(0, 380);
    const OcamlInt base = *GenCode();
    for (int k = 0; k < run && bt.size() < 380; ++k) bt.push_back(base + (k % period) * 16);
    std::size_t common = 0;
    while (common < bt.size() && common < prev.size() && bt[common] == prev[common]) ++common;
    ByteWriter out(1 << 15);
    const auto nenc = w.Put(out, i, bt, common, [](std::size_t) {});
    ByteReader in(out.bytes(), 0);
    auto got = r.Get(in, nenc, static_cast<OcamlInt>(common));
    RC_ASSERT(in.ok());
    RC_ASSERT(in.remaining() == 0u);
    RC_ASSERT(std::vector<OcamlInt>(got.begin(), got.end()) == bt);
    RC_ASSERT(r.Check(w.NextVerifier()));
    prev = bt;
  }
}

RC_GTEST_PROP(MemtraceProps, MtfTableMatchesNaiveList, ()) {
  MtfTable<int> t;
  std::list<std::string> naive;
  const auto keys = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 45));
  for (int k : keys) {
    const std::string key = "k" + std::to_string(k);
    MtfTable<int>::Entry* e;
    const int ix = t.Encode(key, &e);
    auto it = std::find(naive.begin(), naive.end(), key);
    if (it == naive.end()) {
      RC_ASSERT(ix == MtfTable<int>::kNotFound);
      naive.push_front(key);
      if (naive.size() > 31) naive.pop_back();
    } else {
      RC_ASSERT(ix == static_cast<int>(std::distance(naive.begin(), it)));
      naive.erase(it);
      naive.push_front(key);
    }
    RC_ASSERT(e->key == key);
    RC_ASSERT(t.CheckInvariants());
    RC_ASSERT(t.size() == static_cast<int>(naive.size()));
    int i = 0;
    for (const auto& s : naive) RC_ASSERT(t.at(i++).key == s);
  }
}

RC_GTEST_PROP(MemtraceProps, CursorNeverReadsPastTheEnd, ()) {
  const auto bytes =
      *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>());
  const auto ops = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 8));
  const std::uint64_t base = *rc::gen::inRange<std::uint64_t>(0, 1 << 30);
  ByteReader r(bytes, base);
  bool failed = false;
  std::uint64_t fail_offset = 0;
  for (int op : ops) {
    const std::size_t before = r.pos();
    switch (op) {
      case 0: r.U8("f"); break;
      case 1: r.U16("f"); break;
      case 2: r.U32("f"); break;
      case 3: r.U64("f"); break;
      case 4: r.Vint("f"); break;
      case 5: r.String("f"); break;
      case 6: r.Float("f"); break;
      default: r.Skip(static_cast<std::size_t>(op) * 3, "f"); break;
    }
    RC_ASSERT(r.pos() <= bytes.size());
    RC_ASSERT(r.offset() == base + r.pos());
    if (failed) {
      RC_ASSERT(r.pos() == before);  // sticky: nothing moves after an error
      RC_ASSERT(*r.status().byte_offset() == fail_offset);
    } else if (!r.ok()) {
      failed = true;
      fail_offset = *r.status().byte_offset();
      RC_ASSERT(fail_offset >= base && fail_offset <= base + bytes.size());
    }
  }
}

}  // namespace
}  // namespace mpo::memtrace
