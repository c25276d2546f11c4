// The consumer over arbitrary file bytes (metadata header, ring headers, event headers,
// name slots): it must never crash, hang, or read outside the input; bad bytes are
// typed errors. Seeds: small valid rings and OCaml's test_corrupted mutations of them.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/ring/cursor.h"
#include "core/ring/dump_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  for (std::size_t batch : {1, 16}) {
    auto cursor = mpo::ring::Cursor::FromBytes(bytes, mpo::ring::CursorOptions{batch});
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
