// The reader's unchecked cursor changes nothing but speed: every corpus case and every
// real trace in ../shared/testdata, decoded with the fast path on (TraceReader) and off
// (the same reader with kFastPath false), gives the same events, offsets, warnings and
// error, in every verdict mode, with and without backtraces, through NextEvent and
// through NextCheckedEvent with its canonical verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/verdicts.h"
#include "core/corpus/mutant_harness.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/faults.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_reader_impl.h"
#include "testing/shared_testdata.h"

namespace mpo::memtrace {

// The correct reader without its fast path: every event through the checked cursor.
struct CheckedOnly : NoFaults {
  static constexpr bool kFastPath = false;
};
template class BasicTraceReader<CheckedOnly>;

namespace {

static_assert(NoFaults::kFastPath, "TraceReader is the reader with the fast path");

struct Way {
  Verdicts mode;
  bool backtraces;
  bool checked;  // NextCheckedEvent with check_canonical
};

template <class Faults>
std::unique_ptr<BasicTraceReader<Faults>> OpenWith(const std::vector<std::uint8_t>& bytes,
                                                   const Way& way, std::string* open_error) {
  ReaderOptions options;
  options.rules = RulesOf(way.mode).memtrace;
  options.parse_backtraces = way.backtraces;
  options.check_canonical = way.checked;
  auto r = BasicTraceReader<Faults>::Open(MemorySource(bytes), options);
  if (!r.ok()) {
    *open_error = r.status().ToString();
    return nullptr;
  }
  return std::move(*r);
}

template <class Faults>
const Event* NextOf(BasicTraceReader<Faults>& r, const Way& way) {
  return way.checked ? r.NextCheckedEvent() : r.NextEvent();
}

// "<label> `a` vs `b`", for the failure messages.
std::string Versus(const char* label, const std::string& a, const std::string& b) {
  std::string out = label;
  out.append(a).append(" vs ").append(b);
  return out;
}

std::string Describe(const Event& e, std::uint64_t offset) {
  std::ostringstream out;
  out << "event at " << offset << ": kind " << static_cast<int>(e.kind) << " time " << e.time
      << " id " << e.obj_id << " domain " << e.domain << " length " << e.length << " nsamples "
      << e.nsamples << " source " << static_cast<int>(e.source) << " common " << e.common_prefix
      << " frames " << e.backtrace.size();
  return out.str();
}

// Where the two decodes of `bytes` first differ (events, offsets, canonical verdicts,
// errors and warnings; both carry on past errors as --keep-going does, so that the
// state an error leaves is compared too); "" when they do not. `*failed`: the decode
// ended in an error.
std::string FirstDifference(const std::vector<std::uint8_t>& bytes, const Way& way, bool* failed) {
  std::string open_fast, open_checked;
  auto fast = OpenWith<NoFaults>(bytes, way, &open_fast);
  auto checked = OpenWith<CheckedOnly>(bytes, way, &open_checked);
  if (fast == nullptr || checked == nullptr) {
    *failed = true;
    return open_fast == open_checked ? "" : Versus("open: ", open_fast, open_checked);
  }
  *failed = false;
  for (int skips = 0; skips < 64; ++skips) {
    while (true) {
      const Event* a = NextOf(*fast, way);
      const Event* b = NextOf(*checked, way);
      if (a == nullptr || b == nullptr) {
        if (a != b) return "one decode ended before the other";
        break;
      }
      const std::string da = Describe(*a, fast->event_offset());
      const std::string db = Describe(*b, checked->event_offset());
      if (da != db || !std::equal(a->backtrace.begin(), a->backtrace.end(), b->backtrace.begin(),
                                  b->backtrace.end()))
        return Versus("fast/checked: ", da, db);
      if (fast->packet_offset() != checked->packet_offset() ||
          (way.checked && fast->canonical() != checked->canonical()))
        return Versus("packet or canonical verdict differs: ", da, db);
    }
    const std::string ea = fast->status().ToString();
    const std::string eb = checked->status().ToString();
    if (ea != eb) return Versus("error: fast/checked: ", ea, eb);
    if (!fast->status().ok()) *failed = true;
    const bool sa = fast->SkipToNextPacket();
    if (sa != checked->SkipToNextPacket()) return "SkipToNextPacket differs";
    if (!sa) break;
  }
  const auto& wa = fast->warnings();
  const auto& wb = checked->warnings();
  if (wa.size() != wb.size()) return "warning counts differ";
  for (std::size_t i = 0; i < wa.size(); ++i)
    if (wa[i].offset != wb[i].offset || wa[i].message != wb[i].message)
      return Versus("warning differs: ", wa[i].message, wb[i].message);
  if (fast->packets_read() != checked->packets_read()) return "packet counts differ";
  if (way.checked && fast->canonical() != checked->canonical()) return "canonical() differs";
  return "";
}

std::vector<Way> AllWays() {
  std::vector<Way> ways;
  for (const Verdicts mode : AllVerdicts()) {
    if (!ModeOf(mode).memtrace) continue;
    ways.push_back({mode, true, false});
    ways.push_back({mode, false, false});
    ways.push_back({mode, true, true});
  }
  return ways;
}

// The first way whose decodes differ, and how; "" when none. `*failed`: the strict decode
// ended in an error.
std::string Disagreement(const std::vector<std::uint8_t>& bytes, bool* failed = nullptr) {
  const std::vector<Way> ways = AllWays();
  for (const Way& way : ways) {
    bool way_failed;
    const std::string diff = FirstDifference(bytes, way, &way_failed);
    if (failed != nullptr && &way == &ways.front()) *failed = way_failed;
    if (!diff.empty()) {
      std::string out(VerdictsName(way.mode));
      out.append(way.backtraces ? "" : " no-backtraces").append(way.checked ? " checked" : "");
      return out.append(": ").append(diff);
    }
  }
  return "";
}

TEST(FastPath, CorpusCasesDecodeTheSame) {
  const auto cases = corpus::mutant_harness::LoadCases("memtrace", ".ctf");
  ASSERT_GT(cases.size(), 50u);
  std::size_t errors = 0;
  for (const auto& c : cases) {
    bool failed;
    EXPECT_EQ(Disagreement(c.bytes, &failed), "") << c.name;
    if (failed) ++errors;
  }
  std::cout << cases.size() << " corpus cases, " << errors
            << " of them ending in an error, decode the same with and without the fast path\n";
  // The corpus reaches the error paths, and the valid cases too.
  EXPECT_GT(errors, 10u);
  EXPECT_LT(errors, cases.size());
}

std::vector<std::uint8_t> Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FastPath, RealTracesDecodeTheSame) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  std::vector<std::filesystem::path> traces;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".ctf")
      traces.push_back(entry.path());
  std::sort(traces.begin(), traces.end());
  ASSERT_FALSE(traces.empty()) << "no .ctf trace under " << dir;
  for (const auto& path : traces) {
    const std::vector<std::uint8_t> bytes = Slurp(path);
    EXPECT_EQ(Disagreement(bytes), "") << path;
  }
  std::cout << traces.size() << " real traces decode the same with and without the fast path\n";
}

// Real bytes, broken: each of the first 2 KiB of a small real trace changed in turn, so
// that the fast path's declines meet every field.
TEST(FastPath, BrokenRealTraceDecodesTheSame) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  const auto path = std::filesystem::path(dir) / "memtrace" / "deep_exn.ocaml4.13.native.r1e-3.ctf";
  const std::vector<std::uint8_t> bytes = Slurp(path);
  ASSERT_GT(bytes.size(), 2048u) << path;
  const Way way{Verdicts::kStrict, true, true};
  std::size_t failed_count = 0;
  for (std::size_t i = 0; i < 2048; ++i) {
    for (const std::uint8_t flip : {0x01, 0xff}) {
      std::vector<std::uint8_t> broken = bytes;
      broken[i] ^= flip;
      bool failed;
      ASSERT_EQ(FirstDifference(broken, way, &failed), "")
          << "byte " << i << " ^ " << static_cast<int>(flip);
      if (failed) ++failed_count;
    }
  }
  std::cout << failed_count
            << " of 4096 broken traces end in an error, the same with and "
               "without the fast path\n";
  EXPECT_GT(failed_count, 100u);
}

}  // namespace
}  // namespace mpo::memtrace
