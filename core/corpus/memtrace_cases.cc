// memtrace cases: traces written by our writer (v2, v3; v1 by rewriting v2 headers),
// traces with hand-built packets for corners the writer never produces, and one case
// per check the reader makes.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/corpus/cases.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::corpus {
namespace {

using namespace mpo::memtrace;

constexpr std::int64_t kStart = 1700000000000000;  // us since the epoch
constexpr std::int64_t kPid = 4242;

Info MakeInfo(int version) {
  Info info;
  info.sample_rate = 1e-4;
  info.word_size = 64;
  info.executable_name = "/corpus/prog.exe";
  info.host_name = "corpus-host";
  info.ocaml_runtime_params = "s=256k";
  info.pid = kPid;
  info.start_time = kStart;
  if (version >= 3) info.context = "corpus";
  return info;
}

// A writer over a byte vector plus a location table for the codes it is given.
class Trace {
 public:
  explicit Trace(int version, WriterOptions o = {}) {
    o.format_version = version;
    auto w = TraceWriter::Create(sink_, MakeInfo(version), std::move(o));
    if (w.ok())
      writer_ = std::move(*w);
    else
      status_ = w.status();
  }
  // Code `c` stands for `n` inlined frames (innermost last) in file `file`.
  void Define(OcamlInt c, std::vector<Location> frames) { locs_[c] = std::move(frames); }
  void DefineSimple(OcamlInt c, int file, int def) {
    Define(c, {Location{"src/file" + std::to_string(file) + ".ml", 10 + c % 1000, c % 80,
                        c % 80 + 12, "Mod" + std::to_string(file) + ".fn" + std::to_string(def)}});
  }
  OcamlInt Alloc(std::uint16_t dom, std::int64_t t, OcamlInt len, OcamlInt ns, AllocationSource src,
                 const std::vector<OcamlInt>& bt) {
    if (!status_.ok()) return -1;
    for (OcamlInt c : bt)
      if (!locs_.count(c)) DefineSimple(c, static_cast<int>(c % 7), static_cast<int>(c % 5));
    auto lookup = [this](OcamlInt c) -> const std::vector<Location>* {
      auto it = locs_.find(c);
      return it == locs_.end() ? nullptr : &it->second;
    };
    auto id = writer_->PutAlloc(dom, kStart + t, len, ns, src, bt, lookup);
    if (!id.ok()) {
      status_ = id.status();
      return -1;
    }
    return *id;
  }
  void Promote(std::uint16_t dom, std::int64_t t, OcamlInt id) {
    if (status_.ok()) status_ = writer_->PutPromote(dom, kStart + t, id);
  }
  void Collect(std::uint16_t dom, std::int64_t t, OcamlInt id) {
    if (status_.ok()) status_ = writer_->PutCollect(dom, kStart + t, id);
  }
  void Flush() {
    if (status_.ok()) status_ = writer_->Flush();
  }
  std::vector<std::uint8_t>& raw() { return sink_.data; }
  Result<std::vector<std::uint8_t>> Finish() {
    Flush();
    if (!status_.ok()) return Status(status_).WithField("corpus memtrace writer");
    return sink_.data;
  }

