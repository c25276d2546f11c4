// The runtime events ring protocol, once, for every platform: the producer's write path
// and the consumer's poll of one domain's ring. Production instantiates it with
// StdPlatform over the mapped file (mapped_ring.h); models/ring instantiates it with
// RelacyPlatform over a 16-64 word ring and checks it.
//
// A Ring (the storage of one domain) provides:
//   std::uint64_t SizeWords() const;                      // a power of two, >= 4
//   std::uint64_t LoadWord(std::uint64_t i, MemoryOrder) const;   // i < SizeWords()
//   void StoreWord(std::uint64_t i, std::uint64_t v, MemoryOrder);
//   std::uint64_t LoadHead(MemoryOrder) const;  void StoreHead(std::uint64_t, MemoryOrder);
//   std::uint64_t LoadTail(MemoryOrder) const;  void StoreTail(std::uint64_t, MemoryOrder);
// Data words are accessed as relaxed atomics: the consumer races with the producer by
// design and detects overwrites afterwards (a sequence lock where head is the sequence).
//
// Synchronisation (the pairs named here are the whole argument):
//  * producer tail store (release)  ->  consumer tail load (acquire): the words of every
//    event below tail are visible to a consumer that saw tail.
//  * producer head store, then a release fence, then the overwriting data stores  ->
//    consumer copies data, acquire fence, re-loads head: if any copied word was written
//    after a head advance past it, the re-load sees that advance (fence-fence
//    synchronisation), so an overwritten message is reported lost, never delivered. This
//    is the fence OCaml added in PR #15016; it runs only when a write frees space.
//  * the consumer validates a copied batch of messages with one fence and one re-load
//    of head: no copied word lies below the re-loaded head, so none was overwritten.
//    OCaml validates every message on its own; a batch of one message is exactly that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/ring/layout.h"
#include "core/sync/memory_order.h"

namespace mpo::ring {

using sync::MemoryOrder;

// The memory orders and checks of the protocol: a fault policy (core/base/faults.h),
// here rather than in faults.h so that models/ring needs this target alone. Models
// substitute one broken choice at a time (a mutant) and must see it caught.
struct ProtocolNoFaults {
  static constexpr MemoryOrder kHeadStore = MemoryOrder::kRelease;
  static constexpr MemoryOrder kTailStore = MemoryOrder::kRelease;
  static constexpr bool kProducerFence = true;
  static constexpr bool kRecheckHead = true;
  // Acquire suffices (models/ring proves it); OCaml's consumer uses seq_cst, which
  // costs a full barrier per message on x86.
  static constexpr MemoryOrder kConsumerFence = MemoryOrder::kAcquire;
};

enum class WriteOutcome : std::uint8_t {
  kWritten,
  kTooLarge,     // more than half the ring (or the 10-bit length): OCaml loops forever
  kCorruptRing,  // our own ring's headers do not chain (someone else wrote into it)
};

// Appends one event (header, timestamp, payload) to `ring`, overwriting the oldest events
// when needed. Single writer per ring; wait-free: at most one pass over the ring.
template <class P, class Protocol = ProtocolNoFaults, class Ring>
[[gnu::always_inline]] inline WriteOutcome WriteEvent(Ring& ring, bool user, unsigned type,
                                                      unsigned id, std::uint64_t timestamp,
                                                      std::span<const std::uint64_t> payload) {
  const std::uint64_t size = ring.SizeWords();
  const std::uint64_t mask = size - 1;
  const std::uint64_t length = payload.size() + 2;
  if (length > header::kMaxLength || length > size / 2) return WriteOutcome::kTooLarge;

  // Only this thread stores head and tail, so it reads its own last values.
  std::uint64_t head = ring.LoadHead(MemoryOrder::kRelaxed);
  std::uint64_t tail = ring.LoadTail(MemoryOrder::kRelaxed);
  // Only a foreign write into the mapped file breaks this; never loop on it.
  if (head > tail || tail - head >= size) return WriteOutcome::kCorruptRing;
  std::uint64_t offset = tail & mask;
  const std::uint64_t to_end = size - offset;
  // An event never straddles the end: pad to the end and start again at word 0.
  const std::uint64_t padding = to_end < length ? to_end : 0;

  // length + padding < size, so this stops at the latest when head reaches tail.
  bool freed = false;
  while (tail + length + padding - head >= size) {
    const std::uint64_t oldest = header::Length(ring.LoadWord(head & mask, MemoryOrder::kRelaxed));
    if (oldest == 0 || oldest > tail - head) return WriteOutcome::kCorruptRing;
    head += oldest;
    ring.StoreHead(head, Protocol::kHeadStore);
    freed = true;
  }
  if (Protocol::kProducerFence && freed) P::Fence(MemoryOrder::kRelease);

  if (padding != 0) {
    ring.StoreWord(offset, header::Padding(padding), MemoryOrder::kRelaxed);
    tail += padding;
    ring.StoreTail(tail, Protocol::kTailStore);
    offset = 0;
  }
  ring.StoreWord(offset, header::Make(length, user, type, id), MemoryOrder::kRelaxed);
  ring.StoreWord(offset + 1, timestamp, MemoryOrder::kRelaxed);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    ring.StoreWord(offset + 2 + i, payload[i], MemoryOrder::kRelaxed);
  }
  ring.StoreTail(tail + length, Protocol::kTailStore);
  return WriteOutcome::kWritten;
}

