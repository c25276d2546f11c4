// A TextSink that writes to another sink from a second thread, so that whoever produces
// text (decoding a trace, choosing what to print) runs on one core while the bytes are
// assembled and written on another. Order is preserved: the inner sink receives exactly
// the bytes written here, in the same order, whatever the thread count.
//
// Two kinds of writes:
// - Write(s) copies s (headers, numbers: short-lived text);
// - WriteStable(s) records only where s is, for text that stays unchanged and alive until
//   Finish() returns (a cache of rendered locations): the producer's cost per piece is
//   then 16 bytes, whatever the text's length.
// Text is handed over in batches of about kBatchBytes through a queue of at most
// kBatchesInFlight batches, so memory is bounded whatever is written; the producer waits
// when the writer falls behind.
//
// threads == 1: no thread; both writes append to one buffer written kBatchBytes at a
// time (the same bytes, for tests and for machines with one core).
//
// Thread safety: one producer thread calls Write/WriteStable/Finish; the inner sink is
// only called from the writer thread (or the producer's, with threads == 1) and is not
// touched after Finish() returns. Finish (or the destructor) must run before any stable
// text is changed or freed.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/base/text_sink.h"

namespace mpo::memtrace {

class PipelinedTextSink : public TextSink {
 public:
  static constexpr std::size_t kBatchBytes = std::size_t{1} << 18;
  static constexpr std::size_t kBatchesInFlight = 4;

  // `threads` is 1 or 2 (other values count as 2); `out` must outlive this sink.
  PipelinedTextSink(TextSink& out, unsigned threads);
  ~PipelinedTextSink() override;
  PipelinedTextSink(const PipelinedTextSink&) = delete;
  PipelinedTextSink& operator=(const PipelinedTextSink&) = delete;

  void Write(std::string_view s) override;
  // Inline: called once per backtrace entry by the dump.
  void WriteStable(std::string_view s) {
    if (!threaded_ || finished_) return Write(s);
    current_.pieces.push_back({s.data(), s.size()});
    current_.bytes += s.size();
    if (current_.bytes >= kBatchBytes) Send();
  }
  // Hands over what is pending and waits until the inner sink has received everything.
  // Idempotent; later writes go straight to the inner sink.
  void Finish();

 private:
  // A piece of output: stable text, or (stable == nullptr) the next `size` bytes of the
  // batch's copy buffer (copied pieces are consumed in order; consecutive ones merge).
  struct Piece {
    const char* stable;
    std::size_t size;
  };
  struct Batch {
    std::string copied;
    std::vector<Piece> pieces;
    std::size_t bytes = 0;  // total size of the pieces
  };

  void Send();         // queues the current batch (waits while the queue is full)
  void WriterLoop();   // the writer thread: assembles and writes batches in order
  void FlushSingle();  // threads == 1: writes the buffer

  TextSink& out_;
  bool threaded_;
  bool finished_ = false;
  std::string single_;  // threads == 1
  Batch current_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Batch> queue_;   // guarded by mu_
  std::vector<Batch> spare_;  // emptied batches for reuse, guarded by mu_
  bool closing_ = false;      // guarded by mu_: no more batches will come
  std::thread writer_;        // last: started once the fields above exist
};

}  // namespace mpo::memtrace
