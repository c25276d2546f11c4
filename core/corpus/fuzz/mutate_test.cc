#include "core/corpus/fuzz/mutate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/corpus/cases.h"
#include "core/corpus/fuzz/mutators.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/fuzz/ring_walk.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::corpus::fuzz {
namespace {

// Built once per test binary: the corpus generators take a while under sanitizers.
const std::vector<SeedInput>& MemtraceSeeds() {
  static const std::vector<SeedInput> seeds = [] {
    auto cases = MemtraceCases();
    EXPECT_TRUE(cases.ok());
    std::vector<SeedInput> seeds;
    for (CaseInput& c : *cases) seeds.push_back({c.name, ".ctf", std::move(c.bytes)});
    return seeds;
  }();
  return seeds;
}

const std::vector<SeedInput>& RingSeeds() {
  static const std::vector<SeedInput> seeds = [] {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/ring_seeds";
    std::filesystem::create_directories(dir);
    auto cases = RingCases(dir);
    EXPECT_TRUE(cases.ok());
    std::vector<SeedInput> seeds;
    // A few are enough (each file is 2 MiB); keep those with events in them.
    for (CaseInput& c : *cases)
      if (seeds.size() < 4 && c.file_name.ends_with(".ocaml-5.3.events"))
        seeds.push_back({c.name, ".ocaml-5.3.events", std::move(c.bytes)});
    return seeds;
  }();
  return seeds;
}

TEST(FuzzRng, IsAPureFunctionOfSeedAndIndex) {
  FuzzRng a(42, 7), b(42, 7), c(42, 8), d(43, 7);
  const auto x = a.Next();
  EXPECT_EQ(x, b.Next());
  EXPECT_NE(x, c.Next());
  EXPECT_NE(x, d.Next());
  EXPECT_EQ(a.Below(0), 0u);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_LT(a.Below(5), 5u);
    const auto v = a.Between(3, 9);
    EXPECT_GE(v, 3u);
    EXPECT_LE(v, 9u);
  }
}

TEST(PacketWalk, CoversAValidTraceAndStopsAtGarbage) {
  std::size_t walked = 0;
  for (const SeedInput& s : MemtraceSeeds()) {
    if (s.name.find("bad") != std::string::npos || s.name.find("trunc") != std::string::npos)
      continue;
    const auto packets = WalkPackets(s.bytes);
    if (packets.empty()) continue;
    ++walked;
    EXPECT_EQ(packets.front().begin, 0u) << s.name;
    for (std::size_t k = 1; k < packets.size(); ++k)
      EXPECT_EQ(packets[k].begin, packets[k - 1].end) << s.name;
    EXPECT_LE(packets.back().end, s.bytes.size());
  }
  EXPECT_GT(walked, 5u);
  const std::vector<std::uint8_t> junk(300, 0xc1);
  EXPECT_TRUE(WalkPackets(junk).empty());
  EXPECT_TRUE(WalkPackets({}).empty());
}

TEST(PacketWalk, LoadAndStoreStayInBounds) {
  std::vector<std::uint8_t> b(6, 0);
  StoreLe(b, 2, 4, 0x11223344);
  EXPECT_EQ(LoadLe(b, 2, 4), 0x11223344u);
  StoreLe(b, 3, 4, 0xffffffff);  // does not fit: nothing written
  EXPECT_EQ(LoadLe(b, 2, 4), 0x11223344u);
  EXPECT_EQ(LoadLe(b, 5, 2), 0u);
  EXPECT_EQ(LoadLe(b, 100, 1), 0u);
}

