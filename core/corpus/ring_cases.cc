// Runtime events cases: ring files written by our producer with a fixed pid and a
// counting clock (so the bytes never depend on the machine), read by the corpus as files.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>

#include "core/corpus/cases.h"
#include "core/ring/layout.h"
#include "core/ring/producer.h"

namespace mpo::corpus {
namespace {

using ring::Lifecycle;

constexpr std::int64_t kPid = 777;

// Starts a producer in `dir`, runs `body`, stops it and returns the file's bytes.
Result<std::vector<std::uint8_t>> WriteRing(
    const std::string& dir, unsigned log2_words, std::uint64_t max_domains,
    const std::function<Status(ring::RuntimeEvents&)>& body) {
  ring::ProducerOptions o;
  o.dir = dir;
  o.ring_log2_words = log2_words;
  o.max_domains = max_domains;
  o.preserve = true;
  o.pid = kPid;
  auto tick = std::make_shared<std::uint64_t>(1000);
  o.clock = [tick] { return *tick += 17; };
  ring::RuntimeEvents re(o);
  MPO_RETURN_IF_ERROR(re.Start(0));
  const std::string path = re.path();
  MPO_RETURN_IF_ERROR(body(re));
  MPO_RETURN_IF_ERROR(re.Stop(0));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kIo, "cannot reopen " + path).WithField("corpus ring");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  ::unlink(path.c_str());
  return bytes;
}

void PutWord(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t w) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(w >> (8 * i));
}

std::uint64_t GetWord(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w |= std::uint64_t{b[at + i]} << (8 * i);
  return w;
}

// The byte offset of the first event of ring `r` (not wrapped) whose header satisfies
// `match`; 0 if none.
std::size_t FindEvent(const std::vector<std::uint8_t>& b, const ring::FileGeometry& g,
                      std::uint64_t r, const std::function<bool(std::uint64_t)>& match) {
  const std::uint64_t data = g.DataOffset() + r * g.ring_words * 8;
  const std::uint64_t tail =
      GetWord(b, g.HeadersOffset() + r * ring::kRingHeaderBytes + 8 * ring::kRingTailWord);
  for (std::uint64_t pos = 0; pos < tail && pos < g.ring_words;) {
    const std::uint64_t h = GetWord(b, data + 8 * pos);
    if (match(h)) return data + 8 * pos;
    if (ring::header::Length(h) == 0) break;
    pos += ring::header::Length(h);
  }
  return 0;
}

// Inserts word `w` at byte `at` of ring `r` (not wrapped), moving the words after it up to
// the tail one word on and the tail with them.
void InsertWord(std::vector<std::uint8_t>& b, const ring::FileGeometry& g, std::uint64_t r,
                std::size_t at, std::uint64_t w) {
  const std::size_t tail_at =
      g.HeadersOffset() + r * ring::kRingHeaderBytes + 8 * ring::kRingTailWord;
  const std::uint64_t tail = GetWord(b, tail_at);
  const std::size_t end = g.DataOffset() + r * g.ring_words * 8 + 8 * tail;
  for (std::size_t p = end; p > at; p -= 8) PutWord(b, p, GetWord(b, p - 8));
  PutWord(b, at, w);
  PutWord(b, tail_at, tail + 1);
}