// What a reader's sink answers for each delivered message.
enum class SinkAction : std::uint8_t { kContinue, kStop, kCorrupt };

enum class ReadStatus : std::uint8_t {
  kDrained,  // reached the tail seen when the visit started
  kBudget,   // delivered `max_events`
  kStopped,  // a callback returned false
  kCorrupt,  // the ring's contents cannot be a valid producer's (position in `at`)
};

struct ReadResult {
  ReadStatus status = ReadStatus::kDrained;
  std::uint64_t consumed = 0;       // events counted as OCaml does (header::IsCounted)
  std::uint64_t at = 0;             // the ring position of a corrupt message
  std::uint64_t padding_words = 0;  // padding skipped (for word accounting)
  bool lapped_too_far = false;      // kCorrupt because of ReadRules::max_lap_words
};

// The checks a reader makes on a ring's positions. The defaults are the oracle's
// (strict); OCaml 5.3's consumer makes neither check (RingRules of the ocaml-5.3 mode).
struct ReadRules {
  // A message must end at or before the tail (OCaml only requires it to end before the
  // ring's physical end, and then resumes past the tail).
  bool message_within_tail = true;
  // The tail may not be more than a ring ahead of the read position: only words that a
  // producer overwrote can lie there. Without this check the ring is re-read, lap after
  // lap, as OCaml does, for at most `max_lap_words` beyond the first lap (OCaml reads on
  // up to the tail, which can be 2^63 words away: it never ends).
  bool tail_within_lap = true;
  std::uint64_t max_lap_words = std::uint64_t{1} << 16;
};

// Scratch space for one batch of copied messages; `words` must hold at least
// kMaxMessageWords (one message of any length).
struct ReadBuffer {
  std::span<std::uint64_t> words;
  std::size_t max_batch_messages = 1;  // 1 = OCaml's algorithm (one fence per message)
};

