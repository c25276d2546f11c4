// The ring consumer's test seam: a fault policy (the convention: core/base/faults.h).
// Cursor::ReadPollWith<Faults> (cursor_impl.h) calls the steps below where a consumer bug would
// hide: the header word's fields, the message words the decoder hands on, the name slot, lost
// words, and where each domain's ring lies. The default, NoFaults, is the correct consumer: every
// step returns what the cursor already computed, so it inlines away and Cursor::ReadPoll
// (ReadPollWith<NoFaults>, instantiated once in cursor.cc) compiles to the code it compiled to
// before. Deliberately broken consumers ("mutants", core/corpus/ring_mutants.h) replace one step
// each, in a test-only instantiation, so that the conformance corpus can be shown to catch them.
//
// Not here: the poll of one ring (ring_protocol.h: message lengths, padding, the head
// re-check), whose memory orders and checks are the policy ProtocolNoFaults there, in
// the target models/ring builds alone, and which models/ring holds against its own
// mutants; this seam only reaches it through the ring geometry it is given (RingWords,
// Place).
//
// The custom payload's pad count is decoded by the views (DecodeCustomPayload); a mutant
// of it presents the payload words that make the correct decoding give the buggy
// consumer's bytes.
#pragma once

#include <cstdint>
#include <span>

#include "core/ring/layout.h"
#include "core/ring/placement.h"

namespace mpo::ring {

struct NoFaults {
  // Header word fields of a delivered (not padding) message.
  static bool IsUser(std::uint64_t h) { return header::IsUser(h); }
  static unsigned Type(std::uint64_t h) { return header::Type(h); }
  static unsigned Id(std::uint64_t h) { return header::Id(h); }
  // The timestamp word (the message's second).
  static std::uint64_t Timestamp(std::uint64_t ts) { return ts; }
  // The 20 histogram words of an alloc message `w` (header, timestamp, buckets).
  static std::span<const std::uint64_t> AllocBuckets(std::span<const std::uint64_t> w) {
    return w.subspan(2, kAllocBuckets);
  }
  // Whether a lifecycle message of `words` words carries a data word.
  static bool LifecycleHasData(std::size_t words) { return words > 2; }
  // The payload words of a custom message `w` (at most kMaxCustomPayloadWords, checked).
  static std::span<const std::uint64_t> CustomPayload(std::span<const std::uint64_t> w) {
    return w.subspan(2);
  }
  // The name slot a user event `id` reads.
  static unsigned NameSlot(unsigned id) { return id; }
  // Words lost (head beyond the read position), before the verdict's conversion.
  static std::uint64_t LostWords(std::uint64_t words) { return words; }
  // The ring size (words) the poll of a ring uses, from the validated metadata header.
  static std::uint64_t RingWords(const MetadataHeader& m) { return m.ring_size_elements; }
  // Where domain `d`'s header and data lie (`place`, checked against the file's size).
  static DomainPlace Place(DomainPlace place, const MetadataHeader& /*m*/, std::uint64_t /*d*/,
                           std::uint64_t /*file_size*/) {
    return place;
  }
  // The ring index events of domain `d` report, `i` rings into the poll.
  static std::uint32_t RingIndex(std::uint64_t d, std::uint64_t /*i*/) {
    return static_cast<std::uint32_t>(d);
  }
};

}  // namespace mpo::ring
