#include "core/corpus/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace mpo::corpus {
namespace {

// Items finish out of order (later ones sooner); the results still come in order.
TEST(RunOrdered, ResultsComeInItemOrder) {
  for (std::size_t jobs : {1u, 2u, 4u, 16u}) {
    std::vector<std::size_t> seen;
    std::mutex mu;
    std::set<std::size_t> workers;
    RunOrdered<std::size_t>(
        20, jobs,
        [&](std::size_t worker, std::size_t i) {
          {
            std::lock_guard<std::mutex> lock(mu);
            workers.insert(worker);
          }
          std::this_thread::sleep_for(std::chrono::microseconds(200 * (20 - i) % 1300));
          return i * 10;
        },
        [&](std::size_t i, std::size_t r) {
          EXPECT_EQ(r, i * 10);
          seen.push_back(i);
          return true;
        });
    ASSERT_EQ(seen.size(), 20u) << jobs;
    for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i) << jobs;
    for (std::size_t w : workers) EXPECT_LT(w, jobs) << jobs;
  }
}

// Each worker runs one item at a time: its state needs no lock.
TEST(RunOrdered, AWorkerRunsOneItemAtATime) {
  std::vector<std::atomic<int>> busy(3);
  std::atomic<bool> overlap{false};
  RunOrdered<int>(
      60, 3,
      [&](std::size_t worker, std::size_t) {
        if (busy[worker].fetch_add(1) != 0) overlap = true;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        busy[worker].fetch_sub(1);
        return 0;
      },
      [](std::size_t, int) { return true; });
  EXPECT_FALSE(overlap.load());
}

// Once emit says stop, no item starts any more, and nothing is emitted after it.
TEST(RunOrdered, StopsStartingItemsWhenEmitSaysSo) {
  std::atomic<std::size_t> started{0};
  std::vector<std::size_t> seen;
  RunOrdered<std::size_t>(
      1000, 2,
      [&](std::size_t, std::size_t i) {
        started.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        return i;
      },
      [&](std::size_t i, std::size_t) {
        seen.push_back(i);
        return i < 4;
      });
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_LT(started.load(), 1000u);
}

// However slow the emits, no more than `window` items run ahead of them: a run of a
// billion items holds a few results at a time.
TEST(RunOrdered, NoMoreThanTheWindowRunsAheadOfEmit) {
  for (std::size_t jobs : {1u, 2u, 3u}) {
    std::atomic<std::size_t> started{0};
    const std::size_t window = 5;
    std::size_t emitted = 0;
    RunOrdered<std::size_t>(
        1000000, jobs,
        [&](std::size_t, std::size_t i) {
          started.fetch_add(1);
          return i;
        },
        [&](std::size_t i, std::size_t) {
          std::this_thread::sleep_for(std::chrono::microseconds(300));
          EXPECT_LE(started.load(), i + 1 + window) << jobs;
          return ++emitted < 40;
        },
        window);
    EXPECT_EQ(emitted, 40u);
    EXPECT_LE(started.load(), 40 + window) << jobs;
  }
}

TEST(RunOrdered, NothingToDo) {
  bool called = false;
  RunOrdered<int>(
      0, 4,
      [&](std::size_t, std::size_t) {
        called = true;
        return 0;
      },
      [&](std::size_t, int) {
        called = true;
        return true;
      });
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace mpo::corpus