 private:
  VectorSink sink_;
  std::unique_ptr<TraceWriter> writer_;
  std::map<OcamlInt, std::vector<Location>> locs_;
  Status status_;
};

void EveryEventForm(Trace& t, std::uint16_t dom) {
  // Inlined frames, clamped columns and lines, long names.
  t.Define(1, {Location{"main.ml", 1, 0, 10, "Main.main"}});
  t.Define(2, {Location{"lib/a.ml", 42, 4, 30, "A.outer"},
               Location{"lib/a.ml", 43, 6, 20, "A.inlined_inner"}});
  t.Define(3, {Location{"lib/b.ml", 2000000, 300, 2000, "B.clamped"}});
  t.Define(4, {Location{"lib/b.ml", -1, -5, -7, "B.negative"}});
  t.Define(5, {Location{"weird \"name\"\n.ml", 7, 1, 2, std::string(300, 'x')}});
  std::int64_t now = 10;
  std::vector<OcamlInt> ids;
  for (OcamlInt len = 1; len <= 16; ++len)  // short forms 101..116
    ids.push_back(t.Alloc(dom, now++, len, 1, AllocationSource::kMinor, {1, 2, 3}));
  ids.push_back(t.Alloc(dom, now++, 17, 1, AllocationSource::kMinor, {1, 2, 4}));   // long
  ids.push_back(t.Alloc(dom, now++, 3, 2, AllocationSource::kMinor, {1, 2, 5}));    // nsamples
  ids.push_back(t.Alloc(dom, now++, 300, 4, AllocationSource::kMajor, {1, 5}));     // major
  ids.push_back(t.Alloc(dom, now++, 100000, 9, AllocationSource::kExternal, {1}));  // external
  ids.push_back(t.Alloc(dom, now++, 0, 1, AllocationSource::kMinor, {}));           // empty bt
  // 252: the largest vint written in one byte (253..255 are prefixes).
  ids.push_back(t.Alloc(dom, now++, 252, 252, AllocationSource::kMinor, {1, 3}));
  ids.push_back(t.Alloc(dom, now++, OcamlInt{1} << 40, 70000, AllocationSource::kMajor,
                        {1, 2, 3, 4, 5}));  // 64-bit vints
  for (std::size_t i = 0; i < ids.size(); i += 2) t.Promote(dom, now++, ids[i]);
  for (std::size_t i = 0; i < ids.size(); i += 3) t.Collect(dom, now++, ids[i]);
}

// v1: a v2 trace whose headers say 1 and whose info packet has no context string.
Result<std::vector<std::uint8_t>> ToV1(std::vector<std::uint8_t> v2) {
  std::size_t off = 0;
  bool first = true;
  std::vector<std::uint8_t> out;
  while (off + kHeaderSizeV2 <= v2.size()) {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= std::uint32_t{v2[off + 4 + i]} << (8 * i);
    const std::size_t size = bits / 8;
    if (size < kHeaderSizeV2 || off + size > v2.size())
      return Status(ErrorCode::kInternal, "bad v2 packet while making v1");
    std::vector<std::uint8_t> p(v2.begin() + off, v2.begin() + off + size);
    p[28] = 1;
    p[29] = 0;
    if (first) {
      if (p.back() != 0) return Status(ErrorCode::kInternal, "v2 context is not empty");
      p.pop_back();
      const std::uint32_t nb = static_cast<std::uint32_t>(p.size() * 8);
      for (int i = 0; i < 4; ++i) p[4 + i] = static_cast<std::uint8_t>(nb >> (8 * i));
      first = false;
    }
    out.insert(out.end(), p.begin(), p.end());
    off += size;
  }
  return out;
}

// The writer writes v2 and v3; v1 is v2 rewritten (ToV1).
int WriterVersion(int version) { return version == 1 ? 2 : version; }
Result<std::vector<std::uint8_t>> Finish(Trace& t, int version) {
  auto bytes = t.Finish();
  if (version != 1 || !bytes.ok()) return bytes;
  return ToV1(std::move(*bytes));
}

// Backtrace cache: misses, hits, prediction runs (hitN's count byte: 128..255, and runs
// beyond 255 that start a new block), collisions and evictions.
Result<std::vector<std::uint8_t>> BacktraceCache(int version) {
  Trace t(WriterVersion(version));
  std::vector<OcamlInt> stack = {11, 12, 13, 14, 15};
  std::int64_t now = 10;
  for (int i = 0; i < 4; ++i) t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, stack);
  std::vector<OcamlInt> other = {11, 12, 99, 14, 15};  // shared prefix, then a break
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, other);
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, stack);
  std::vector<OcamlInt> deep;  // recursion: a run of 600 correct predictions
  deep.reserve(601);
  for (int i = 0; i < 600; ++i) deep.push_back(20 + i % 3);
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, deep);
  deep.push_back(50);
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, deep);
  std::reverse(deep.begin(), deep.end());
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, deep);
  // A stack of n distinct codes seen again after an unrelated one (no common prefix): one
  // hit, then n - 1 predictions, the count byte at 128, 199 and 255, then past it (a new
  // block). 380 misses stay under the 4096-byte backtrace limit.
  OcamlInt base = 3000;
  for (int n : {129, 200, 256, 257, 380}) {
    std::vector<OcamlInt> run;
    run.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) run.push_back(base + i);
    base += n;
    t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, run);
    t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, {1});
    t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, run);
  }
  // A run followed by another codeword in the same backtrace, then coded again from a
  // common prefix of 0: the codeword after a run updates the prediction of the run's last
  // bucket, so the first bucket still predicts the second.
  std::vector<OcamlInt> chain;
  chain.reserve(10);
  for (int i = 0; i < 10; ++i) chain.push_back(9000 + i);
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, chain);  // misses
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, {1});
  chain.push_back(9100);
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, chain);  // a hit, 9 predicted, a miss
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, {1});
  chain.pop_back();
  t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, chain);  // a hit, 9 predicted
  // Many distinct codes: bucket collisions and evictions in the 2^14-slot cache.
  std::vector<OcamlInt> wide;
  for (int block = 0; block < 80; ++block) {
    wide.clear();
    for (int i = 0; i < 250; ++i) wide.push_back(100000 + block * 250 + i);
    t.Alloc(0, now++, 3, 1, AllocationSource::kMajor, wide);
  }
  for (int block = 0; block < 80; block += 7) {
    wide.clear();
    for (int i = 0; i < 250; ++i) wide.push_back(100000 + block * 250 + i);
    t.Alloc(0, now++, 3, 1, AllocationSource::kMajor, wide);
  }
  return Finish(t, version);
}

