#include "core/memtrace/internal/bombs.h"

#include <limits>

#include "core/memtrace/buf.h"
#include "core/memtrace/event.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::bombs {
namespace {

constexpr std::int64_t kPid = 7;
constexpr std::int64_t kStart = 1'000'000;
constexpr std::size_t kPacketBytes = 1 << 16;

// Appends packets of raw events: the caller writes event bodies between Begin and End.
class RawTrace {
 public:
  explicit RawTrace(int version) : version_(version), packet_(kPacketBytes) {
    ByteWriter b(kPacketBytes);
    PacketHeaderSlots h = WritePacketHeader(b, version_, kPid, 0, CacheVerifier{});
    WriteEventHeader(b, static_cast<unsigned>(EventCode::kTraceInfo), kStart);
    b.Float(1.0);
    b.U8(64);
    b.String("bomb");
    b.String("host");
    b.String("");
    b.U64(kPid);
    b.String("");
    FinishPacketHeader(b, h, kStart, kStart, 0, 0);
    Append(b);
  }
  ByteWriter& Begin(std::uint16_t domain) {
    packet_.Reset();
    slots_ = WritePacketHeader(packet_, version_, kPid, domain, CacheVerifier{});
    domain_ = domain;
    first_id_ = ids_[domain];
    return packet_;
  }
  void Event(unsigned code) { WriteEventHeader(packet_, code, kStart); }
  void Alloc() { ++ids_[domain_]; }
  void End() {
    FinishPacketHeader(packet_, slots_, kStart, kStart, first_id_, ids_[domain_]);
    Append(packet_);
  }
  std::vector<std::uint8_t> bytes;

 private:
  void Append(const ByteWriter& b) {
    bytes.insert(bytes.end(), b.bytes().begin(), b.bytes().end());
  }
  int version_;
  ByteWriter packet_;
  PacketHeaderSlots slots_{};
  std::uint16_t domain_ = 0;
  OcamlInt first_id_ = 0;
  OcamlInt ids_[1 << 16] = {};
};

// A location event: `code` -> `nframes` frames in file `filename`, function "f".
// The first frame stores both strings; the others hit MTF slot 0.
void PutLocation(RawTrace& t, ByteWriter& b, OcamlInt code, unsigned nframes, bool first_in_stream,
                 const std::string& filename) {
  t.Event(static_cast<unsigned>(EventCode::kLocation));
  b.U64(static_cast<std::uint64_t>(code));
  b.U8(static_cast<std::uint8_t>(nframes));
  for (unsigned i = 0; i < nframes; ++i) {
    const bool fresh = first_in_stream && i == 0;
    const std::uint64_t file_ix = fresh ? 31 : 0;
    const std::uint64_t def_ix = fresh ? 31 : 0;
    const std::uint64_t word =
        (std::uint64_t{i + 1} & kLineMax) | (file_ix << kFilenameShift) | (def_ix << kDefnameShift);
    b.U32(static_cast<std::uint32_t>(word));
    b.U16(static_cast<std::uint16_t>(word >> 32));
    if (fresh) {
      b.String(filename);
      b.String("f");
    }
  }
}

// Codewords for `depth` entries of `code` in bucket `bucket`: a miss, then hitN runs
// of the bucket predicting itself. Returns the number of codewords.
std::uint32_t PutDeep(ByteWriter& b, std::uint32_t bucket, OcamlInt code, std::uint32_t depth) {
  b.U16(static_cast<std::uint16_t>((bucket << 2) | kMiss));
  b.U64(static_cast<std::uint64_t>(code));
  std::uint32_t n = 1;
  for (std::uint32_t left = depth - 1; left > 0; ++n) {
    const std::uint32_t run = std::min<std::uint32_t>(left, 256);
    b.U16(static_cast<std::uint16_t>((bucket << 2) | kHitN));
    b.U8(static_cast<std::uint8_t>(run - 1));
    left -= run;
  }
  return n;
}

// A long alloc whose codewords PutDeep wrote into `body`.
void PutAllocWith(RawTrace& t, ByteWriter& b, OcamlInt common, std::uint32_t ncodewords,
                  const ByteWriter& body) {
  t.Event(static_cast<unsigned>(EventCode::kAlloc));
  b.Vint(1);  // length
  b.Vint(1);  // nsamples
  b.U8(0);    // minor
  b.Vint(common);
  b.U16(static_cast<std::uint16_t>(ncodewords));
  for (std::uint8_t c : body.bytes()) b.U8(c);
  t.Alloc();
}

// A short alloc of length 1 with `common` shared entries and no codeword.
void PutRepeat(RawTrace& t, ByteWriter& b, OcamlInt common) {
  t.Event(static_cast<unsigned>(EventCode::kShortAllocFirst));
  b.Vint(common);
  b.U8(0);
  t.Alloc();
}

// One domain's share of the deep bombs: the location, one deep alloc, the repeats.
void PutDeepDomain(RawTrace& t, std::uint16_t domain, std::uint32_t depth, std::uint32_t repeats) {
  constexpr OcamlInt kCode = 0x1234;
  ByteWriter* b = &t.Begin(domain);
  PutLocation(t, *b, kCode, 1, true, "deep.ml");
  ByteWriter body(kPacketBytes);
  const std::uint32_t n = PutDeep(body, 5, kCode, depth);
  PutAllocWith(t, *b, 0, n, body);
  for (std::uint32_t i = 0; i < repeats; ++i) {
    if (b->remaining() < 64) {
      t.End();
      b = &t.Begin(domain);
    }
    PutRepeat(t, *b, depth);
  }
  t.End();
}

}  // namespace

