// Deliberately broken memtrace decoders ("mutants"): each is a fault policy
// (core/memtrace/faults.h) replacing one step of NoFaults with a realistic reader bug.
// mutants_test decodes every corpus case with each and requires each to be caught by
// some case (README.md, "How strong the corpus is"). Tests only.
//
// A mutant of a step only ParseEvent calls derives from SlowReader: the reader without
// its fast path (faults.h, kFastPath), so that the bug applies to every event.
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>

#include "core/memtrace/backtrace_codec.h"
#include "core/memtrace/buf.h"
#include "core/memtrace/faults.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/packet_header.h"

namespace mpo::corpus::memtrace_mutants {

using memtrace::ByteReader;
using memtrace::OcamlInt;

struct SlowReader : memtrace::NoFaults {
  static constexpr bool kFastPath = false;
};

// --- Variable-length integers (one byte 0..252; 253 u16, 254 i32, 255 63-bit u64) ---

// A 2-byte vint (prefix 0xfd) read as one byte.
struct VintFdOneByte : SlowReader {
  static constexpr std::string_view kName = "vint_fd_one_byte";
  static OcamlInt Vint(ByteReader& in, const char* field) {
    const std::uint8_t tag = in.U8(field);
    if (tag < 253) return tag;
    if (tag == 253) return in.U8(field);
    if (tag == 254) return static_cast<std::int32_t>(in.U32(field));
    return memtrace::OcamlIntOfInt64(in.U64(field));
  }
};

// A 4-byte vint (prefix 0xfe) not sign-extended: negative values come out as 2^32 - n.
struct VintFeUnsigned : SlowReader {
  static constexpr std::string_view kName = "vint_fe_unsigned";
  static OcamlInt Vint(ByteReader& in, const char* field) {
    const std::uint8_t tag = in.U8(field);
    if (tag < 253) return tag;
    if (tag == 253) return in.U16(field);
    if (tag == 254) return in.U32(field);
    return memtrace::OcamlIntOfInt64(in.U64(field));
  }
};

// The 0xfd and 0xfe prefixes confused: 0xfd reads an i32, 0xfe a u16.
struct VintFdFeSwapped : SlowReader {
  static constexpr std::string_view kName = "vint_fd_fe_swapped";
  static OcamlInt Vint(ByteReader& in, const char* field) {
    const std::uint8_t tag = in.U8(field);
    if (tag < 253) return tag;
    if (tag == 254) return in.U16(field);
    if (tag == 253) return static_cast<std::int32_t>(in.U32(field));
    return memtrace::OcamlIntOfInt64(in.U64(field));
  }
};

// An 8-byte vint (prefix 0xff) read as 4 bytes.
struct VintFfFourBytes : SlowReader {
  static constexpr std::string_view kName = "vint_ff_four_bytes";
  static OcamlInt Vint(ByteReader& in, const char* field) {
    const std::uint8_t tag = in.U8(field);
    if (tag < 253) return tag;
    if (tag == 253) return in.U16(field);
    return static_cast<std::int32_t>(in.U32(field));
  }
};

// One-byte values end at 251: 252 is taken for a 2-byte prefix (the limit off by one).
struct VintFcIsPrefix : SlowReader {
  static constexpr std::string_view kName = "vint_fc_is_prefix";
  static OcamlInt Vint(ByteReader& in, const char* field) {
    const std::uint8_t tag = in.U8(field);
    if (tag < 252) return tag;
    if (tag <= 253) return in.U16(field);
    if (tag == 254) return static_cast<std::int32_t>(in.U32(field));
    return memtrace::OcamlIntOfInt64(in.U64(field));
  }
};

// --- Event fields ---

// Short allocs (codes 101..116) read as length code - 101.
struct ShortAllocLengthOffByOne : SlowReader {
  static constexpr std::string_view kName = "short_alloc_length_off_by_one";
  static unsigned ShortAllocLength(unsigned, unsigned code) { return code - 101; }
};

// A short alloc's implicit one sample forgotten (0).
struct ShortAllocNoSample : SlowReader {
  static constexpr std::string_view kName = "short_alloc_no_sample";
  static OcamlInt ShortAllocSamples(OcamlInt) { return 0; }
};

// A long alloc's nsamples read but taken as 1.
struct NsamplesIgnored : SlowReader {
  static constexpr std::string_view kName = "nsamples_ignored";
  static OcamlInt LongAllocSamples(OcamlInt) { return 1; }
};

// Sources 0 and 1 confused (minor read as major and back).
struct SourceMinorMajorSwapped : SlowReader {
  static constexpr std::string_view kName = "source_minor_major_swapped";
  static std::uint8_t Source(std::uint8_t src) { return src == 0 ? 1 : src == 1 ? 0 : src; }
};

// External allocations (source 2) reported as major.
struct SourceExternalAsMajor : SlowReader {
  static constexpr std::string_view kName = "source_external_as_major";
  static std::uint8_t Source(std::uint8_t src) { return src == 2 ? 1 : src; }
};

// The common prefix taken one shorter than written.
struct CommonPrefixOffByOne : SlowReader {
  static constexpr std::string_view kName = "common_prefix_off_by_one";
  static OcamlInt CommonPrefix(OcamlInt common) { return common > 0 ? common - 1 : common; }
};

// The common prefix ignored: each backtrace is only its new suffix.
struct CommonPrefixIgnored : SlowReader {
  static constexpr std::string_view kName = "common_prefix_ignored";
  static OcamlInt CommonPrefix(OcamlInt common) { return common > 0 ? 0 : common; }
};

// A long alloc's new-suffix count read as one byte, like a short alloc's.
struct LongSuffixOneByte : SlowReader {
  static constexpr std::string_view kName = "long_suffix_one_byte";
  static std::uint32_t LongSuffixCount(ByteReader& in, const char* field) { return in.U8(field); }
};

// --- Times ---

// The 25-bit time word added to the packet's base without the wrap: an event whose low
// bits are below the packet start's comes out 2^25 us too early.
struct TimeNoWrap : SlowReader {
  static constexpr std::string_view kName = "time_no_wrap";
  static std::int64_t EventTime(std::int64_t, std::uint32_t word, std::int64_t time_begin) {
    return static_cast<std::int64_t>(
        (static_cast<std::uint64_t>(time_begin) & ~std::uint64_t{memtrace::kEventTimeMask}) +
        (word & memtrace::kEventTimeMask));
  }
};

// The 25-bit time word taken as the time itself (the packet's time base ignored).
struct TimeBaseIgnored : SlowReader {
  static constexpr std::string_view kName = "time_base_ignored";
  static std::int64_t EventTime(std::int64_t, std::uint32_t word, std::int64_t) {
    return word & memtrace::kEventTimeMask;
  }
};

// --- Object ids ---

// A promote's or collect's id computed as next id - delta (memtrace subtracts 1 more).
struct DeltaIdOffByOne : SlowReader {
  static constexpr std::string_view kName = "delta_id_off_by_one";
  static OcamlInt DeltaId(OcamlInt, OcamlInt next, OcamlInt delta) {
    return memtrace::OcamlSub(next, delta);
  }
};

// v3 collect deltas refused when negative, as v1/v2 refuse them.
struct NegativeCollectRefused : SlowReader {
  static constexpr std::string_view kName = "negative_collect_refused";
  static bool RefusesNegativeCollect(bool) { return true; }
};

// v3 alloc ids counted on across packets (and domains) instead of restarting at each
// packet's alloc_id_begin.
struct V3AllocIdsContinue : SlowReader {
  static constexpr std::string_view kName = "v3_alloc_ids_continue";
  static OcamlInt PacketAllocIdBegin(OcamlInt, OcamlInt carried) { return carried; }
};

// --- Packets and domains ---

// packet_size taken as bytes (it counts bits).
struct PacketSizeInBytes : SlowReader {
  static constexpr std::string_view kName = "packet_size_in_bytes";
  static std::uint64_t PacketBytes(std::uint64_t, std::uint32_t bits) { return bits; }
};

// Packets from another pid read as if they were the traced process's.
struct ForeignPidRead : SlowReader {
  static constexpr std::string_view kName = "foreign_pid_read";
  static bool ForeignPid(bool, std::int64_t, std::int64_t) { return false; }
};

// Every v3 domain decoded with one shared state (one backtrace cache, one location MTF
// table, one clock): domain switches ignored.
struct DomainsShareState : SlowReader {
  static constexpr std::string_view kName = "domains_share_state";
  static std::uint16_t StreamOf(std::uint16_t) { return 0; }
};

// Events report the trace's initial domain, not their packet's.
struct EventDomainIsInitial : SlowReader {
  static constexpr std::string_view kName = "event_domain_is_initial";
  static std::uint16_t EventDomain(std::uint16_t, std::uint16_t initial) { return initial; }
};

// The cache verifier of packet headers never checked.
struct VerifierIgnored : memtrace::NoFaults {
  static constexpr std::string_view kName = "verifier_ignored";
  static bool VerifierMatches(bool) { return true; }
};

// --- Trace info ---

// The sample rate stored as a 32-bit float.
struct SampleRateFloat32 : memtrace::NoFaults {
  static constexpr std::string_view kName = "sample_rate_float32";
  static double SampleRate(double rate) { return static_cast<float>(rate); }
};

// The start time taken from the info packet's time_end.
struct StartTimeFromEnd : memtrace::NoFaults {
  static constexpr std::string_view kName = "start_time_from_end";
  static std::int64_t StartTime(std::int64_t, std::int64_t end) { return end; }
};

// The context string read from v3 on only (it exists from v2).
struct ContextFromV3 : memtrace::NoFaults {
  static constexpr std::string_view kName = "context_from_v3";
  static bool HasContext(int version) { return version >= 3; }
};

// A context string read in v1 too.
struct ContextInV1 : memtrace::NoFaults {
  static constexpr std::string_view kName = "context_in_v1";
  static bool HasContext(int) { return true; }
};

// word_size read as a u16 (its value kept to a byte): every later info field shifts.
struct WordSizeU16 : memtrace::NoFaults {
  static constexpr std::string_view kName = "word_size_u16";
  static std::uint8_t WordSize(ByteReader& in, const char* field) {
    return static_cast<std::uint8_t>(in.U16(field));
  }
};

// --- Backtrace codewords (bits 2..15 bucket, bits 0..1 tag) ---

// The bucket taken from bits 1..14 (shifted by one).
struct BucketShiftOne : memtrace::NoFaults {
  static constexpr std::string_view kName = "bucket_shift_one";
  static std::uint32_t Bucket(std::uint32_t, std::uint32_t codeword) {
    return (codeword >> 1) & memtrace::kCacheMask;
  }
};

// The bucket kept to 13 bits (a 2^13-slot cache).
struct Bucket13Bits : memtrace::NoFaults {
  static constexpr std::string_view kName = "bucket_13_bits";
  static std::uint32_t Bucket(std::uint32_t bucket, std::uint32_t) { return bucket & 0x1fff; }
};

// Tags 1 (hit, one predicted) and 2 (hit, count follows) confused.
struct HitTagsSwapped : memtrace::NoFaults {
  static constexpr std::string_view kName = "hit_tags_swapped";
  static std::uint32_t Tag(std::uint32_t tag) { return tag == 1 ? 2 : tag == 2 ? 1 : tag; }
};

// The hitN count read in 7 bits (runs of 128..255 predictions shortened by 128).
struct HitN7Bits : memtrace::NoFaults {
  static constexpr std::string_view kName = "hitn_7_bits";
  static std::uint32_t HitNCount(std::uint8_t n) { return n & 0x7f; }
};

// Predictions never updated (every predicted code comes from a stale chain).
struct PredictionNotUpdated : memtrace::NoFaults {
  static constexpr std::string_view kName = "prediction_not_updated";
  static void Predict(std::uint16_t*, std::uint32_t, std::uint32_t, std::uint32_t) {}
};

// A miss does not update the previous bucket's prediction.
struct MissNotPredicted : memtrace::NoFaults {
  static constexpr std::string_view kName = "miss_not_predicted";
  static void Predict(std::uint16_t* next, std::uint32_t prev, std::uint32_t bucket,
                      std::uint32_t tag) {
    if (tag != memtrace::kMiss) next[prev] = static_cast<std::uint16_t>(bucket);
  }
};

// After a hit run, the next codeword's prediction goes to the run's first bucket, not
// its last.
struct RunEndIsFirst : memtrace::NoFaults {
  static constexpr std::string_view kName = "run_end_is_first";
  static std::uint32_t RunEnd(std::uint32_t, std::uint32_t first) { return first; }
};

// A miss's code is returned but not stored in the cache.
struct MissNotCached : memtrace::NoFaults {
  static constexpr std::string_view kName = "miss_not_cached";
  static constexpr bool kMissStores = false;
};

// --- Location frames (48-bit word: line 20, start_char 8, end_char 10, 2 MTF 5) ---

// start_char and end_char swapped.
struct StartEndSwapped : memtrace::NoFaults {
  static constexpr std::string_view kName = "start_end_swapped";
  static OcamlInt StartChar(OcamlInt, std::uint64_t word) {
    return static_cast<OcamlInt>((word >> memtrace::kEndCharShift) & memtrace::kEndCharMax);
  }
  static OcamlInt EndChar(OcamlInt, std::uint64_t word) {
    return static_cast<OcamlInt>((word >> memtrace::kStartCharShift) & memtrace::kStartCharMax);
  }
};

// The line read in 16 bits.
struct Line16Bits : memtrace::NoFaults {
  static constexpr std::string_view kName = "line_16_bits";
  static OcamlInt Line(OcamlInt line, std::uint64_t) { return line & 0xffff; }
};

// end_char read in 8 bits, like start_char.
struct EndChar8Bits : memtrace::NoFaults {
  static constexpr std::string_view kName = "end_char_8_bits";
  static OcamlInt EndChar(OcamlInt end, std::uint64_t) { return end & 0xff; }
};

// A filename hit is not moved to the front of its table.
struct FilenameNotMovedToFront : memtrace::NoFaults {
  static constexpr std::string_view kName = "filename_not_moved_to_front";
  template <class Table>
  static auto& FileHit(Table& files, int ix) {
    return const_cast<typename Table::Entry&>(files.at(ix));
  }
};

// A defname hit is not moved to the front of its table.
struct DefnameNotMovedToFront : memtrace::NoFaults {
  static constexpr std::string_view kName = "defname_not_moved_to_front";
  template <class Table>
  static auto& DefnameHit(Table& defs, int ix) {
    return const_cast<typename Table::Entry&>(defs.at(ix));
  }
};

// A new filename evicting the last of 31 does not take over its defname table (it gets
// table 0's).
struct EvictionDropsDefnames : memtrace::NoFaults {
  static constexpr std::string_view kName = "eviction_drops_defnames";
  static constexpr bool kEvictionKeepsDefnames = false;
};

using Mutants = std::tuple<
    VintFdOneByte, VintFeUnsigned, VintFdFeSwapped, VintFfFourBytes, ShortAllocLengthOffByOne,
    ShortAllocNoSample, NsamplesIgnored, SourceMinorMajorSwapped, SourceExternalAsMajor,
    CommonPrefixOffByOne, CommonPrefixIgnored, LongSuffixOneByte, TimeNoWrap, TimeBaseIgnored,
    DeltaIdOffByOne, NegativeCollectRefused, V3AllocIdsContinue, PacketSizeInBytes, ForeignPidRead,
    DomainsShareState, EventDomainIsInitial, VerifierIgnored, SampleRateFloat32, ContextFromV3,
    ContextInV1, WordSizeU16, BucketShiftOne, Bucket13Bits, HitTagsSwapped, HitN7Bits,
    PredictionNotUpdated, MissNotPredicted, MissNotCached, StartEndSwapped, Line16Bits,
    EndChar8Bits, FilenameNotMovedToFront, DefnameNotMovedToFront, VintFcIsPrefix, StartTimeFromEnd,
    RunEndIsFirst, EvictionDropsDefnames>;

// --- Mutants the corpus does not catch yet (gaps; mutants_test prints their status) ---
using UncaughtMutants = std::tuple<>;

// --- Equivalent mutants: no input tells them from the correct reader ---

// v1/v2 packets start at their header's alloc_id_begin instead of the stream's running
// id. Equivalent: a v1/v2 packet whose alloc_id_begin differs from the running id does
// not continue the stream and is skipped before any of its events is read (LoadPacket),
// so every packet read has both equal.
struct LegacyAllocIdFromHeader : SlowReader {
  static constexpr std::string_view kName = "legacy_alloc_id_from_header";
  static OcamlInt LegacyAllocIdBegin(OcamlInt, OcamlInt begin) { return begin; }
};

// A new filename pushed into a table that is not full keeps the defnames its table
// slot had. Equivalent: while the table is not full, the n-th new filename gets defname
// table n - 1, which no filename had before (tables are handed out in order, and once
// the table is full no filename takes this path again), so that table is still empty.
struct NewFileKeepsDefnames : memtrace::NoFaults {
  static constexpr std::string_view kName = "new_file_keeps_defnames";
  static constexpr bool kClearsNewFileDefnames = false;
};

using EquivalentMutants = std::tuple<LegacyAllocIdFromHeader, NewFileKeepsDefnames>;

}  // namespace mpo::corpus::memtrace_mutants
