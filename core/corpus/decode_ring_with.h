// The ring JSON Lines decode of decode.h (DecodeRing) through a consumer with any fault
// policy (core/ring/faults.h): what `corpus decode` prints, for tests that decode the
// corpus with deliberately broken consumers (ring_mutants.h). Tests only include it (it
// instantiates the cursor's poll for `Faults`).
#pragma once

#include <cstdint>
#include <span>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/ring/cursor_impl.h"
#include "core/ring/event_names.h"
#include "core/ring/view/json_view.h"

namespace mpo::corpus {

// DecodeRing's JSON Lines form (strict verdicts): the same view over a fresh cursor.
template <class Faults>
Status DecodeRingJsonWith(std::span<const std::uint8_t> bytes, ring::OcamlVersion version,
                          TextSink& out) {
  auto cursor = ring::Cursor::FromBytesWith<Faults>(std::as_bytes(bytes));
  return ring::view::WriteJsonView(cursor, version, out);
}

}  // namespace mpo::corpus
