// The memtrace decoder's test seam: a fault policy (the convention: core/base/faults.h).
// BasicTraceReader<Faults> (trace_reader.h), BacktraceReader::Get/GetAt and
// LocationReader::GetCompact take it as a template parameter and call the steps below where a
// reader bug would hide. The default, NoFaults, is the correct reader: every step returns the value
// the reader already computed (or does what it did), so it inlines away and `TraceReader` (=
// BasicTraceReader<NoFaults>, instantiated once in trace_reader.cc) compiles to the code it
// compiled to before. Deliberately broken readers ("mutants", core/corpus/memtrace_mutants.h)
// replace one step each, in a test-only instantiation, so that the conformance corpus can be shown
// to catch them.
//
// Why a template rather than a policy object chosen at construction: a runtime choice
// would put a test for "which fault" on every field of every event. The steps take the
// raw inputs next to the correct value (the word a time came from, the codeword of a
// bucket) so that a mutant computes its wrong value from what the reader read, and this
// header needs nothing beyond buf.h (the codecs include it).
//
// kFastPath: TraceReader's one event decoder runs over an unchecked cursor first and
// over the checked one (ParseEvent) for everything else and every event the unchecked
// cursor declines; both give the same events (proptests/memtrace:fast_path_test). A
// mutant of a step only the checked cursor takes (the event fields) turns the fast path
// off, so that it is a reader with that one bug everywhere.
#pragma once

#include <cstdint>

#include "core/memtrace/buf.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

struct NoFaults {
  static constexpr bool kFastPath = true;

  // Event fields (the event decoder with the checked cursor).
  static OcamlInt Vint(ByteReader& in, const char* field) { return in.Vint(field); }
  // A long alloc's count of new backtrace entries (a u16 on disk).
  static std::uint32_t LongSuffixCount(ByteReader& in, const char* field) { return in.U16(field); }
  // The time of an event header `word` in a packet starting at `time_begin`.
  static std::int64_t EventTime(std::int64_t time, std::uint32_t /*word*/,
                                std::int64_t /*time_begin*/) {
    return time;
  }
  static unsigned ShortAllocLength(unsigned length, unsigned /*code*/) { return length; }
  static OcamlInt ShortAllocSamples(OcamlInt nsamples) { return nsamples; }
  static OcamlInt LongAllocSamples(OcamlInt nsamples) { return nsamples; }
  // The allocation source byte (0 minor, 1 major, 2 external).
  static std::uint8_t Source(std::uint8_t src) { return src; }
  static OcamlInt CommonPrefix(OcamlInt common) { return common; }
  // The object id a promote or collect names, from the next alloc id and its delta.
  static OcamlInt DeltaId(OcamlInt id, OcamlInt /*next_alloc_id*/, OcamlInt /*delta*/) {
    return id;
  }
  // Whether a collect's negative delta is refused (v1/v2 only).
  static bool RefusesNegativeCollect(bool legacy) { return legacy; }
  // The domain an event reports, from its packet header.
  static std::uint16_t EventDomain(std::uint16_t domain, std::uint16_t /*initial*/) {
    return domain;
  }

  // Packets (TraceReader::LoadPacket, ReadInfo).
  static std::uint64_t PacketBytes(std::uint64_t bytes, std::uint32_t /*size_bits*/) {
    return bytes;
  }
  static bool ForeignPid(bool foreign, std::int64_t /*packet_pid*/, std::int64_t /*trace_pid*/) {
    return foreign;
  }
  // The per-domain state (backtrace cache, locations, times) a packet of `domain` uses.
  static std::uint16_t StreamOf(std::uint16_t domain) { return domain; }
  // The first alloc id of a v3 packet: its header's (`begin`), not the stream's `carried`.
  static OcamlInt PacketAllocIdBegin(OcamlInt begin, OcamlInt /*carried*/) { return begin; }
  // The first alloc id of a v1/v2 packet: the stream's (`carried`; the packet's `begin`
  // is checked to equal it).
  static OcamlInt LegacyAllocIdBegin(OcamlInt carried, OcamlInt /*begin*/) { return carried; }
  static bool VerifierMatches(bool matches) { return matches; }

  // The trace-info event.
  static double SampleRate(double rate) { return rate; }
  static std::int64_t StartTime(std::int64_t start, std::int64_t /*info_time_end*/) {
    return start;
  }
  static bool HasContext(int version) { return version >= 2; }
  static std::uint8_t WordSize(ByteReader& in, const char* field) { return in.U8(field); }

  // Backtrace codewords (BacktraceReader::Decode).
  static std::uint32_t Bucket(std::uint32_t bucket, std::uint32_t /*codeword*/) { return bucket; }
  static std::uint32_t Tag(std::uint32_t tag) { return tag; }
  static std::uint32_t HitNCount(std::uint8_t n) { return n; }
  // Every codeword makes its bucket the prediction of the previous one.
  static void Predict(std::uint16_t* next, std::uint32_t prev, std::uint32_t bucket,
                      std::uint32_t /*tag*/) {
    next[prev] = static_cast<std::uint16_t>(bucket);
  }
  // The bucket a hit run leaves as the previous one: its last (`last`), not its first.
  static std::uint32_t RunEnd(std::uint32_t last, std::uint32_t /*first*/) { return last; }
  // A miss stores its code in its bucket.
  static constexpr bool kMissStores = true;

  // Location frames (LocationReader::GetCompact).
  static OcamlInt Line(OcamlInt line, std::uint64_t /*word*/) { return line; }
  static OcamlInt StartChar(OcamlInt start, std::uint64_t /*word*/) { return start; }
  static OcamlInt EndChar(OcamlInt end, std::uint64_t /*word*/) { return end; }
  template <class Table>
  static auto& FileHit(Table& files, int ix) {
    return files.MoveToFront(ix);
  }
  template <class Table>
  static auto& DefnameHit(Table& defs, int ix) {
    return defs.MoveToFront(ix);
  }
  // A new filename pushed into a full table takes over the evicted file's defnames.
  static constexpr bool kEvictionKeepsDefnames = true;
  // A new filename pushed into a table not yet full starts with no defnames.
  static constexpr bool kClearsNewFileDefnames = true;
};

}  // namespace mpo::memtrace