// Both move-to-front tables filled to their 31 entries, every slot 0..30 hit, then
// evictions: the defname table of one file, and the filename table. Hitting slots 0, 1,
// ..., 30 in turn means naming the entries newest first (a hit moves its entry to the
// front and leaves the slots after it in place).
Result<std::vector<std::uint8_t>> MtfEverySlot(int version) {
  Trace t(WriterVersion(version));
  OcamlInt code = 2000;
  std::int64_t now = 10;
  auto at = [&](const std::string& file, const std::string& def) {
    t.Define(code, {Location{file, static_cast<int>(code % 1000), 1, 2, def}});
    t.Alloc(0, now++, 2, 1, AllocationSource::kMinor, {code});
    ++code;
  };
  const std::string one = "mtf/one.ml";
  auto def = [](int d) { return "Mtf.def" + std::to_string(d); };
  auto file = [](int f) { return "mtf/f" + std::to_string(f) + ".ml"; };
  for (int d = 0; d < 31; ++d) at(one, def(d));        // one.ml's defnames: full
  for (int f = 1; f < 31; ++f) at(file(f), "Mtf.f");   // filenames: full
  for (int f = 30; f >= 1; --f) at(file(f), "Mtf.f");  // filename slots 0..29
  for (int d = 30; d >= 0; --d) at(one, def(d));       // filename slot 30, then defname slots 0..30
  for (int d = 31; d < 36; ++d) at(one, def(d));       // defname evictions
  at(one, def(30));                                    // an evicted defname, new again
  for (int f = 31; f < 36; ++f) at(file(f), "Mtf.f");  // filename evictions
  at(file(30), "Mtf.f");                               // an evicted filename, new again
  at(one, def(0));  // one.ml survived (moved to front above): a hit at slot 6
  return Finish(t, version);
}

// Appends a hand-built packet.
struct PacketSpec {
  int version = 3;
  std::int64_t pid = kPid;
  std::uint16_t domain = 0;
  CacheVerifier verifier{};
  std::int64_t time_begin = kStart;
  std::int64_t time_end = kStart + 1000;
  OcamlInt id_begin = 0;
  OcamlInt id_end = 0;
};
void AppendPacket(std::vector<std::uint8_t>& out, const PacketSpec& spec,
                  const std::function<void(ByteWriter&)>& body) {
  ByteWriter b(kMaxPacketSize);
  auto slots = WritePacketHeader(b, spec.version, spec.pid, spec.domain, spec.verifier);
  body(b);
  FinishPacketHeader(b, slots, spec.time_begin, spec.time_end, spec.id_begin, spec.id_end);
  out.insert(out.end(), b.bytes().begin(), b.bytes().end());
}

void ShortAlloc(ByteWriter& b, std::int64_t t, OcamlInt common = 0, std::uint8_t n = 0) {
  WriteEventHeader(b, 101, t);
  b.Vint(common);
  b.U8(n);
}

// What a reference does where the oracle deliberately differs (conformance/VERDICTS.md).
constexpr const char* kOobWrite =
    "writes before the start of its backtrace buffer (negative common prefix)";
constexpr const char* kNoUb = "an out-of-bounds write is undefined behaviour, never copied";
constexpr const char* kLoops =
    "a negative body size moves its read position backwards: it rereads earlier bytes "
    "as packets, forever or until they fail to parse";
constexpr const char* kNoHang = "a hang is never copied: the size is refused at once";
constexpr const char* kBigPacket =
    "reads only the first 32 KiB of the body, skips them as a truncated packet, then parses "
    "the rest of the body as packets";
constexpr const char* kNoMisread =
    "parsing the middle of a packet as headers is a misread, never copied: the packet is "
    "refused";

void Declare(CaseInput& c, Verdicts mode, const char* reference, const char* why) {
  c.declared.push_back(DeclaredDifference{mode, reference, why});
}
void DeclareBoth(CaseInput& c, int version, const char* reference, const char* why) {
  if (version <= 2) Declare(c, Verdicts::kMemtrace023, reference, why);
  Declare(c, Verdicts::kMemtraceHead, reference, why);
}

