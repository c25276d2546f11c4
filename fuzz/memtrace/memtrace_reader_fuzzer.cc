// The memtrace reader over arbitrary bytes: with and without backtraces, with
// --keep-going style recovery, and the oracle dump (raw header walk included), dump_trace
// and JSON lines. Must never crash, hang or read out of bounds; every failure is a typed
// Status.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/text_dump.h"
#include "core/memtrace/trace_reader.h"

namespace {

class NullSink : public mpo::memtrace::TextSink {
 public:
  void Write(std::string_view) override {}
};

void Drain(std::span<const std::uint8_t> bytes, bool parse) {
  using namespace mpo::memtrace;
  ReaderOptions o;
  o.parse_backtraces = parse;
  o.max_packet_bytes = 1 << 16;
  auto r = TraceReader::Open(MemorySource(bytes), o);
  if (!r.ok()) {
    if (r.status().ok()) __builtin_trap();
    return;
  }
  for (int i = 0; i < 1 << 20; ++i) {
    auto ev = (*r)->Next();
    if (!ev.ok()) {
      if (!(*r)->SkipToNextPacket()) return;
      continue;
    }
    if (*ev == nullptr) return;
    for (auto code : (*ev)->backtrace) (void)(*r)->LookupLocation(code);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> bytes(data, size);
  Drain(bytes, true);
  Drain(bytes, false);
  auto src = mpo::memtrace::MemorySource(bytes);
  NullSink sink;
  (void)mpo::memtrace::WriteOracleDump(*src, sink);
  (void)mpo::memtrace::WriteDumpTrace(*src, sink);
  (void)mpo::memtrace::WriteJsonLines(*src, sink, /*parse_backtraces=*/true);
  return 0;
}