// Cases on which OCaml 5.3's consumer is more lenient than the oracle's strict checks, or
// crashes, loops or reads out of bounds (conformance/VERDICTS.md): each class of
// malformed file once, made from `every` (2 domains of 2^12 words) and `wrap` (2 domains
// of 64 words, written past their size).
void AddVerdictCases(
    const std::vector<std::uint8_t>& every, const std::vector<std::uint8_t>& wrap,
    const std::function<void(const std::string&, std::string, const std::vector<std::uint8_t>&,
                             std::vector<DeclaredDifference>)>& add) {
  const ring::FileGeometry g{2, 1u << 12};
  const ring::FileGeometry gw{2, 64};
  auto with = [](std::vector<std::uint8_t> b, std::size_t at, std::uint64_t w) {
    PutWord(b, at, w);
    return b;
  };
  auto meta = [&](ring::MetadataWord word, std::uint64_t w) { return with(every, 8 * word, w); };
  const std::size_t head0 = g.HeadersOffset() + 8 * ring::kRingHeadWord;

  add("max_domains_zero", "metadata max_domains 0: OCaml 5.3 reads no ring",
      meta(ring::kMaxDomainsWord, 0), {});
  add("max_domains_above_limit", "malformed: metadata max_domains 4097 (above OCaml's 4096)",
      meta(ring::kMaxDomainsWord, 4097), {});
  add("domain_beyond_file",
      "metadata max_domains 40: OCaml 5.3 reads the rings that lie in the file, then "
      "E_CORRUPT_STREAM at the first that does not",
      meta(ring::kMaxDomainsWord, 40), {});
  std::vector<std::uint8_t> odd = meta(ring::kRingSizeElementsWord, 3000);
  PutWord(odd, 8 * ring::kRingSizeBytesWord, std::uint64_t{3000} * 8);
  add("ring_size_not_power_of_two",
      "rings of 3000 words: OCaml 5.3 reads position & 2999, until a header does not fit", odd, {});
  add("ring_size_bytes_mismatch", "malformed: ring_size_bytes != 8 * ring_size_elements",
      meta(ring::kRingSizeBytesWord, std::uint64_t{8} * 4095), {});
  add("ring_header_size_not_multiple_of_8",
      "ring headers 84 bytes apart: OCaml 5.3 reads ring 1's head and tail unaligned",
      meta(ring::kRingHeaderSizeWord, 84), {});
  add("ring_header_size_zero",
      "ring headers 0 bytes apart: OCaml 5.3 reads every ring with ring 0's head and tail",
      meta(ring::kRingHeaderSizeWord, 0), {});
  add("headers_offset_unaligned",
      "ring headers at byte 65: unaligned head and tail (ring 0's head reads as a multiple of "
      "2^32 lost words, which OCaml's C int reports as 0)",
      meta(ring::kHeadersOffsetWord, g.HeadersOffset() + 1), {});
  add("data_offset_unaligned", "ring data at byte 225: OCaml 5.3 reads unaligned words",
      meta(ring::kDataOffsetWord, g.DataOffset() + 1), {});
  add("names_beyond_file",
      "custom_events_offset past the file: OCaml 5.3 fails at the first user event",
      meta(ring::kCustomEventsOffsetWord, every.size() + 8), {});
  add("truncated_in_ring",
      "file cut inside ring 1's data: OCaml 5.3 reads ring 0 up to its first user event "
      "(whose name slot is gone)",
      std::vector<std::uint8_t>(every.begin(), every.begin() + g.DataOffset() + 32768 + 1000), {});
  add("lost_words_as_c_int", "ring 0's head at 2^32 + 5: OCaml 5.3 reports 5 lost words (a C int)",
      with(every, head0, (std::uint64_t{1} << 32) + 5), {});
  add("lost_words_negative_c_int",
      "ring 0's head at 2^31: OCaml 5.3 reports -2147483648 lost words (a C int)",
      with(every, head0, std::uint64_t{1} << 31), {});
  const std::size_t wrap_tail0 = gw.HeadersOffset() + 8 * ring::kRingTailWord;
  add("tail_past_a_lap",
      "ring 0's tail 200 words further: OCaml 5.3 re-reads the ring's old words as events",
      with(wrap, wrap_tail0, GetWord(wrap, wrap_tail0) + 200), {});

  add("declared_tail_laps_without_end",
      "ring 0's tail 2^40 words further on a ring whose events chain round it",
      with(wrap, wrap_tail0, GetWord(wrap, wrap_tail0) + (std::uint64_t{1} << 40)),
      {{Verdicts::kOcaml53, "re-reads the ring for 2^40 words: does not end",
        "a reader must end; the oracle re-reads at most 2^16 words beyond a lap, then "
        "E_CORRUPT_STREAM"}});
  // Slot 3 (custom "corpus.custom") renamed "corpus.unit", the name of unit event 0.
  std::vector<std::uint8_t> renamed = every;
  std::copy_n(every.begin() + static_cast<std::ptrdiff_t>(g.CustomEventsOffset()),
              ring::kUserEventNameBytes,
              renamed.begin() + static_cast<std::ptrdiff_t>(g.CustomEventsOffset() +
                                                            3 * ring::kUserEventNameBytes));
  add("declared_user_type_changes_under_name",
      "a custom user event under the name of an earlier unit user event", renamed,
      {{Verdicts::kOcaml53, "segfaults (delivers the event through the first type's callbacks)",
        "a crash is never copied: the oracle delivers each event by its own type"}});
  const std::size_t unit = FindEvent(every, g, 0, [](std::uint64_t h) {
    return ring::header::IsUser(h) && ring::header::Type(h) == 0;
  });
  if (unit != 0) {
    std::vector<std::uint8_t> one = every;
    PutWord(one, unit, ring::header::Make(1, true, 0, ring::header::Id(GetWord(every, unit))));
    add("declared_user_unit_length_one", "a user unit event of length 1 (no timestamp word)", one,
        {{Verdicts::kOcaml53,
          "delivers it with a timestamp from uninitialised memory, then E_CORRUPT_STREAM",
          "reading uninitialised memory is never copied: E_CORRUPT_STREAM at the event"}});
  }
  const std::size_t custom = FindEvent(every, g, 0, [](std::uint64_t h) {
    return ring::header::IsUser(h) && ring::header::Type(h) == 4;
  });
  if (custom != 0) {
    std::vector<std::uint8_t> pad = every;
    // The payload's last byte counts the padding bytes before it: more than it has.
    const std::size_t last = custom + 8 * ring::header::Length(GetWord(every, custom)) - 1;
    pad[last] = 200;
    add("declared_custom_pad_count_past_payload",
        "a custom user event whose pad count exceeds its payload", pad,
        {{Verdicts::kOcaml53,
          "reads the pad count as a signed char: 200 delivers 63 bytes, read past the payload "
          "from stale memory (8 to 127 give a negative length: the program dies)",
          "reading past the message is never copied: the stream ends with the payload "
          "error"}});
  }
  const std::size_t alloc = FindEvent(every, g, 1, [](std::uint64_t h) {
    return !ring::header::IsUser(h) && ring::header::Type(h) == 5;
  });
  if (alloc != 0) {
    const std::uint64_t h = GetWord(every, alloc);
    const std::uint64_t length = ring::header::Length(h);
    std::vector<std::uint8_t> more = every;
    PutWord(more, alloc, ring::header::Make(length + 1, false, 5, 0));
    InsertWord(more, g, 1, alloc + 8 * length, 12345);
    add("alloc_more_than_20_buckets",
        "an alloc event of 21 buckets: OCaml 5.3 delivers the first 20", more, {});
    std::vector<std::uint8_t> fewer = every;
    PutWord(fewer, alloc, ring::header::Make(length - 1, false, 5, 0));
    add("declared_alloc_fewer_than_20_buckets", "an alloc event of 19 buckets", fewer,
        {{Verdicts::kOcaml53,
          "delivers 20 buckets, the missing one from stale memory, then E_CORRUPT_STREAM",
          "reading stale memory is never copied: E_CORRUPT_STREAM at the event"}});
  }
  if (custom != 0) {
    // Slot 3 emptied and the custom event's pad count broken: OCaml drops it unread.
    std::vector<std::uint8_t> nameless = every;
    std::fill_n(nameless.begin() + static_cast<std::ptrdiff_t>(g.CustomEventsOffset() +
                                                               3 * ring::kUserEventNameBytes),
                ring::kUserEventNameBytes, 0);
    nameless[custom + 8 * ring::header::Length(GetWord(every, custom)) - 1] = 200;
    add("custom_event_without_name",
        "a custom user event with an empty name slot and a bad pad count: OCaml 5.3 drops it "
        "unread",
        nameless, {});
    // The custom event grows to 300 words over the events after it (the tail follows).
    std::vector<std::uint8_t> big = every;
    const std::uint64_t h = GetWord(every, custom);
    const std::uint64_t words = 300;
    PutWord(big, custom, ring::header::Make(words, true, 4, ring::header::Id(h)));
    for (std::uint64_t i = 2; i < words; ++i) PutWord(big, custom + 8 * i, 0x4141414141414141);
    big[custom + 8 * words - 1] = 0;  // no padding
    PutWord(big, g.HeadersOffset() + 8 * ring::kRingTailWord,
            (custom - g.DataOffset()) / 8 + words);
    add("declared_custom_payload_over_1024_bytes",
        "a custom user event of 2383 payload bytes (a producer writes at most 1024)", big,
        {{Verdicts::kOcaml53,
          "copies the payload into its 1024-byte buffer (heap overflow); its deserializer "
          "then raises and the program dies",
          "a buffer overflow is never copied: E_CORRUPT_STREAM at the event in every mode"}});
  }
}

