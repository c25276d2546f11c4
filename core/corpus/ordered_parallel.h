// Work items run on several threads, their results handed over in item order: how the
// kit runs an implementation on every core and still prints the same report, line for
// line, as a run on one.
//
//   RunOrdered<Result<Verdict>>(cases.size(), jobs,
//       [&](std::size_t worker, std::size_t i) { return Judge(runners[worker], cases[i]); },
//       [&](std::size_t i, Result<Verdict> v) { Print(v); return v.ok(); });
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace mpo::corpus {

// Calls work(worker, i) for every i in [0, n), at most `jobs` at a time, each worker
// (0 <= worker < jobs) running one item after another; calls emit(i, result) on the
// calling thread in the order of i. Once emit returns false, no item is started any
// more; those already running finish and are dropped. work must not throw. With
// jobs <= 1 (or if no thread can be started) everything runs on the calling thread.
// At most `window` items (0: 4 * jobs; at least jobs) are started and not yet emitted, so memory
// stays bounded however large n is and however long an emit takes.
// std threads and locks, not the sync layer's (core/sync): every shared field is used
// under `mu`, with no memory order to choose, so TSan (ordered_parallel_test) suffices.
template <class R, class Work, class Emit>
void RunOrdered(std::size_t n, std::size_t jobs, Work&& work, Emit&& emit, std::size_t window = 0) {
  if (window == 0) window = 4 * jobs;
  if (window < jobs) window = jobs;
  std::mutex mu;
  std::condition_variable ready, room;
  std::deque<std::optional<R>> done;  // items base, base + 1, ...
  std::size_t base = 0;               // the next item to emit
  std::size_t next = 0;
  bool stop = false;
  auto worker = [&](std::size_t w) {
    while (true) {
      std::size_t i = 0;
      {
        std::unique_lock<std::mutex> lock(mu);
        room.wait(lock, [&] { return stop || next == n || next < base + window; });
        if (stop || next == n) return;
        i = next++;
        if (done.size() <= i - base) done.resize(i - base + 1);
      }
      R r = work(w, i);
      {
        std::lock_guard<std::mutex> lock(mu);
        done[i - base].emplace(std::move(r));
      }
      ready.notify_all();
    }
  };
  std::vector<std::thread> threads;
  // Joined however this function is left: the workers use its locals.
  struct Joiner {
    std::vector<std::thread>& threads;
    std::mutex& mu;
    bool& stop;
    std::condition_variable& room;
    ~Joiner() {
      {
        std::lock_guard<std::mutex> lock(mu);
        stop = true;
      }
      room.notify_all();
      for (std::thread& t : threads) t.join();
    }
  } joiner{threads, mu, stop, room};
  const std::size_t wanted = jobs < n ? jobs : n;
  if (wanted > 1) {
    try {
      for (std::size_t w = 0; w < wanted; ++w) threads.emplace_back(worker, w);
    } catch (const std::system_error&) {
      // Fewer threads than asked for (a process or memory limit): those started do it all.
    }
  }
  if (threads.empty()) {
    for (std::size_t i = 0; i < n; ++i)
      if (!emit(i, work(std::size_t{0}, i))) return;
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::unique_lock<std::mutex> lock(mu);
    ready.wait(lock, [&] { return !done.empty() && done.front().has_value(); });
    R r = std::move(*done.front());
    done.pop_front();
    ++base;
    lock.unlock();
    room.notify_all();
    if (!emit(i, std::move(r))) return;
  }
}

}  // namespace mpo::corpus