TEST(MakeMutant, IsDeterministicAndVaried) {
  const auto& seeds = MemtraceSeeds();
  std::set<std::vector<std::uint8_t>> distinct;
  std::set<std::string> first_steps;
  for (std::uint64_t i = 0; i < 300; ++i) {
    const Mutant a = MakeMutant(seeds, FuzzFormat::kMemtrace, 20261122, i);
    const Mutant b = MakeMutant(seeds, FuzzFormat::kMemtrace, 20261122, i);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.chain, b.chain);
    ASSERT_LT(a.seed, seeds.size());
    EXPECT_LE(a.bytes.size(), MaxMutantSize(seeds[a.seed].bytes.size()));
    EXPECT_FALSE(a.chain.empty()) << seeds[a.seed].name;
    EXPECT_LE(a.chain.size(), 4u);
    distinct.insert(a.bytes);
    first_steps.insert(a.chain.front().substr(0, a.chain.front().find(' ')));
  }
  EXPECT_GT(distinct.size(), 250u);
  // Every memtrace mutator shows up as a first step in 300 mutants.
  for (const NamedMutator& m : MutatorsFor(FuzzFormat::kMemtrace))
    EXPECT_TRUE(first_steps.count(m.name)) << m.name;
  EXPECT_TRUE(MakeMutant({}, FuzzFormat::kMemtrace, 1, 1).bytes.empty());
}

// Each mutator alone, many times, on every seed and on hostile little inputs: sizes stay
// bounded (ASan/UBSan in CI check the rest).
void Hammer(FuzzFormat format, const std::vector<SeedInput>& seeds, int rounds) {
  std::vector<SeedInput> inputs = seeds;
  inputs.push_back({"empty", "", {}});
  inputs.push_back({"one", "", {0xc1}});
  inputs.push_back({"magic", "", {0xc1, 0xfc, 0xc1, 0xc1, 0x10, 0x02, 0, 0}});
  for (const NamedMutator& m : MutatorsFor(format)) {
    std::size_t applied = 0;
    // A rewrite reads and writes the whole trace: a few rounds on every seed.
    const int n = m.rewrites ? std::min(rounds, 3) : rounds;
    for (std::size_t s = 0; s < inputs.size(); ++s) {
      for (int r = 0; r < n; ++r) {
        FuzzRng rng(s, static_cast<std::uint64_t>(r));
        std::vector<std::uint8_t> bytes = inputs[s].bytes;
        const std::size_t max = MaxMutantSize(bytes.size());
        MutationContext c{bytes, rng, seeds, format, max, {}};
        if (m.apply(c)) {
          ++applied;
          EXPECT_FALSE(c.note.empty()) << m.name;
        } else {
          EXPECT_EQ(bytes, inputs[s].bytes) << m.name << " declined but changed the input";
        }
        EXPECT_LE(bytes.size(), max) << m.name;
      }
    }
    EXPECT_GT(applied, 0u) << m.name << " never applied";
  }
}

TEST(Mutators, MemtraceMutatorsStayInBounds) { Hammer(FuzzFormat::kMemtrace, MemtraceSeeds(), 40); }

TEST(Mutators, RingMutatorsStayInBounds) { Hammer(FuzzFormat::kRing, RingSeeds(), 10); }

const SeedInput& Seed(const std::string& name) {
  for (const SeedInput& s : MemtraceSeeds())
    if (s.name == name) return s;
  ADD_FAILURE() << "no seed " << name;
  return MemtraceSeeds().front();
}

// The allocs' backtrace lengths of a trace the strict reader reads to its end, with its
// version; fails the test where it does not.
std::vector<std::size_t> ReadAllocs(const std::vector<std::uint8_t>& bytes, int* version) {
  std::vector<std::size_t> out;
  auto r = memtrace::TraceReader::Open(memtrace::MemorySource(bytes));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return out;
  *version = (*r)->version();
  while (const memtrace::Event* e = (*r)->NextEvent())
    if (e->kind == memtrace::EventKind::kAlloc) out.push_back(e->backtrace.size());
  EXPECT_TRUE((*r)->status().ok()) << (*r)->status().ToString();
  return out;
}