std::vector<std::byte> Payload(std::size_t n) {
  std::vector<std::byte> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::byte>((i * 37 + n) & 0xff);
  return p;
}

}  // namespace

Result<std::vector<CaseInput>> RingCases(const std::string& scratch_dir) {
  std::vector<CaseInput> cases;
  auto add = [&](const std::string& name, const std::string& version, std::string note,
                 const std::vector<std::uint8_t>& bytes,
                 std::vector<DeclaredDifference> declared = {}) {
    cases.push_back(CaseInput{name + ".ocaml-" + version, name + ".ocaml-" + version + ".events",
                              std::move(note), bytes, std::move(declared)});
  };

  // Every event type, every phase and counter id any release names (and a few beyond),
  // read with each release's names.
  auto every = WriteRing(scratch_dir, 12, 2, [](ring::RuntimeEvents& re) -> Status {
    for (unsigned phase = 0; phase < 52; ++phase) {
      MPO_RETURN_IF_ERROR(re.Begin(0, phase));
      MPO_RETURN_IF_ERROR(re.End(0, phase));
    }
    for (unsigned c = 0; c < 28; ++c) MPO_RETURN_IF_ERROR(re.Counter(0, c, 1000 + c));
    std::array<std::uint64_t, ring::kAllocBuckets> buckets{};
    for (std::size_t i = 0; i < buckets.size(); ++i) buckets[i] = i * i;
    MPO_RETURN_IF_ERROR(re.Alloc(1, buckets));
    MPO_RETURN_IF_ERROR(re.LifecycleEvent(1, Lifecycle::kDomainSpawn, 1));
    MPO_RETURN_IF_ERROR(re.LifecycleEvent(0, Lifecycle::kForkParent, 12345));
    MPO_RETURN_IF_ERROR(re.LifecycleEvent(1, Lifecycle::kDomainTerminate, 1));
    re.Pause(0);
    MPO_RETURN_IF_ERROR(re.Counter(0, 0, 99));  // dropped while paused
    re.Resume(0);
    auto unit = re.RegisterUserEvent("corpus.unit");
    auto num = re.RegisterUserEvent("corpus.int");
    auto span = re.RegisterUserEvent("corpus.span");
    auto custom = re.RegisterUserEvent("corpus.custom");
    if (!unit.ok()) return unit.status();
    if (!num.ok()) return num.status();
    if (!span.ok()) return span.status();
    if (!custom.ok()) return custom.status();
    MPO_RETURN_IF_ERROR(re.UserUnit(0, *unit));
    MPO_RETURN_IF_ERROR(re.UserInt(1, *num, -42));
    MPO_RETURN_IF_ERROR(re.UserInt(1, *num, std::int64_t{1} << 61));
    MPO_RETURN_IF_ERROR(re.UserSpan(0, *span, true));
    MPO_RETURN_IF_ERROR(re.UserSpan(0, *span, false));
    const auto p = Payload(5);
    return re.UserCustom(0, *custom, p);
  });
  if (!every.ok()) return every.status();
  for (const char* v : {"5.0", "5.1", "5.2", "5.3", "5.4", "5.5"})
    add("every_event_type", v,
        std::string("every event type; phases 0..51 and counters 0..27 named as OCaml ") + v +
            " names them",
        *every);

  // Custom payload sizes 0..1024 bytes.
  auto sizes = WriteRing(scratch_dir, 17, 1, [](ring::RuntimeEvents& re) -> Status {
    auto id = re.RegisterUserEvent("corpus.payload");
    if (!id.ok()) return id.status();
    for (std::size_t n = 0; n <= ring::kMaxCustomPayloadBytes; ++n) {
      const auto p = Payload(n);
      MPO_RETURN_IF_ERROR(re.UserCustom(0, *id, p));
    }
    return Status::Ok();
  });
  if (!sizes.ok()) return sizes.status();
  add("custom_payload_sizes", "5.3", "custom user events of every size 0..1024 bytes", *sizes);

  // A small ring written far past its size: wrap, padding at the end, lost events.
  auto wrap = WriteRing(scratch_dir, 6, 2, [](ring::RuntimeEvents& re) -> Status {
    auto id = re.RegisterUserEvent("corpus.wrap");
    if (!id.ok()) return id.status();
    for (unsigned i = 0; i < 150; ++i) {
      MPO_RETURN_IF_ERROR(re.Begin(i % 2, i % 40));
      if (i % 5 == 0) {
        const auto p = Payload(i % 60);
        MPO_RETURN_IF_ERROR(re.UserCustom(i % 2, *id, p));
      }
      MPO_RETURN_IF_ERROR(re.End(i % 2, i % 40));
    }
    return Status::Ok();
  });
  if (!wrap.ok()) return wrap.status();
  add("wrap_lost_padding", "5.3",
      "a 64-word ring per domain written past its size: wrap, padding, lost events", *wrap);

  // Untouched domain rings and an empty session.
  auto empty = WriteRing(scratch_dir, 4, 3, [](ring::RuntimeEvents&) { return Status::Ok(); });
  if (!empty.ok()) return empty.status();
  add("start_stop_only", "5.3", "ring_start and ring_stop only, 3 domain slots", *empty);

  // User event ids past 4095 (OCaml registers up to 8192): the id field's 13th bit.
  auto many = WriteRing(scratch_dir, 6, 1, [](ring::RuntimeEvents& re) -> Status {
    unsigned last = 0;
    for (unsigned i = 0; i < 4100; ++i) {
      auto id = re.RegisterUserEvent("corpus.user" + std::to_string(i));
      if (!id.ok()) return id.status();
      last = *id;
    }
    MPO_RETURN_IF_ERROR(re.UserUnit(0, 4096));
    MPO_RETURN_IF_ERROR(re.UserInt(0, last, 4099));
    return re.UserUnit(0, 7);
  });
  if (!many.ok()) return many.status();
  add("user_event_ids_past_4095", "5.3",
      "4100 user events registered; events of ids 4096, 4099 and 7", *many);

  // A header that no longer chains: the typed error.
  if (!every->empty()) {
    std::vector<std::uint8_t> bad = *every;
    bad[0] ^= 0xff;  // metadata version
    add("bad_metadata_version", "5.3", "malformed: metadata header version", bad);
    // Ring 0's first event (at the data offset: the ring has not wrapped) rewritten.
    const std::size_t first = ring::FileGeometry{2, 1u << 12}.DataOffset();
    std::vector<std::uint8_t> zero = *every;
    PutWord(zero, first, 0);  // length 0: E_CORRUPT_STREAM in OCaml 5.3 too
    add("corrupt_zero_length_event", "5.3", "malformed: an event header of length 0", zero);
    std::vector<std::uint8_t> longer = *every;
    PutWord(longer, first, ring::header::Make(ring::header::kMaxLength, false, 1, 0));
    add("corrupt_event_past_tail", "5.3",
        "malformed: a lifecycle event longer than the rest of the ring's data", longer);
    std::vector<std::uint8_t> heads = *every;
    PutWord(heads, ring::FileGeometry{2, 1u << 12}.HeadersOffset(), 5000);  // head > tail
    add("corrupt_head_past_tail", "5.3",
        "ring 0's head past its tail: words before head lost, nothing read (as OCaml)", heads);
    // A runtime begin event whose type has its top bit set (2 + 8): producers write types
    // 0..6, and OCaml 5.3 delivers no runtime type it does not know.
    const ring::FileGeometry g{2, 1u << 12};
    const std::size_t begin = FindEvent(*every, g, 0, [](std::uint64_t h) {
      return !ring::header::IsUser(h) && ring::header::Type(h) == 2;
    });
    if (begin != 0) {
      std::vector<std::uint8_t> typed = *every;
      const std::uint64_t h = GetWord(typed, begin);
      PutWord(typed, begin,
              ring::header::Make(ring::header::Length(h), false, 2 + 8, ring::header::Id(h)));
      add("runtime_type_above_7", "5.3",
          "a runtime event of type 10 (producers write 0..6): counted, not delivered (as OCaml "
          "5.3)",
          typed);
    }
    std::vector<std::uint8_t> short_file(every->begin(), every->begin() + 40);
    add("truncated_metadata", "5.3", "malformed: file shorter than its metadata header",
        short_file);
    AddVerdictCases(
        *every, *wrap,
        [&](const std::string& name, std::string note, const std::vector<std::uint8_t>& b,
            std::vector<DeclaredDifference> declared) {
          add(name, "5.3", std::move(note), b, std::move(declared));
        });
  }
  return cases;
}

}  // namespace mpo::corpus
