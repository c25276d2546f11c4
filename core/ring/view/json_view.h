// The schema 2 JSON Lines view of a runtime events ring file (core/corpus/SCHEMA.md):
// what `events dump --json` and `corpus decode` print, byte for byte.
//
//   {"schema":2,"format":"ring","ocaml_version":"5.N"}
//   one record per event, in delivery order (members in this order):
//     {"kind":"begin"|"end","ring":R,"ts":NS,"id":PHASE,"name":NAME}
//     {"kind":"counter","ring":R,"ts":NS,"id":C,"name":NAME,"value":U64}
//     {"kind":"alloc","ring":R,"ts":NS,"buckets":[U64,...]}
//     {"kind":"lifecycle","ring":R,"ts":NS,"id":K,"name":NAME,"data":I64}
//     {"kind":"lost_events","ring":R,"words":I64}
//     {"kind":"user_unit"|"user_span_begin"|"user_span_end","ring":R,"ts":NS,"id":I,"name":S}
//     {"kind":"user_int","ring":R,"ts":NS,"id":I,"name":S,"value":OCAML_INT}
//     {"kind":"user_custom","ring":R,"ts":NS,"id":I,"name":S,"payload_hex":"00ff"}
//   {"kind":"end_of_stream","error":null|ERROR,"records":N}
//
// Values are the C consumer's, unconverted (counter values and buckets as unsigned
// 64-bit words, lifecycle data as a signed one), except user_int's, which is the OCaml
// int OCaml's binding delivers. Names not UTF-8 are {"hex":".."} (json_text.h).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"
#include "core/ring/view/ring_event.h"

namespace mpo::ring::view {

// Reads every ring of `file` with one poll of a fresh cursor, names ids with release
// `version`'s tables, and writes the whole stream (header, records, trailer); a decoding
// error ends the stream with the error in the trailer. Returns that decoding status.
Status WriteJsonView(std::span<const std::byte> file, OcamlVersion version, TextSink& out,
                     const CursorOptions& options = {});

// The same stream from an opened cursor (a mapped file, or a live process's ring), polled
// until a poll delivers nothing; a cursor that could not be opened gives the header and
// a trailer with the error of opening it.
Status WriteJsonView(Result<Cursor>& opened, OcamlVersion version, TextSink& out);

// The pieces, for tests and other writers: the header line and one record line.
void AppendJsonHeader(std::string& out, OcamlVersion version);
void AppendJsonRecord(std::string& out, const RingEvent& e);

}  // namespace mpo::ring::view