std::vector<std::uint8_t> DeepBacktrace(std::uint32_t depth, std::uint32_t repeats) {
  RawTrace t(2);
  PutDeepDomain(t, 0, depth, repeats);
  return std::move(t.bytes);
}

std::vector<std::uint8_t> ManyDomains(std::uint32_t domains, std::uint32_t depth) {
  RawTrace t(3);
  for (std::uint32_t d = 0; d < domains; ++d)
    PutDeepDomain(t, static_cast<std::uint16_t>(d), depth, 0);
  return std::move(t.bytes);
}

std::vector<std::uint8_t> LongLocations(std::uint32_t codes, std::uint32_t filename_bytes) {
  RawTrace t(2);
  const std::string filename(filename_bytes, 'x');
  ByteWriter* b = &t.Begin(0);
  for (std::uint32_t c = 0; c < codes; ++c) {
    if (b->remaining() < 2048) {
      t.End();
      b = &t.Begin(0);
    }
    PutLocation(t, *b, 0x100 + c, 255, c == 0, filename);
  }
  for (std::uint32_t c = 0; c < codes; ++c) {
    if (b->remaining() < 64) {
      t.End();
      b = &t.Begin(0);
    }
    // One miss per alloc: a backtrace of the code alone.
    t.Event(static_cast<unsigned>(EventCode::kShortAllocFirst));
    b->Vint(0);
    b->U8(1);
    b->U16(static_cast<std::uint16_t>(((c & kCacheMask) << 2) | kMiss));
    b->U64(0x100 + c);
    t.Alloc();
  }
  t.End();
  return std::move(t.bytes);
}

std::vector<std::uint8_t> Staircase(std::uint32_t steps) {
  RawTrace t(2);
  ByteWriter* b = &t.Begin(0);
  constexpr OcamlInt kCode = 0x77;
  PutLocation(t, *b, kCode, 1, true, "stairs.ml");
  // Step i: the previous i entries, then the one code again (a hit0 after the first
  // miss). Every step is one entry longer.
  for (std::uint32_t i = 0; i < steps; ++i) {
    if (b->remaining() < 64) {
      t.End();
      b = &t.Begin(0);
    }
    t.Event(static_cast<unsigned>(EventCode::kShortAllocFirst));
    b->Vint(i);
    b->U8(1);
    if (i == 0) {
      b->U16(static_cast<std::uint16_t>((3u << 2) | kMiss));
      b->U64(kCode);
    } else {
      b->U16(static_cast<std::uint16_t>((3u << 2) | kHit0));
    }
    t.Alloc();
  }
  t.End();
  return std::move(t.bytes);
}

std::vector<std::uint8_t> ExtremeTimes() {
  VectorSink sink;
  Info info;
  info.pid = kPid;
  info.sample_rate = 1;
  info.start_time = std::numeric_limits<std::int64_t>::min() + 1;
  auto w = TraceWriter::Create(sink, info);
  if (!w.ok()) return {};
  const LocationLookup none = [](OcamlInt) -> const std::vector<Location>* { return nullptr; };
  const std::int64_t times[] = {info.start_time + 3, 5,
                                std::numeric_limits<std::int64_t>::max() - 7,
                                std::numeric_limits<std::int64_t>::max()};
  OcamlInt id = 0;
  for (std::int64_t t : times) {
    auto a = (*w)->PutAlloc(0, t, 2, 1, AllocationSource::kMinor, {}, none);
    if (!a.ok()) return {};
    id = *a;
  }
  if (!(*w)->PutCollect(0, std::numeric_limits<std::int64_t>::max(), id).ok()) return {};
  if (!(*w)->Flush().ok()) return {};
  return std::move(sink.data);
}

std::vector<Named> IssueBombs() {
  std::vector<Named> v;
  v.push_back({"deep_backtrace", DeepBacktrace(1'040'000, 24)});
  v.push_back({"many_domains", ManyDomains(256, 1'040'000)});
  v.push_back({"long_locations", LongLocations(78, 60'000)});
  v.push_back({"staircase", Staircase(6'000)});
  v.push_back({"extreme_times", ExtremeTimes()});
  return v;
}

}  // namespace mpo::memtrace::bombs