// Delivers the messages of one ring from `*position` up to the tail read at entry.
// Sink: SinkAction Message(std::uint64_t position, std::span<const std::uint64_t> words)
//       (words = header, timestamp, payload) and bool Lost(std::uint64_t words).
// A kStop leaves *position at the refused message (it is delivered again next time).
// `rules` relaxes the checks for a reference's verdicts; a ring whose SizeWords() is not a
// power of two is then read as OCaml does (position & (size - 1), always in bounds).
template <class P, class Protocol = ProtocolNoFaults, class Ring, class Sink>
ReadResult ReadRing(const Ring& ring, std::uint64_t* position, Sink& sink, std::uint64_t max_events,
                    ReadBuffer buffer, ReadRules rules = {}) {
  ReadResult result;
  const std::uint64_t size = ring.SizeWords();
  const std::uint64_t mask = size - 1;
  std::uint64_t pos = *position;
  std::uint64_t head = ring.LoadHead(MemoryOrder::kAcquire);
  const std::uint64_t tail = ring.LoadTail(MemoryOrder::kAcquire);
  // The tail is read once: a poll ends even if the producer never stops.
  auto finish = [&](ReadStatus s) {
    *position = pos;
    result.status = s;
    return result;
  };
  if (head > pos) {
    if (!sink.Lost(head - pos)) return finish(ReadStatus::kStopped);
    pos = head;
  }
  const std::uint64_t visit_start = pos;  // words read beyond it count toward max_lap_words
  constexpr std::size_t kMaxBatch = 64;
  // Message lengths of the batch, so that delivery does not wait on re-reading headers.
  std::uint16_t lengths[kMaxBatch];
  const std::size_t batch_cap = buffer.max_batch_messages < kMaxBatch
                                    ? (buffer.max_batch_messages ? buffer.max_batch_messages : 1)
                                    : kMaxBatch;
  while (pos < tail) {
    if (max_events != 0 && result.consumed >= max_events) return finish(ReadStatus::kBudget);
    // Copy a batch of whole messages without looking at their meaning.
    std::size_t count = 0;
    std::size_t used = 0;
    std::uint64_t next = pos;
    std::uint64_t events_in_batch = 0;
    // Only a lap by the producer explains this.
    bool suspicious = rules.tail_within_lap && tail - pos > size;
    if (!rules.tail_within_lap && pos - visit_start > size + rules.max_lap_words) {
      result.lapped_too_far = true;
      result.at = pos;
      return finish(ReadStatus::kCorrupt);
    }
    while (!suspicious && next < tail && count < batch_cap &&
           (max_events == 0 || result.consumed + events_in_batch < max_events)) {
      const std::uint64_t offset = next & mask;
      const std::uint64_t h = ring.LoadWord(offset, MemoryOrder::kRelaxed);
      const std::uint64_t length = header::Length(h);
      if (length == 0 || offset + length > size ||
          (rules.message_within_tail && length > tail - next) ||
          (length < 2 && !header::IsPadding(h))) {
        suspicious = count == 0;  // decided after the head re-check below
        break;
      }
      if (used + length > buffer.words.size()) {
        suspicious = count == 0;  // precondition broken: the buffer holds no message
        break;
      }
      buffer.words[used] = h;
      for (std::uint64_t i = 1; i < length; ++i) {
        buffer.words[used + i] = ring.LoadWord(offset + i, MemoryOrder::kRelaxed);
      }
      lengths[count++] = static_cast<std::uint16_t>(length);
      used += length;
      next += length;
      if (header::IsCounted(h)) ++events_in_batch;
    }
    if (Protocol::kRecheckHead) {
      P::Fence(Protocol::kConsumerFence);
      head = ring.LoadHead(MemoryOrder::kAcquire);
      if (head > pos) {
        // Some copied words may have been overwritten: drop the batch, resume at head.
        const std::uint64_t lost = head - pos;
        pos = head;
        if (!sink.Lost(lost)) return finish(ReadStatus::kStopped);
        continue;
      }
    }
    if (suspicious) {
      result.at = pos;
      return finish(ReadStatus::kCorrupt);
    }
    // The batch is contiguous in the ring and in the buffer: message i starts at
    // pos + its buffer offset.
    const std::uint64_t batch_start = pos;
    std::size_t off = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t length = lengths[i];
      const std::span<const std::uint64_t> words(buffer.words.data() + off, length);
      if (header::IsPadding(words[0])) {
        result.padding_words += length;
      } else {
        switch (sink.Message(batch_start + off, words)) {
          case SinkAction::kContinue: break;
          case SinkAction::kStop: return finish(ReadStatus::kStopped);
          case SinkAction::kCorrupt:
            result.at = batch_start + off;
            return finish(ReadStatus::kCorrupt);
        }
        if (header::IsCounted(words[0])) ++result.consumed;
      }
      off += length;
      pos = batch_start + off;
    }
  }
  return finish(ReadStatus::kDrained);
}

}  // namespace mpo::ring
