// The consumer over arbitrary file bytes (metadata header, ring headers, event headers,
// name slots): it must never crash, hang, or read outside the input; bad bytes are
// typed errors. Seeds: small valid rings and OCaml's test_corrupted mutations of them.
// The schema 2 JSON view of the same bytes must always be a complete stream: whatever
// the input, its last line is the end line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "core/base/text_sink.h"
#include "core/ring/cursor.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/json_view.h"

namespace {

void CheckJsonView(std::span<const std::byte> bytes) {
  mpo::StringTextSink out;
  (void)mpo::ring::view::WriteJsonView(bytes, mpo::ring::OcamlVersion::k5_3, out);
  const std::string_view text = out.text;
  const auto last = text.rfind('\n', text.size() >= 2 ? text.size() - 2 : 0);
  const std::string_view end = last == std::string_view::npos ? text : text.substr(last + 1);
  if (!text.ends_with("}\n") || !end.starts_with(R"({"kind":"end_of_stream","error":)"))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  CheckJsonView(bytes);
  for (std::size_t batch : {1, 16}) {
    auto cursor = mpo::ring::Cursor::FromBytes(
        bytes, mpo::ring::CursorOptions{.batch_messages = batch, .rules = {}});
    if (!cursor.ok()) return 0;
    mpo::ring::GoldenLineWriter writer(mpo::ring::OcamlVersion::k5_3);
    // A few polls with a small budget, then until nothing is left (bounded: a static
    // file has at most one ring's worth of events per domain).
    for (int i = 0; i < 3; ++i) {
      if (!cursor->ReadPoll(writer, 3).ok()) break;
    }
    for (int i = 0; i < 8; ++i) {
      auto n = cursor->ReadPoll(writer);
      if (!n.ok() || *n == 0) break;
    }
    (void)writer.TakeText();
  }
  return 0;
}