void SetPacketSize(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t bytes) {
  const std::uint32_t bits = bytes * 8;
  for (int i = 0; i < 4; ++i) b[at + 4 + i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

// The info packet alone (v1: the v2 one rewritten).
Result<std::vector<std::uint8_t>> InfoOnly(int version) {
  Trace t(version == 1 ? 2 : version);
  auto bytes = t.Finish();
  if (version != 1 || !bytes.ok()) return bytes;
  return ToV1(std::move(*bytes));
}

using AddCase =
    std::function<Status(const std::string&, std::string, Result<std::vector<std::uint8_t>>)>;

// A packet holding one short alloc (ids begin..begin + 1) at `t`.
std::vector<std::uint8_t> OneAllocPacket(int version, OcamlInt begin, std::int64_t t,
                                         CacheVerifier verifier = {}) {
  std::vector<std::uint8_t> out;
  PacketSpec p;
  p.version = version;
  p.verifier = verifier;
  p.id_begin = begin;
  p.id_end = begin + 1;
  p.time_begin = t;
  p.time_end = t + 10;
  AppendPacket(out, p, [t](ByteWriter& b) { ShortAlloc(b, t + 1); });
  return out;
}

// The classes where memtrace 0.2.3, memtrace HEAD and the strict oracle part ways
// (conformance/VERDICTS.md): each case is a valid packet of one alloc, then the damage.
Status AddVerdictCases(const AddCase& add) {
  for (int version : {1, 2, 3}) {
    const std::string v = "v" + std::to_string(version);
    auto base = InfoOnly(version);
    if (!base.ok()) return base.status();
    auto first = OneAllocPacket(version, 0, kStart + 10);
    base->insert(base->end(), first.begin(), first.end());
    const auto next = OneAllocPacket(version, 1, kStart + 20);
    // A file ending inside a packet header: every reader fails reading it.
    const std::size_t hsize = PacketHeaderSize(version);
    for (std::size_t cut : {std::size_t{1}, std::size_t{30}, hsize - 1}) {
      auto b = *base;
      b.insert(b.end(), next.begin(), next.begin() + static_cast<std::ptrdiff_t>(cut));
      MPO_RETURN_IF_ERROR(add(v + "_bad_trailing_header_" + std::to_string(cut),
                              "the file ends " + std::to_string(cut) +
                                  " bytes into a packet header: refused in every mode",
                              std::move(b)));
    }
    {  // A truncated last packet: refused by strict, skipped by the references.
      auto b = *base;
      b.insert(b.end(), next.begin(), next.end() - 3);
      MPO_RETURN_IF_ERROR(add(v + "_truncated_last_alloc_packet",
                              "the last packet lacks its last 3 bytes: strict refuses it, "
                              "memtrace 0.2.3 and HEAD skip it",
                              std::move(b)));
    }
    {  // The same with a cache verifier that fails: 0.2.3 checks it first, HEAD never.
      auto bad = OneAllocPacket(version, 1, kStart + 20, CacheVerifier{4242, 1, 0});
      auto b = *base;
      b.insert(b.end(), bad.begin(), bad.end() - 3);
      MPO_RETURN_IF_ERROR(add(v + "_bad_truncated_last_packet_verifier",
                              "a truncated last packet whose cache verifier fails: memtrace "
                              "0.2.3 checks the verifier first (refused), HEAD skips the packet",
                              std::move(b)));
    }
    {  // A last packet declaring far more than the file holds (past the 64 KiB cap).
      auto b = *base;
      const std::size_t at = b.size();
      b.insert(b.end(), next.begin(), next.end());
      SetPacketSize(b, at, 100000);
      MPO_RETURN_IF_ERROR(add(v + "_truncated_huge_last_packet",
                              "the last packet declares 100000 bytes: strict refuses it, the "
                              "references skip it as truncated",
                              std::move(b)));
    }
    // A packet of another format version after the info packet.
    for (int other : {0, 1, 2, 3}) {
      if (other == version) continue;
      auto b = *base;
      auto p = OneAllocPacket(other, 1, kStart + 20);
      b.insert(b.end(), p.begin(), p.end());
      MPO_RETURN_IF_ERROR(add(v + "_bad_v" + std::to_string(other) + "_packet",
                              "a v" + std::to_string(other) + " packet in a " + v +
                                  " trace: strict refuses it; 0.2.3 reads only v1 and v2, HEAD "
                                  "v0 to v3 (each with its own header layout)",
                              std::move(b)));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<CaseInput>> MemtraceCases() {
  std::vector<CaseInput> cases;
  AddCase add = [&](const std::string& name, std::string note,
                    Result<std::vector<std::uint8_t>> bytes) -> Status {
    if (!bytes.ok()) return Status(bytes.status()).WithField("case " + name);
    cases.push_back(CaseInput{name, name + ".ctf", std::move(note), std::move(*bytes), {}});
    return Status::Ok();
  };

  // Every event form in each version.
  std::vector<std::uint8_t> v2_forms, v3_forms;
  for (int version : {2, 3}) {
    Trace t(version);
    EveryEventForm(t, 0);
    auto bytes = t.Finish();
    if (bytes.ok()) (version == 2 ? v2_forms : v3_forms) = *bytes;
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_event_forms",
                            "short allocs 1..16, long minor/major/external allocs, nsamples > 1, "
                            "vints of 252 (the largest one-byte value) and 64 bits, promote, "
                            "collect, inlined/clamped/escaped locations",
                            std::move(bytes)));
  }
  MPO_RETURN_IF_ERROR(
      add("v1_event_forms", "v2_event_forms rewritten as format v1 (no context)", ToV1(v2_forms)));
  for (int version : {1, 2, 3})
    MPO_RETURN_IF_ERROR(
        add("v" + std::to_string(version) + "_empty", "trace info only", InfoOnly(version)));
  for (int version : {1, 2, 3}) {
    // memtrace's writer gives the info packet time_end = time_begin; the start time is
    // time_begin whatever time_end says.
    auto b = InfoOnly(version);
    if (b.ok())
      for (int i = 0; i < 8; ++i)
        (*b)[header_offset::kTimeEnd + i] = static_cast<std::uint8_t>((kStart + 5000) >> (8 * i));
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_info_time_end_later",
                            "trace info only, its packet's time_end 5 ms after its time_begin",
                            std::move(b)));
  }

  for (int version : {1, 2, 3}) {  // MTF eviction: over 31 filenames, over 31 defnames per file.
    Trace t(WriterVersion(version));
    OcamlInt code = 1000;
    for (int round = 0; round < 3; ++round) {
      for (int file = 0; file < 40; ++file) {
        const int def = (file * 7 + round * 13) % 45;
        t.Define(code, {Location{"mtf/f" + std::to_string(file) + ".ml", file + 1, 1, 2,
                                 "D" + std::to_string(def)}});
        t.Alloc(0, 10 + round * 100 + file, 4, 1, AllocationSource::kMinor, {1, code});
        ++code;
      }
    }
    for (int def = 0; def < 40; ++def) {
      t.Define(code, {Location{"mtf/one.ml", def, 0, 1, "same_file_def" + std::to_string(def)}});
      t.Alloc(0, 1000 + def, 2, 1, AllocationSource::kMinor, {code});
      ++code;
    }
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_mtf_eviction",
                            "40 filenames and 45 defnames per file: MTF hits, moves, evictions",
                            Finish(t, version)));
  }
  for (int version : {1, 2, 3}) {
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_backtrace_cache",
                            "cache misses, hits, hit1/hitN prediction runs of 128..255 and beyond "
                            "255, a run followed by a miss and then coded again, 20000 distinct "
                            "codes (evictions)",
                            BacktraceCache(version)));
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_mtf_every_slot",
                            "filename and defname tables full at 31 entries, hit at every slot "
                            "0..30, then evicted",
                            MtfEverySlot(version)));
  }
  for (int version : {1, 2, 3}) {  // Truncated common prefix.
    Trace t(WriterVersion(version));
    std::vector<OcamlInt> huge;
    huge.reserve(2001);
    for (int i = 0; i < 2000; ++i) huge.push_back(500000 + i);  // > 4096 bytes of misses
    t.Alloc(0, 10, 2, 1, AllocationSource::kMinor, huge);
    huge.push_back(7);
    t.Alloc(0, 11, 2, 1, AllocationSource::kMinor, huge);  // prefix longer than written
    t.Alloc(0, 12, 2, 1, AllocationSource::kMinor, {500000, 500001, 8});
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_truncated_prefix",
                            "a backtrace cut at 4096 bytes, then one whose common prefix is "
                            "longer than what was written",
                            Finish(t, version)));
  }
  for (int version : {1, 2, 3}) {  // 25-bit time wrap and the 30 s rule.
    Trace t(WriterVersion(version));
    std::int64_t now = (std::int64_t{1} << 25) - 20 - (kStart & ((1 << 25) - 1));
    if (now < 0) now += std::int64_t{1} << 25;
    for (int i = 0; i < 40; ++i) t.Alloc(0, now + i, 1, 1, AllocationSource::kMinor, {1});
    now += std::int64_t{29} * 1000 * 1000;
    t.Alloc(0, now, 1, 1, AllocationSource::kMinor, {1});  // same packet, 29 s later
    now += std::int64_t{2} * 1000 * 1000;
    t.Alloc(0, now, 1, 1, AllocationSource::kMinor, {1});  // > 30 s: new packet
    now += (std::int64_t{1} << 25) * 3 + 5;
    t.Alloc(0, now, 1, 1, AllocationSource::kMinor, {1});  // several wraps later
    t.Promote(0, now + 1, 0);
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_time_wrap",
                            "event times crossing 2^25 us within a packet; flush after 30 s",
                            Finish(t, version)));
  }
  for (int version : {1, 2, 3}) {
    // Packets from another pid (a forked child writing to the same file) are skipped.
    Trace t(WriterVersion(version));
    t.Alloc(0, 10, 2, 1, AllocationSource::kMinor, {1, 2});
    t.Flush();
    PacketSpec p;
    p.version = WriterVersion(version);
    p.pid = kPid + 1;
    p.id_begin = 1;
    p.id_end = 2;
    p.time_begin = kStart + 11;
    p.time_end = kStart + 12;
    AppendPacket(t.raw(), p, [](ByteWriter& b) { ShortAlloc(b, kStart + 11); });
    t.Alloc(0, 20, 3, 1, AllocationSource::kMinor, {1, 3});
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_pid_change",
                            "a packet from another pid between ours", Finish(t, version)));
  }
  for (int version :
       {1, 2, 3}) {  // The writer's fork rule: once the pid changes nothing more is written.
    std::int64_t calls = 0;
    WriterOptions o;
    o.getpid = [&calls] { return ++calls > 2 ? kPid + 7 : kPid; };
    Trace t(WriterVersion(version), o);
    t.Alloc(0, 10, 2, 1, AllocationSource::kMinor, {1});
    t.Flush();
    auto bytes = std::vector<std::uint8_t>(t.raw());
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_pid_change_writer_stops",
                            "a trace cut where the pid changed",
                            version == 1 ? ToV1(std::move(bytes)) : std::move(bytes)));
  }
  {  // Multi-domain: per-domain state, id chunks, negative collect deltas.
    WriterOptions o;
    o.obj_ids_per_chunk = 8;
    Trace t(3, o);
    std::vector<OcamlInt> ids[3];
    std::int64_t now = 10;
    for (int round = 0; round < 12; ++round)
      for (std::uint16_t d = 0; d < 3; ++d)
        ids[d].push_back(
            t.Alloc(d, now++, 1 + round, 1,
                    round % 3 == 0 ? AllocationSource::kMajor : AllocationSource::kMinor,
                    {1, static_cast<OcamlInt>(30 + d), static_cast<OcamlInt>(40 + round)}));
    // Domain 2 collects other domains' objects, from the newest down: negative deltas.
    for (int i = 11; i >= 0; --i) t.Collect(2, now++, ids[0][i]);
    for (int i = 0; i < 12; i += 2) t.Promote(1, now++, ids[1][i]);
    for (int i = 11; i >= 0; i -= 2) t.Collect(0, now++, ids[1][i]);
    MPO_RETURN_IF_ERROR(add("v3_multidomain",
                            "3 domains, id chunks of 8, cross-domain collects with negative "
                            "deltas",
                            t.Finish()));
  }
  for (int version : {1, 2, 3}) {  // Truncated files.
    Trace t(WriterVersion(version));
    EveryEventForm(t, 0);
    t.Flush();
    t.Alloc(0, 1000, 2, 1, AllocationSource::kMinor, {1});
    auto full = Finish(t, version);
    if (!full.ok()) return full.status();
    const std::vector<std::uint8_t>& b = *full;
    const std::size_t cuts[] = {0, 10, 90, b.size() - 1, b.size() - 20};
    const char* names[] = {"empty", "in_info_header", "in_info_body", "last_byte",
                           "in_last_packet"};
    // An empty file is the same bytes in every version: one case.
    for (int i = version == 3 ? 0 : 1; i < 5; ++i)
      MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_truncated_" + names[i],
                              "a trace cut at byte " + std::to_string(cuts[i]),
                              std::vector<std::uint8_t>(b.begin(), b.begin() + cuts[i])));
  }

  // Malformations: one check each, on a hand-built packet after a valid info packet.
  // `version` is where the check first mattered; each case is written as v1, v2 and v3
  // (every check exists in memtrace 0.2.3 and HEAD) unless `only_version` says otherwise
  // (2: v1 and v2).
  struct Bad {
    const char* name;
    int version;
    PacketSpec spec;
    std::function<void(ByteWriter&)> body;
    int only_version = 0;  // 0: v2 and v3
  };
  const std::int64_t s = kStart;
  std::vector<Bad> bad;
  auto spec = [](int version, OcamlInt id_end, std::int64_t tb = kStart,
                 std::int64_t te = kStart + 1000) {
    PacketSpec p;
    p.version = version;
    p.id_end = id_end;
    p.time_begin = tb;
    p.time_end = te;
    return p;
  };
  bad.push_back({"alloc_id_sync", 2, spec(2, 3), [s](ByteWriter& b) { ShortAlloc(b, s + 1); }});
  bad.push_back(
      {"time_outside_packet", 2, spec(2, 1), [s](ByteWriter& b) { ShortAlloc(b, s + 5000); }});
  bad.push_back(
      {"unknown_event_code", 3, spec(3, 0), [s](ByteWriter& b) { WriteEventHeader(b, 117, s); }});
  bad.push_back(
      {"second_trace_info", 3, spec(3, 0), [s](ByteWriter& b) { WriteEventHeader(b, 0, s); }});
  bad.push_back({"non_monotone_times", 2, spec(2, 2), [s](ByteWriter& b) {
                   ShortAlloc(b, s + 10);
                   ShortAlloc(b, s + 9);
                 }});
  bad.push_back({"bad_alloc_source", 3, spec(3, 1), [s](ByteWriter& b) {
                   WriteEventHeader(b, 2, s);
                   b.Vint(10);
                   b.Vint(1);
                   b.U8(3);
                   b.Vint(0);
                   b.U16(0);
                 }});
  bad.push_back({"promote_id_sync", 2, spec(2, 0), [s](ByteWriter& b) {
                   WriteEventHeader(b, 3, s);
                   b.Vint(-1);
                 }});
  bad.push_back({"collect_id_sync", 2, spec(2, 0),
                 [s](ByteWriter& b) {
                   WriteEventHeader(b, 4, s);
                   b.Vint(-5);
                 },
                 2});  // v3 allows it: collect_negative_delta_ok
  bad.push_back({"collect_negative_delta_ok", 3, spec(3, 0),
                 [s](ByteWriter& b) {
                   WriteEventHeader(b, 4, s);
                   b.Vint(-5);
                 },
                 3});
  {
    PacketSpec p = spec(3, 0);
    p.verifier = CacheVerifier{4242, 1, 0};
    bad.push_back({"cache_verification", 3, p, [](ByteWriter&) {}});
  }
  bad.push_back({"inconsistent_location", 3, spec(3, 0), [s](ByteWriter& b) {
                   LocationWriter lw;
                   const std::vector<Location> a = {{"a.ml", 1, 2, 3, "f"}};
                   const std::vector<Location> c = {{"a.ml", 9, 2, 3, "f"}};
                   WriteEventHeader(b, 1, s);
                   lw.Put(b, 77, a);
                   WriteEventHeader(b, 1, s);
                   lw.Put(b, 77, a);
                   WriteEventHeader(b, 1, s);
                   lw.Put(b, 77, c);
                 }});
  bad.push_back({"defname_mtf_empty_slot", 3, spec(3, 0), [s](ByteWriter& b) {
                   WriteEventHeader(b, 1, s);
                   b.U64(5);
                   b.U8(1);
                   const std::uint64_t word =
                       1 | (31ull << kFilenameShift) | (4ull << kDefnameShift);
                   b.U32(static_cast<std::uint32_t>(word));
                   b.U16(static_cast<std::uint16_t>(word >> 32));
                   b.String("new.ml");
                 }});
  bad.push_back({"filename_mtf_empty_slot", 3, spec(3, 0), [s](ByteWriter& b) {
                   WriteEventHeader(b, 1, s);
                   b.U64(5);
                   b.U8(1);
                   const std::uint64_t word = 1 | (6ull << kFilenameShift);
                   b.U32(static_cast<std::uint32_t>(word));
                   b.U16(static_cast<std::uint16_t>(word >> 32));
                 }});
  bad.push_back(
      {"backtrace_off_packet_end", 3, spec(3, 1), [s](ByteWriter& b) { ShortAlloc(b, s, 0, 5); }});
  bad.push_back(
      {"negative_common_prefix", 3, spec(3, 1), [s](ByteWriter& b) { ShortAlloc(b, s, -3, 0); }});
  bad.push_back(
      {"packet_times_reversed", 3, spec(3, 0, kStart + 10, kStart + 5), [](ByteWriter&) {}});
  bad.push_back({"packet_ids_reversed", 3, spec(3, 0), [](ByteWriter&) {}});
  bad.back().spec.id_begin = 5;
  bad.back().spec.id_end = 2;
  bad.push_back({"location_truncated_nlocs", 3, spec(3, 0), [s](ByteWriter& b) {
                   WriteEventHeader(b, 1, s);
                   b.U64(5);
                 }});
  bad.push_back({"backtrace_miss_code_truncated", 3, spec(3, 1), [s](ByteWriter& b) {
                   ShortAlloc(b, s, 0, 1);
                   b.U16(static_cast<std::uint16_t>((7u << 2) | kMiss));
                   b.U32(1);
                 }});
  bad.push_back({"backtrace_hitn_count_truncated", 3, spec(3, 1), [s](ByteWriter& b) {
                   ShortAlloc(b, s, 0, 1);
                   b.U16(static_cast<std::uint16_t>((7u << 2) | kHitN));
                 }});
  bad.push_back({"long_alloc_truncated", 3, spec(3, 1), [s](ByteWriter& b) {
                   WriteEventHeader(b, 2, s);
                   b.Vint(1000);
                   b.U8(253);
                 }});
  bad.push_back({"promote_delta_truncated", 2, spec(2, 0),
                 [s](ByteWriter& b) { WriteEventHeader(b, 3, s); }});
  for (const Bad& m : bad) {
    for (int version : {1, 2, 3}) {
      if (m.only_version != 0 && version != m.only_version &&
          !(version == 1 && m.only_version == 2))
        continue;
      auto base = InfoOnly(version);
      if (!base.ok()) return base.status();
      PacketSpec p = m.spec;
      p.version = version;
      AppendPacket(*base, p, m.body);
      MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_bad_" + m.name,
                              std::string("malformed: ") + m.name, std::move(base)));
      if (std::string_view(m.name) == "negative_common_prefix") {
        DeclareBoth(cases.back(), version, kOobWrite, kNoUb);
      }
    }
  }
  for (int version : {1, 2}) {  // A packet that does not continue the previous one is skipped
                                // (memtrace 0.2.3; v3 restarts ids at every packet).
    Trace t(2);
    t.Alloc(0, 10, 2, 1, AllocationSource::kMinor, {1});
    t.Flush();
    PacketSpec p = spec(2, 9, kStart + 11, kStart + 12);
    p.id_begin = 7;  // should be 1
    AppendPacket(t.raw(), p, [](ByteWriter& b) {
      for (int i = 0; i < 2; ++i) ShortAlloc(b, kStart + 11);
    });
    auto bytes = std::vector<std::uint8_t>(t.raw());
    const std::string v = "v" + std::to_string(version);
    MPO_RETURN_IF_ERROR(add(v + "_discontinuous_packet",
                            "a " + v + " packet whose alloc ids do not continue: skipped",
                            version == 1 ? ToV1(std::move(bytes)) : std::move(bytes)));
  }
  {  // More domains than a reader keeps state for (256): kOutOfRange.
    auto b = InfoOnly(3);
    if (!b.ok()) return b.status();
    for (int d = 1; d <= 257; ++d) {
      PacketSpec p = spec(3, 0);
      p.domain = static_cast<std::uint16_t>(d);
      AppendPacket(*b, p, [](ByteWriter&) {});
    }
    MPO_RETURN_IF_ERROR(add("v3_bad_too_many_domains", "malformed: 258 domains", std::move(b)));
    Declare(cases.back(), Verdicts::kMemtraceHead,
            "keeps state for any number of domains (up to 65536, ~160 KiB each)",
            "the oracle bounds what a trace can make it allocate (ReaderOptions::max_domains)");
  }
  for (int version : {1, 2, 3}) {  // A packet over the 64 KiB cap: kOutOfRange, nothing allocated.
    auto b = InfoOnly(version);
    if (!b.ok()) return b.status();
    const std::size_t at = b->size();
    AppendPacket(*b, spec(version, 0), [](ByteWriter&) {});
    SetPacketSize(*b, at, 80000);
    b->resize(at + 80000, 0);
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_bad_packet_too_large",
                            "malformed: an 80000-byte packet", std::move(b)));
    DeclareBoth(cases.back(), version, kBigPacket, kNoMisread);
  }
  for (int version :
       {1, 2, 3}) {  // A valid packet with a 40000-byte body (memtrace writes <= 32 KiB).
    auto b = InfoOnly(version);
    if (!b.ok()) return b.status();
    constexpr int kAllocs = 40000 / 6;
    ByteWriter w(kAllocs * 6 + 128);
    auto slots = WritePacketHeader(w, version, kPid, 0, CacheVerifier{});
    for (int i = 0; i < kAllocs; ++i) ShortAlloc(w, kStart + 1);
    FinishPacketHeader(w, slots, kStart, kStart + 10, 0, kAllocs);
    b->insert(b->end(), w.bytes().begin(), w.bytes().end());
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_bad_packet_body_over_32k",
                            "a well-formed packet whose body (40000 bytes) exceeds memtrace's "
                            "32 KiB read buffer: strict reads it, the reference modes refuse it",
                            std::move(b)));
    DeclareBoth(cases.back(), version, kBigPacket, kNoMisread);
  }
  for (int version : {1, 2, 3}) {  // A data packet whose size is below its header's.
    auto b = InfoOnly(version);
    if (!b.ok()) return b.status();
    const std::size_t at = b->size();
    AppendPacket(*b, spec(version, 0), [](ByteWriter&) {});
    SetPacketSize(*b, at, 8);
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_bad_packet_size_below_header",
                            "malformed: a data packet declaring 8 bytes", std::move(b)));
    DeclareBoth(cases.back(), version, kLoops, kNoHang);
  }
  for (int version : {1, 2, 3}) {  // An info packet whose size ends inside its strings.
    auto b = InfoOnly(version);
    if (!b.ok()) return b.status();
    const std::size_t size = PacketHeaderSize(version) + 16;
    b->resize(size);
    const std::uint32_t bits = static_cast<std::uint32_t>(size * 8);
    for (int i = 0; i < 4; ++i) (*b)[4 + i] = static_cast<std::uint8_t>(bits >> (8 * i));
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_bad_info_body_short",
                            "malformed: info packet ends in its body", std::move(b)));
  }
  for (int version : {1, 2, 3}) {  // Truncated in the last event.
    auto full = version == 1
                    ? ToV1(v2_forms)
                    : Result<std::vector<std::uint8_t>>(version == 2 ? v2_forms : v3_forms);
    if (!full.ok()) return full.status();
    full->resize(full->size() - 7);
    MPO_RETURN_IF_ERROR(add("v" + std::to_string(version) + "_truncated_last_packet",
                            "v" + std::to_string(version) + "_event_forms without its last 7 bytes",
                            std::move(full)));
  }
  // Header malformations, patched into a valid trace.
  for (int version : {1, 2, 3}) {
    auto base = InfoOnly(version);
    if (!base.ok()) return base.status();
    const std::string v = "v" + std::to_string(version);
    auto patch = [&](const char* name, std::size_t at, std::vector<std::uint8_t> bytes) {
      std::vector<std::uint8_t> b = *base;
      for (std::size_t i = 0; i < bytes.size(); ++i) b[at + i] = bytes[i];
      return add(v + "_bad_" + name, std::string("malformed: ") + name, b);
    };
    MPO_RETURN_IF_ERROR(patch("magic", 0, {0xde, 0xad}));
    MPO_RETURN_IF_ERROR(patch("version_4", 28, {4, 0}));
    MPO_RETURN_IF_ERROR(patch("version_0", 28, {0, 0}));
    MPO_RETURN_IF_ERROR(patch("packet_size_too_small", 4, {8, 0, 0, 0}));
    MPO_RETURN_IF_ERROR(patch("packet_size_past_end", 4, {0, 0, 1, 0}));
    MPO_RETURN_IF_ERROR(patch("packet_size_negative", 4, {0, 0, 0, 0x80}));
    MPO_RETURN_IF_ERROR(patch("info_event_code", PacketHeaderSize(version) + 3, {2 << 1}));
  }
  MPO_RETURN_IF_ERROR(AddVerdictCases(add));
  return cases;
}

}  // namespace mpo::corpus
