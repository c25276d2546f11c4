// The memtrace reader over arbitrary bytes: with and without backtraces, with
// --keep-going style recovery (reader and decoded view), and the oracle dump (raw header
// walk included), dump_trace and the schema 2 JSON view. Must never crash, hang or read
// out of bounds; every failure is a typed Status; the JSON view always ends with its
// trailer line.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/text_dump.h"
#include "core/memtrace/view/trace_view.h"

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

// Keeps the last bytes written (the JSON view's trailer).
class TailSink : public mpo::memtrace::TextSink {
 public:
  void Write(std::string_view s) override {
    tail.append(s);
    if (tail.size() > 4096) tail.erase(0, tail.size() - 4096);
  }
  std::string tail;
};

void DrainView(std::span<const std::uint8_t> bytes) {
  using namespace mpo::memtrace;
  auto v = view::TraceView::Open(MemorySource(bytes));
  if (!v.ok()) return;
  for (int i = 0; i < 1 << 20; ++i) {
    if ((*v)->Next() != nullptr) continue;
    if ((*v)->status().ok() || !(*v)->SkipAfterError()) return;
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
  DrainView(bytes);
  TailSink json;
  (void)mpo::memtrace::view::WriteJsonView(*src, json);
  const std::size_t line = json.tail.rfind('\n', json.tail.size() - 2);
  const std::string_view last =
      std::string_view(json.tail).substr(line == std::string::npos ? 0 : line + 1);
  if (!last.starts_with("{\"kind\":\"end_of_stream\",") || last.back() != '\n') __builtin_trap();
  return 0;
}
