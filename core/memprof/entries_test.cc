#include "core/memprof/entries.h"

#include <gtest/gtest.h>

namespace mpo::memprof {
namespace {

std::size_t AddPlain(EntriesTable& t, BlockAddr block, bool young = false) {
  return t.Add(block, nullptr, 2, 1, AllocationSource::kNormal, young, false);
}

TEST(EntryTest, FitsInSixWords) { EXPECT_LE(sizeof(Entry), 48u); }

TEST(EntriesTableTest, UnusedTableAllocatesNothing) {
  EntriesTable t(kMinDomainCapacity);
  t.Ensure(0);
  EXPECT_EQ(t.capacity(), 0u);
}

TEST(EntriesTableTest, GrowsByTwoFromMinimum) {
  EntriesTable t(kMinThreadCapacity);
  AddPlain(t, 100);
  EXPECT_EQ(t.capacity(), 16u);
  for (int i = 1; i < 16; ++i) AddPlain(t, 100 + i);
  EXPECT_EQ(t.capacity(), 16u);
  AddPlain(t, 200);  // 17 entries needed -> 34
  EXPECT_EQ(t.capacity(), 34u);
  EXPECT_TRUE(t.CheckInvariants().ok()) << t.CheckInvariants().ToString();
}

TEST(EntriesTableTest, ShrinksOnlyWhenFourTimesTooLarge) {
  EntriesTable t(kMinThreadCapacity);
  for (int i = 0; i < 100; ++i) AddPlain(t, 100 + i);
  const std::size_t big = t.capacity();
  EXPECT_GE(big, 100u);
  // Delete down to 60 entries: 4*60 >= capacity, no shrink.
  for (int i = 60; i < 100; ++i) t.Delete(i);
  t.Evict();
  EXPECT_EQ(t.size(), 60u);
  EXPECT_EQ(t.capacity(), big);
  for (int i = 10; i < 60; ++i) t.Delete(i);
  t.Evict();
  EXPECT_EQ(t.size(), 10u);
  EXPECT_EQ(t.capacity(), 20u);
  for (int i = 0; i < 10; ++i) t.Delete(i);
  t.Evict();
  EXPECT_EQ(t.capacity(), 16u);  // never below the minimum once used
}

TEST(EntriesTableTest, EvictKeepsOrderHintsAndRunner) {
  EntriesTable t(kMinThreadCapacity);
  for (int i = 0; i < 6; ++i) AddPlain(t, 100 + i);
  RunningSlot slot{&t, 4, 7};
  t.at(4).runner = &slot;
  t.set_active(3);
  t.Delete(1);
  t.Delete(2);
  EXPECT_LE(t.evict(), 1u);
  t.Evict();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.at(0).block, 100u);
  EXPECT_EQ(t.at(1).block, 103u);
  EXPECT_EQ(t.at(2).block, 104u);
  EXPECT_EQ(slot.index, 2u);
  EXPECT_EQ(t.active(), 1u);  // entry 3 moved to index 1
  EXPECT_EQ(t.evict(), 4u);
  EXPECT_TRUE(t.CheckInvariants().ok()) << t.CheckInvariants().ToString();
  t.at(2).runner = nullptr;
}

TEST(EntriesTableTest, ClearOffsetsFakesDeallocOnlyAfterAllocCallback) {
  EntriesTable t(kMinThreadCapacity);
  t.Add(3, std::make_unique<Callstack>(), 2, 1, AllocationSource::kNormal, true, true);
  t.Add(6, std::make_unique<Callstack>(), 2, 1, AllocationSource::kNormal, true, true);
  (void)t.Unstash(1);
  t.at(1).Set(entry_bits::CalledBit(CallbackKind::kAlloc), true);
  t.set_active(2);
  t.ClearOffsets();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(t.at(0).deallocated());
  EXPECT_FALSE(t.at(0).offset());
  EXPECT_EQ(t.at(0).block, kNoBlock);
  EXPECT_EQ(t.active(), 0u);
}

TEST(EntriesTableTest, TransferDropsUncalledAndMovesRunner) {
  EntriesTable from(kMinThreadCapacity);
  EntriesTable to(kMinDomainCapacity);
  AddPlain(to, 50);
  to.MarkAllOld();
  to.set_active(1);
  AddPlain(from, 100, true);  // never called: dropped
  AddPlain(from, 101, true);
  from.at(1).Set(entry_bits::CalledBit(CallbackKind::kAlloc), true);
  RunningSlot slot{&from, 1, 0};
  from.at(1).runner = &slot;
  from.TransferTo(to);
  EXPECT_EQ(from.size(), 0u);
  EXPECT_EQ(slot.table, &to);
  to.Evict();
  ASSERT_EQ(to.size(), 2u);
  EXPECT_EQ(to.at(1).block, 101u);
  EXPECT_EQ(slot.index, 1u);
  EXPECT_EQ(to.young(), 1u);  // the transferred entries are possibly young
  to.at(1).runner = nullptr;
  EXPECT_TRUE(to.CheckInvariants().ok()) << to.CheckInvariants().ToString();
}

TEST(EntriesTableTest, ClearInactiveKeepsRunningEntries) {
  EntriesTable t(kMinOrphanCapacity);
  for (int i = 0; i < 4; ++i) AddPlain(t, 100 + i);
  RunningSlot slot{&t, 2, 0};
  t.at(2).runner = &slot;
  t.ClearInactive();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(slot.index, 0u);
  EXPECT_EQ(t.at(0).block, 102u);
  t.at(0).runner = nullptr;
}

TEST(EntriesTableTest, InvariantCheckerCatchesBadHints) {
  EntriesTable t(kMinThreadCapacity);
  AddPlain(t, 100);
  AddPlain(t, 101);
  t.set_active(1);
  t.Delete(0);
  EXPECT_TRUE(t.CheckInvariants().ok()) << t.CheckInvariants().ToString();
  t.set_active(5);
  EXPECT_FALSE(t.CheckInvariants().ok());
}

// Refuses every growth while `refuse` is set; counts what it was asked.
struct SwitchGate final : CHeapGate {
  bool refuse = false;
  int asked = 0;
  bool Allow(CHeapSite site) override {
    EXPECT_EQ(site, CHeapSite::kEntries);
    ++asked;
    return !refuse;
  }
};

TEST(EntriesTableTest, RefusedGrowthDropsTheNewEntryAndItsStash) {
  SwitchGate gate;
  EntriesTable t(kMinThreadCapacity, &gate);
  for (int i = 0; i < 16; ++i) AddPlain(t, 100 + i);
  gate.refuse = true;
  auto stash = std::make_unique<Callstack>();
  stash->frames = {1, 2, 3};
  EXPECT_EQ(t.Add(200, std::move(stash), 2, 1, AllocationSource::kNormal, false, false),
            kInvalidIndex);  // under ASan, a leaked stash would fail this test
  EXPECT_EQ(t.size(), 16u);
  EXPECT_EQ(t.capacity(), 16u);
  EXPECT_TRUE(t.CheckInvariants().ok()) << t.CheckInvariants().ToString();
  gate.refuse = false;
  EXPECT_EQ(AddPlain(t, 201), 16u);
}

TEST(EntriesTableTest, RefusedTransferMovesNothing) {
  SwitchGate gate;
  EntriesTable from(kMinThreadCapacity, &gate), to(kMinDomainCapacity, &gate);
  AddPlain(from, 100);
  from.at(0).Set(entry_bits::CalledBit(CallbackKind::kAlloc), true);
  gate.refuse = true;
  EXPECT_FALSE(from.TransferTo(to));
  EXPECT_EQ(from.size(), 1u);
  EXPECT_EQ(to.size(), 0u);
  gate.refuse = false;
  EXPECT_TRUE(from.TransferTo(to));
  EXPECT_EQ(to.size(), 1u);
}

TEST(EntriesTableTest, PreSizedDestinationKeepsItsRoomAcrossTransfers) {
  SwitchGate gate;
  EntriesTable first(kMinDomainCapacity, &gate), second(kMinThreadCapacity, &gate);
  EntriesTable to(kMinOrphanCapacity, &gate);
  for (int i = 0; i < 8; ++i) AddPlain(first, 100 + i);
  for (int i = 0; i < 9; ++i) AddPlain(second, 200 + i);
  for (EntriesTable* t : {&first, &second}) {
    for (std::size_t i = 0; i < t->size(); ++i) {
      t->at(i).Set(entry_bits::CalledBit(CallbackKind::kAlloc), true);
    }
  }
  ASSERT_TRUE(to.Ensure(17));
  const std::size_t capacity = to.capacity();
  gate.refuse = true;  // pre-sized: neither transfer may need the C heap
  EXPECT_TRUE(first.TransferTo(to));
  EXPECT_EQ(to.capacity(), capacity);
  EXPECT_TRUE(second.TransferTo(to));
  EXPECT_EQ(to.size(), 17u);
  EXPECT_TRUE(to.CheckInvariants().ok()) << to.CheckInvariants().ToString();
}

TEST(EntriesTableTest, ShrinkingNeverAsksTheGate) {
  SwitchGate gate;
  EntriesTable t(kMinThreadCapacity, &gate);
  for (int i = 0; i < 100; ++i) AddPlain(t, 100 + i);
  const int asked = gate.asked;
  gate.refuse = true;
  for (std::size_t i = 0; i < 99; ++i) t.Delete(i);
  t.Evict();
  EXPECT_EQ(gate.asked, asked);
  EXPECT_LT(t.capacity(), 100u);
  EXPECT_TRUE(t.CheckInvariants().ok()) << t.CheckInvariants().ToString();
}

}  // namespace
}  // namespace mpo::memprof
