// Runtime events cases: ring files written by our producer with a fixed pid and a
// counting clock (so the bytes never depend on the machine), read by the corpus as files.
#include <unistd.h>

#include <fstream>
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

std::vector<std::byte> Payload(std::size_t n) {
  std::vector<std::byte> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::byte>((i * 37 + n) & 0xff);
  return p;
}

}  // namespace

Result<std::vector<CaseInput>> RingCases(const std::string& scratch_dir) {
  std::vector<CaseInput> cases;
  auto add = [&](const std::string& name, const std::string& version, std::string note,
                 const std::vector<std::uint8_t>& bytes) {
    cases.push_back(CaseInput{name + ".ocaml-" + version, name + ".ocaml-" + version + ".events",
                              std::move(note), bytes});
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

  // A header that no longer chains: the typed error.
  if (!every->empty()) {
    std::vector<std::uint8_t> bad = *every;
    bad[0] ^= 0xff;  // metadata version
    add("bad_metadata_version", "5.3", "malformed: metadata header version", bad);
    // Ring 0's first event (at the data offset: the ring has not wrapped) rewritten.
    const std::size_t first = ring::FileGeometry{2, 1u << 12}.DataOffset();
    auto put_word = [&](std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t w) {
      for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(w >> (8 * i));
    };
    std::vector<std::uint8_t> zero = *every;
    put_word(zero, first, 0);  // length 0: OCaml would spin on it forever
    add("corrupt_zero_length_event", "5.3", "malformed: an event header of length 0", zero);
    std::vector<std::uint8_t> longer = *every;
    put_word(longer, first, ring::header::Make(ring::header::kMaxLength, false, 1, 0));
    add("corrupt_event_past_tail", "5.3",
        "malformed: a lifecycle event longer than the rest of the ring's data", longer);
    std::vector<std::uint8_t> heads = *every;
    put_word(heads, ring::FileGeometry{2, 1u << 12}.HeadersOffset(), 5000);  // head > tail
    add("corrupt_head_past_tail", "5.3",
        "ring 0's head past its tail: words before head lost, nothing read (as OCaml)", heads);
    std::vector<std::uint8_t> short_file(every->begin(), every->begin() + 40);
    add("truncated_metadata", "5.3", "malformed: file shorter than its metadata header",
        short_file);
  }
  return cases;
}

}  // namespace mpo::corpus
