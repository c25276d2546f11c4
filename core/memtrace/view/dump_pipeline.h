// `memtrace dump --threads 2`: the decoding thread hands decoded events to a second
// thread, which formats all their text (dump_line.h) and writes it.
//
// What crosses threads is a DumpBatch: thousands of DumpRecords (the event's numbers)
// and, per backtrace entry, a pointer to its rendered location text. Those texts live
// in the decoder's cache, where each one is complete before the batch that first points
// to it is handed over and is never changed or moved until Finish() returns (a
// node-based map gives that); a text too large for the cache is copied into the batch.
//
// The hand-off is a ring of kSlots batches that are filled in place and reused, so
// nothing is allocated per event once the vectors have grown. The producer fills the
// slot after the last queued one; the writer empties queued slots in order. One mutex
// guards only the count of queued slots; each side sleeps on its own condition variable
// and is woken only on the transitions it waits for: empty -> not empty (the writer),
// full -> not full (the producer). Memory stays bounded by kSlots batches of at most
// kRecords records and kEntries entries (a deeper backtrace continues in the next batch
// as a DumpKind::kMore record).
//
// Thread safety: one producer thread calls batch(), EndRecord(), Split() and Finish();
// the inner sink is only called from the writer thread and not after Finish() returns.
// The thread and lock are std's, not the sync layer's (core/sync): every shared field is
// read and written under mu_, with no atomic and no memory order to choose, so a model
// would check nothing the lock does not already give; TSan runs dump_threads_test.
#pragma once

#include <array>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/base/text_sink.h"
#include "core/memtrace/view/dump_line.h"

namespace mpo::memtrace {

struct DumpBatch {
  std::vector<DumpRecord> records;
  // Each record's `entries` texts in order; nullptr stands for the next of `copied`.
  std::vector<const std::string*> entries;
  std::vector<std::string> copied;
};

class DumpPipeline {
 public:
  static constexpr std::size_t kSlots = 4;
  static constexpr std::size_t kRecords = 4096;
  static constexpr std::size_t kEntries = std::size_t{1} << 16;

  // `out` must outlive the pipeline; the writer thread starts here. When no thread can be
  // started (a process or memory limit), started() is false and nothing may be sent.
  DumpPipeline(TextSink& out, bool head_format);
  ~DumpPipeline();  // Finish()
  DumpPipeline(const DumpPipeline&) = delete;
  DumpPipeline& operator=(const DumpPipeline&) = delete;

  // The batch being filled: append records and their entries to it.
  DumpBatch& batch() { return slots_[fill_]; }
  // After each complete record: hands the batch over once it holds kRecords records.
  void EndRecord() {
    if (slots_[fill_].records.size() >= kRecords) Send();
  }
  // Inside an alloc record: once the batch holds kEntries entries, ends the current
  // record (without its newline), hands the batch over and starts a kMore record.
  void MaybeSplit() {
    if (slots_[fill_].entries.size() >= kEntries) Split();
  }
  // Hands over what is pending and waits until the writer has written everything.
  // Idempotent.
  void Finish();
  bool started() const { return writer_.joinable(); }

 private:
  void Send();  // queues the slot being filled; waits for a free one
  void Split();
  void WriterLoop();

  TextSink& out_;
  bool head_format_;
  bool finished_ = false;
  std::array<DumpBatch, kSlots> slots_;
  std::size_t fill_ = 0;  // producer only: the slot being filled
  std::mutex mu_;
  std::condition_variable not_empty_;  // the writer waits for queued_ > 0 or closing_
  std::condition_variable not_full_;   // the producer waits for queued_ < kSlots
  // Guarded by mu_. The queued slots are the `queued_` ones before fill_, oldest first;
  // a slot is counted until the writer has emptied it, so the producer never touches a
  // slot the writer may still read.
  std::size_t queued_ = 0;
  bool closing_ = false;  // guarded by mu_: no more batches will come
  std::thread writer_;    // last: started once the fields above exist
};

}  // namespace mpo::memtrace