std::vector<std::uint8_t> Apply(Mutator m, const SeedInput& seed, std::uint64_t round,
                                std::string* note) {
  std::vector<std::uint8_t> bytes = seed.bytes;
  FuzzRng rng(99, round);
  MutationContext c{bytes, rng, MemtraceSeeds(), FuzzFormat::kMemtrace, MaxMutantSize(bytes.size()),
                    {}};
  EXPECT_TRUE(m(c)) << seed.name;
  *note = c.note;
  return bytes;
}

TEST(Mutators, RewriteVersionWritesV3AsV2AndOlderAsV3) {
  std::string note;
  int version = 0;
  const auto v2 = Apply(RewriteVersion, Seed("v3_multidomain"), 1, &note);
  EXPECT_EQ(note, "v3 as v2");
  const auto allocs = ReadAllocs(v2, &version);
  EXPECT_EQ(version, 2);
  EXPECT_EQ(allocs.size(), 36u);  // 3 domains x 12 rounds, merged into one stream
  const auto v3 = Apply(RewriteVersion, Seed("v1_event_forms"), 1, &note);
  EXPECT_EQ(note, "v1 as v3");
  int before = 0;
  EXPECT_EQ(ReadAllocs(v3, &version), ReadAllocs(Seed("v1_event_forms").bytes, &before));
  EXPECT_EQ(version, 3);
  // A trace the reader cannot open is declined, unchanged.
  std::vector<std::uint8_t> junk = {1, 2, 3};
  FuzzRng rng(1, 1);
  MutationContext c{junk, rng, MemtraceSeeds(), FuzzFormat::kMemtrace, 1 << 16, {}};
  EXPECT_FALSE(RewriteVersion(c));
  EXPECT_EQ(junk, (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST(Mutators, HitNRunAddsARunOfTheLengthItNames) {
  std::set<int> lengths;
  for (std::uint64_t round = 0; round < 12; ++round) {
    std::string note;
    int version = 0;
    const SeedInput& seed = Seed(round % 2 == 0 ? "v2_event_forms" : "v3_empty");
    const auto out = Apply(HitNRun, seed, round, &note);
    ASSERT_EQ(note.rfind("run of ", 0), 0u) << note;
    const int n = std::stoi(note.substr(7));
    lengths.insert(n);
    int seed_version = 0;
    const auto allocs = ReadAllocs(out, &version);
    const auto before = ReadAllocs(seed.bytes, &seed_version);
    EXPECT_EQ(version, 2 + (seed.name[1] == '3'));
    // The run of n + 1 frames written whole twice, and once more as its only piece of
    // misses when it fits in one (300 frames).
    const std::size_t frames = static_cast<std::size_t>(n) + 1;
    EXPECT_EQ(std::count(allocs.begin(), allocs.end(), frames),
              std::count(before.begin(), before.end(), frames) + 2 + (frames <= 300 ? 1 : 0))
        << n;
    EXPECT_EQ(allocs.size(), before.size() + 3 + (frames + 299) / 300) << n;
  }
  EXPECT_GT(lengths.size(), 4u);
  EXPECT_TRUE(std::any_of(lengths.begin(), lengths.end(), [](int n) { return n > 255; }));
}

TEST(Mutators, MtfRefsAddsLocationsTheReaderResolves) {
  for (std::uint64_t round = 0; round < 6; ++round) {
    std::string note;
    int version = 0, seed_version = 0;
    const SeedInput& seed = Seed(round % 2 == 0 ? "v1_mtf_every_slot" : "v3_event_forms");
    const auto out = Apply(MtfRefs, seed, round, &note);
    const std::size_t count = std::stoul(note);
    EXPECT_EQ(ReadAllocs(out, &version).size(),
              ReadAllocs(seed.bytes, &seed_version).size() + count)
        << note;
  }
}

TEST(Mutators, PacketMutatorsMoveWholePackets) {
  for (const SeedInput& s : MemtraceSeeds()) {
    const auto packets = WalkPackets(s.bytes);
    if (packets.size() < 2 || packets.back().end != s.bytes.size()) continue;
    for (std::uint64_t r = 0; r < 10; ++r) {
      std::vector<std::uint8_t> dropped = s.bytes, swapped = s.bytes;
      FuzzRng rng(1, r);
      MutationContext drop{dropped, rng, {}, FuzzFormat::kMemtrace, 1 << 20, {}};
      ASSERT_TRUE(PacketDrop(drop));
      const auto after = WalkPackets(dropped);
      EXPECT_EQ(after.size(), packets.size() - 1) << s.name << " " << drop.note;
      MutationContext swap{swapped, rng, {}, FuzzFormat::kMemtrace, 1 << 20, {}};
      ASSERT_TRUE(PacketSwap(swap));
      EXPECT_EQ(swapped.size(), s.bytes.size());
      EXPECT_EQ(WalkPackets(swapped).size(), packets.size()) << s.name << " " << swap.note;
    }
    return;  // one multi-packet trace is enough
  }
  ADD_FAILURE() << "no seed trace has two packets";
}

TEST(Mutators, HeaderFieldEditsOnlyAHeader) {
  const auto& seeds = MemtraceSeeds();
  for (std::uint64_t r = 0; r < 200; ++r) {
    const SeedInput& s = seeds[r % seeds.size()];
    const auto packets = WalkPackets(s.bytes);
    if (packets.empty()) continue;
    std::vector<std::uint8_t> bytes = s.bytes;
    FuzzRng rng(9, r);
    MutationContext c{bytes, rng, {}, FuzzFormat::kMemtrace, 1 << 20, {}};
    ASSERT_TRUE(HeaderField(c));
    ASSERT_EQ(bytes.size(), s.bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] == s.bytes[i]) continue;
      bool in_header = false;
      for (const PacketSpan& p : packets)
        // The mutator places fields as the reader does: the v2 layout, shifted by the
        // domain field from v3 on (also for versions above 3, which no layout defines).
        in_header |=
            i >= p.begin && i < p.begin + memtrace::kHeaderSizeV2 +
                                    memtrace::DomainShift(memtrace::HasDomainStreams(p.version));
      EXPECT_TRUE(in_header) << s.name << " " << c.note << " changed byte " << i;
    }
  }
}

TEST(RingWalk, FindsLiveEventsAndSurvivesHostileFiles) {
  std::size_t with_events = 0;
  for (const SeedInput& s : RingSeeds()) {
    const RingMap map = MapRing(s.bytes);
    EXPECT_FALSE(map.hot.empty());
    for (const ByteRange& r : map.hot) {
      EXPECT_LT(r.begin, r.end);
      EXPECT_LE(r.end, s.bytes.size());
    }
    for (const RingDomain& d : map.domains) {
      with_events += d.events.empty() ? 0 : 1;
      for (std::size_t at : d.events) EXPECT_LE(at + 8, s.bytes.size());
    }
  }
  EXPECT_GT(with_events, 0u);
  // Random geometry words: never out of bounds.
  for (std::uint64_t r = 0; r < 2000; ++r) {
    FuzzRng rng(5, r);
    std::vector<std::uint8_t> b(rng.Between(0, 2048));
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.Next());
    if (b.size() >= 64 && rng.Chance(1, 2)) {
      StoreLe(b, 8, 8, rng.Below(4));          // max_domains
      StoreLe(b, 16, 8, 16 + rng.Below(80));   // ring header size
      StoreLe(b, 32, 8, 1u << rng.Below(7));   // ring words
      StoreLe(b, 40, 8, 64);                   // headers
      StoreLe(b, 48, 8, 64 + rng.Below(400));  // data
    }
    const RingMap map = MapRing(b);
    for (const ByteRange& h : map.hot) EXPECT_LE(h.end, b.size());
  }
}

}  // namespace
}  // namespace mpo::corpus::fuzz
