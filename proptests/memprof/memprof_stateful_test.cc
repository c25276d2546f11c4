// RapidCheck stateful test: random operation sequences (allocations of every kind,
// collections, compaction, start/stop/discard, callbacks that keep, drop, raise, stop,
// restart or discard, threads and domains coming and going) run against the abstract
// model of harness.h. A failing sequence is shrunk and printed one op per line.
//
// The engine is the correct one unless MPO_MEMPROF_FAULTS names a mutant
// (core/memprof/mutants.h): then the property must fail (stateful_mutants_caught_test).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "core/base/faults.h"
#include "core/memprof/mutants.h"
#include "proptests/memprof/harness.h"
#include "proptests/memprof/harness_impl.h"

namespace mpo::memprof::harness {

void showValue(const Op& op, std::ostream& os) { os << op; }

namespace {

// More cases and longer sequences than RapidCheck's defaults. Keys already in RC_PARAMS win,
// so CI's fixed seed does not take the case count back to RapidCheck's 100.
bool AddDefaultParams() {
  const char* set = std::getenv("RC_PARAMS");
  std::string params = set != nullptr ? set : "";
  for (std::string_view key_value : {"max_success=3000", "max_size=150"}) {
    const std::string_view key = key_value.substr(0, key_value.find('='));
    if (params.find(key) == std::string::npos) params.append(" ").append(key_value);
  }
  return setenv("RC_PARAMS", params.c_str(), 1) == 0;
}
const bool kParamsSet = AddDefaultParams();

// Allocations, armed callbacks and collections dominate; lifecycle ops stay frequent
// enough that threads and domains come and go in most runs.
rc::Gen<int> GenKind() {
  using K = OpKind;
  auto w = [](K k, int weight) { return std::make_pair(weight, static_cast<int>(k)); };
  return rc::gen::weightedElement<int>(
      {w(K::kAllocCaml, 8), w(K::kAllocSmallC, 3), w(K::kAllocMajor, 3), w(K::kRelease, 4),
       w(K::kPoll, 4), w(K::kMinorGc, 3), w(K::kMajorGc, 2), w(K::kCompact, 1), w(K::kStart, 2),
       w(K::kStop, 2), w(K::kDiscard, 1), w(K::kArm, 5), w(K::kNewThread, 1),
       w(K::kSwitchThread, 2), w(K::kEndThread, 1), w(K::kNewDomain, 1), w(K::kSwitchDomain, 2),
       w(K::kEndDomain, 1), w(K::kFailCHeap, 1)});
}

rc::Gen<Op> GenOp() {
  return rc::gen::map(
      rc::gen::tuple(GenKind(), rc::gen::arbitrary<std::uint8_t>(),
                     rc::gen::arbitrary<std::uint8_t>()),
      [](const std::tuple<int, std::uint8_t, std::uint8_t>& t) {
        return Op{static_cast<OpKind>(std::get<0>(t)), std::get<1>(t), std::get<2>(t)};
      });
}

// Sequences that start a profile first, so most runs sample something.
rc::Gen<std::vector<Op>> GenOps() {
  return rc::gen::map(rc::gen::container<std::vector<Op>>(GenOp()), [](std::vector<Op> ops) {
    ops.insert(ops.begin(), Op{OpKind::kStart, 0, 0});
    return ops;
  });
}

// The fault policy the property runs on: MPO_MEMPROF_FAULTS, or the correct engine.
std::string_view FaultsName() {
  const char* name = std::getenv("MPO_MEMPROF_FAULTS");
  return name != nullptr && *name != '\0' ? name : faults::kNoFaultsName;
}

std::string Describe(const RunReport& r) {
  std::ostringstream os;
  for (const auto& v : r.violations) os << v << "\n";
  return os.str();
}

RC_GTEST_PROP(MemprofStateful, ModelHoldsForAnySequence, ()) {
  (void)kParamsSet;
  const std::vector<Op> ops = *GenOps();
  RunReport report;
  const bool known = faults::WithFaultNamed<NoFaults, Mutants>(
      FaultsName(), [&]<class Faults>() { report = harness::Run<Faults>(ops); });
  RC_ASSERT(known);  // MPO_MEMPROF_FAULTS names no fault policy
  RC_CLASSIFY(report.tracks > 0, "tracked something");
  if (!report.violations.empty()) {
    RC_LOG() << "ops:\n";
    for (const Op& op : ops) RC_LOG() << "  " << op << "\n";
    RC_LOG() << "violations:\n" << Describe(report);
  }
  RC_ASSERT(report.violations.empty());
}

// The harness itself catches what it claims to: a deliberately wrong model
// expectation (every track ended without dealloc) shows up as violations.
TEST(MemprofStateful, ConservationIsChecked) {
  const Op ops[] = {{OpKind::kStart, 0, 0}, {OpKind::kAllocCaml, 2, 3}, {OpKind::kPoll, 0, 0}};
  const RunReport report = harness::Run(ops);
  EXPECT_TRUE(report.violations.empty()) << Describe(report);
  EXPECT_GT(report.tracks, 0u);
  EXPECT_GT(report.callbacks, report.tracks);  // allocation and deallocation callbacks
}

TEST(MemprofStateful, OpsPrintReadably) {
  std::ostringstream os;
  os << Op{OpKind::kArm, 4, 0} << " " << Op{OpKind::kAllocCaml, 1, 9} << " "
     << Op{OpKind::kFailCHeap, 2, 9};
  EXPECT_EQ(os.str(),
            "Arm(restart) AllocCaml(subs=2, seed=9) FailCHeap(site=orphan_table, skip=1)");
}

TEST(MemprofStateful, RegressionSequences) {
  // Restart inside a combined allocation, then the domain ends with orphans.
  const Op a[] = {{OpKind::kStart, 0, 0},        {OpKind::kNewDomain, 0, 0},
                  {OpKind::kSwitchDomain, 1, 0}, {OpKind::kArm, 4, 0},
                  {OpKind::kAllocCaml, 3, 5},    {OpKind::kSwitchDomain, 0, 0},
                  {OpKind::kEndDomain, 1, 0},    {OpKind::kMinorGc, 0, 0}};
  RunReport r = harness::Run(a);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  // Exception in a combined allocation, discard in a dealloc callback.
  const Op b[] = {{OpKind::kStart, 0, 0}, {OpKind::kArm, 1, 0},        {OpKind::kArm, 0, 0},
                  {OpKind::kArm, 2, 0},   {OpKind::kAllocCaml, 3, 1},  {OpKind::kStop, 0, 0},
                  {OpKind::kArm, 5, 0},   {OpKind::kAllocMajor, 0, 3}, {OpKind::kMajorGc, 0, 0},
                  {OpKind::kPoll, 0, 0},  {OpKind::kDiscard, 0, 0}};
  r = harness::Run(b);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  // A block held only by user data, through promotion, compaction and a major GC.
  const Op c[] = {{OpKind::kStart, 0, 0},   {OpKind::kArm, 6, 0},     {OpKind::kAllocMajor, 0, 0},
                  {OpKind::kMinorGc, 0, 0}, {OpKind::kCompact, 0, 0}, {OpKind::kMajorGc, 0, 0},
                  {OpKind::kPoll, 0, 0}};
  r = harness::Run(c);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  EXPECT_EQ(r.tracks, 1u);
  // C-heap refusals: a dropped sample, then a thread ending with a called-back entry
  // (the poll stopped at an exception) and no room in its domain's table: lost.
  const Op d[] = {
      {OpKind::kStart, 0, 0},     {OpKind::kFailCHeap, 0, 0},    {OpKind::kAllocMajor, 0, 0},
      {OpKind::kNewThread, 0, 0}, {OpKind::kSwitchThread, 1, 0}, {OpKind::kArm, 0, 0},
      {OpKind::kArm, 2, 0},       {OpKind::kAllocMajor, 0, 1},   {OpKind::kAllocMajor, 0, 2},
      {OpKind::kPoll, 0, 0},      {OpKind::kSwitchThread, 0, 0}, {OpKind::kFailCHeap, 0, 0},
      {OpKind::kEndThread, 1, 0}};
  r = harness::Run(d);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  EXPECT_EQ(r.tracks, 2u);  // the first sample was dropped
}

}  // namespace
}  // namespace mpo::memprof::harness
