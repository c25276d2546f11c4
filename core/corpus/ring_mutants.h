// Deliberately broken runtime events consumers ("mutants"): each is a fault policy
// (core/ring/faults.h) replacing one step of NoFaults with a realistic consumer bug.
// ring_mutants_test decodes every ring case of the corpus with each and requires each to
// be caught by some case (README.md, "How strong the corpus is"). Tests only.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <tuple>

#include "core/ring/cursor.h"
#include "core/ring/faults.h"
#include "core/ring/layout.h"
#include "core/ring/placement.h"

namespace mpo::corpus::ring_mutants {

using ring::DomainPlace;
using ring::MetadataHeader;
using ring::NoFaults;
namespace header = ring::header;

// --- Header word fields (length 63..54, user 53, type 52..49, id 48..36) ---

// The id read from bit 35 (its offset one too low).
struct IdShift35 : NoFaults {
  static constexpr std::string_view kName = "id_shift_35";
  static unsigned Id(std::uint64_t h) { return (h >> 35) & header::kIdMask; }
};

// The id kept to 12 bits (a 4096-slot name table).
struct Id12Bits : NoFaults {
  static constexpr std::string_view kName = "id_12_bits";
  static unsigned Id(std::uint64_t h) { return (h >> header::kIdShift) & 0xfff; }
};

// The user bit read at bit 52 (the type field's top bit): every user event read as a
// runtime event.
struct UserBit52 : NoFaults {
  static constexpr std::string_view kName = "user_bit_52";
  static bool IsUser(std::uint64_t h) { return (h >> 52) & 1; }
};

// The type read from bits 53..50 (its offset one too high: the user bit in, bit 49 out).
struct TypeShift50 : NoFaults {
  static constexpr std::string_view kName = "type_shift_50";
  static unsigned Type(std::uint64_t h) { return (h >> 50) & header::kTypeMask; }
};

// The type kept to 3 bits. Producers write types 0..6, so only a hostile type 8..15
// tells it apart (a runtime type 9 is counted but not delivered; read as 1 it is a
// lifecycle event).
struct Type3Bits : NoFaults {
  static constexpr std::string_view kName = "type_3_bits";
  static unsigned Type(std::uint64_t h) { return (h >> header::kTypeShift) & 7; }
};

// --- Message words ---

// The timestamp's 32-bit halves swapped (read as two u32 in the wrong order).
struct TimestampHalvesSwapped : NoFaults {
  static constexpr std::string_view kName = "timestamp_halves_swapped";
  static std::uint64_t Timestamp(std::uint64_t ts) { return (ts << 32) | (ts >> 32); }
};

// The alloc histogram read from the timestamp word on (one word early).
struct AllocBucketsFromTimestamp : NoFaults {
  static constexpr std::string_view kName = "alloc_buckets_from_timestamp";
  static std::span<const std::uint64_t> AllocBuckets(std::span<const std::uint64_t> w) {
    return w.subspan(1, ring::kAllocBuckets);
  }
};

// A lifecycle event's data word read only beyond 3 words (off by one: always 0).
struct LifecycleDataOffByOne : NoFaults {
  static constexpr std::string_view kName = "lifecycle_data_off_by_one";
  static bool LifecycleHasData(std::size_t words) { return words > 3; }
};

// --- Custom payloads (the last byte counts the padding bytes before it) ---

// The payload words as the correct decoding of `bytes` gives them: how a mutant of the
// pad count (decoded by the views) presents the bytes its consumer would deliver.
// `bytes` holds at most kMaxCustomPayloadBytes.
inline std::span<const std::uint64_t> PayloadOf(std::string_view bytes) {
  static thread_local std::array<std::uint64_t, ring::kMaxCustomPayloadWords> words;
  const std::size_t n = bytes.size() / 8 + 1;
  words.fill(0);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  const std::size_t pad = n * 8 - 1 - bytes.size();
  reinterpret_cast<unsigned char*>(words.data())[n * 8 - 1] = static_cast<unsigned char>(pad);
  return std::span<const std::uint64_t>(words.data(), n);
}

// The payload's bytes (`w` header, timestamp, payload), ignoring a broken pad count as
// the correct consumer refuses it: then the payload is delivered as it is.
inline std::string_view PayloadBytes(std::span<const std::uint64_t> w) {
  return std::string_view(reinterpret_cast<const char*>(w.data() + 2), 8 * (w.size() - 2));
}

// The pad count ignored: every byte before the pad-count byte is payload.
struct PadCountIgnored : NoFaults {
  static constexpr std::string_view kName = "pad_count_ignored";
  static std::span<const std::uint64_t> CustomPayload(std::span<const std::uint64_t> w) {
    if (w.size() <= 2) return w.subspan(2);
    const std::string_view all = PayloadBytes(w);
    return PayloadOf(all.substr(0, all.size() - 1));
  }
};

// The pad count read from the last word's low byte (`payload.back() & 0xff`: its first
// byte in memory), not its last.
struct PadCountLowByte : NoFaults {
  static constexpr std::string_view kName = "pad_count_low_byte";
  static std::span<const std::uint64_t> CustomPayload(std::span<const std::uint64_t> w) {
    if (w.size() <= 2) return w.subspan(2);
    const std::string_view all = PayloadBytes(w);
    const std::size_t pad = static_cast<unsigned char>(all[all.size() - 8]);
    if (pad > all.size() - 1) return w.subspan(2);  // refused, as the correct consumer would
    return PayloadOf(all.substr(0, all.size() - 1 - pad));
  }
};

// The payload taken one word short (its length counted as the header's minus 3).
struct CustomPayloadWordShort : NoFaults {
  static constexpr std::string_view kName = "custom_payload_word_short";
  static std::span<const std::uint64_t> CustomPayload(std::span<const std::uint64_t> w) {
    return w.size() > 2 ? w.subspan(2, w.size() - 3) : w.subspan(2);
  }
};

// --- User event names ---

// The name read from the next slot (slots counted from 1).
struct NameSlotOffByOne : NoFaults {
  static constexpr std::string_view kName = "name_slot_off_by_one";
  static unsigned NameSlot(unsigned id) { return id + 1; }
};

// --- Lost words ---

// Lost words reported in bytes (8 per word, as ring_size_bytes counts).
struct LostWordsInBytes : NoFaults {
  static constexpr std::string_view kName = "lost_words_in_bytes";
  static std::uint64_t LostWords(std::uint64_t words) { return words * 8; }
};

// Lost words kept in a C int in every mode (OCaml 5.3's verdict, not the strict one).
struct LostWordsCInt : NoFaults {
  static constexpr std::string_view kName = "lost_words_c_int";
  static std::uint64_t LostWords(std::uint64_t words) { return ring::OcamlLostWords(words); }
};

// --- Ring geometry (metadata header) ---

// The ring-size mask one bit short: positions wrap at half the ring.
struct RingMaskHalf : NoFaults {
  static constexpr std::string_view kName = "ring_mask_half";
  static std::uint64_t RingWords(const MetadataHeader& m) { return m.ring_size_elements / 2; }
};

// Domain d's ring data at data_offset + d * ring_size_elements (words taken for bytes).
struct DataStrideInWords : NoFaults {
  static constexpr std::string_view kName = "data_stride_in_words";
  static DomainPlace Place(DomainPlace p, const MetadataHeader& m, std::uint64_t d,
                           std::uint64_t /*file_size*/) {
    // Never past the correct place, which lies inside the file.
    p.data = m.data_offset + d * m.ring_size_elements;
    return p;
  }
};

// Domain d's ring header at headers_offset + d * 16 (head and tail only: the 64 bytes of
// cache-line padding after them forgotten).
struct HeaderStride16 : NoFaults {
  static constexpr std::string_view kName = "header_stride_16";
  static DomainPlace Place(DomainPlace p, const MetadataHeader& m, std::uint64_t d,
                           std::uint64_t /*file_size*/) {
    p.header = m.headers_offset + d * 16;  // before the correct place, inside the file
    return p;
  }
};

// Domain d's ring data found from ring_size_bytes at the ring header's place (data
// offset confused with the headers' end: headers_offset + max_domains * 16).
struct DataAfterPackedHeaders : NoFaults {
  static constexpr std::string_view kName = "data_after_packed_headers";
  static DomainPlace Place(DomainPlace p, const MetadataHeader& m, std::uint64_t d,
                           std::uint64_t /*file_size*/) {
    p.data = m.headers_offset + m.max_domains * 16 + d * m.ring_size_bytes;
    return p;
  }
};

// --- Ring index ---

// Rings numbered from 1.
struct RingIndexOneBased : NoFaults {
  static constexpr std::string_view kName = "ring_index_one_based";
  static std::uint32_t RingIndex(std::uint64_t d, std::uint64_t) {
    return static_cast<std::uint32_t>(d + 1);
  }
};

// Equivalent: the ring index taken from the poll's loop counter `i` instead of the
// domain `(start + i) % max_domains`. The corpus decodes with a fresh cursor, whose
// first poll starts at domain 0 (so i = d) and reads every ring to its tail; the second
// poll (json_view's PollAll) finds nothing to deliver. No file can tell them apart.
struct RingIndexOfLoopCounter : NoFaults {
  static constexpr std::string_view kName = "ring_index_of_loop_counter";
  static std::uint32_t RingIndex(std::uint64_t, std::uint64_t i) {
    return static_cast<std::uint32_t>(i);
  }
};

using Mutants =
    std::tuple<IdShift35, UserBit52, TypeShift50, TimestampHalvesSwapped, AllocBucketsFromTimestamp,
               LifecycleDataOffByOne, PadCountIgnored, PadCountLowByte, CustomPayloadWordShort,
               NameSlotOffByOne, LostWordsInBytes, LostWordsCInt, RingMaskHalf, DataStrideInWords,
               HeaderStride16, DataAfterPackedHeaders, RingIndexOneBased, Id12Bits, Type3Bits>;

// Known gaps (mutants no ring case catches yet).
using UncaughtMutants = std::tuple<>;

using EquivalentMutants = std::tuple<RingIndexOfLoopCounter>;

}  // namespace mpo::corpus::ring_mutants
