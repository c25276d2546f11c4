#include "core/memtrace/pipelined_text_sink.h"

#include <utility>

namespace mpo::memtrace {

PipelinedTextSink::PipelinedTextSink(TextSink& out, unsigned threads)
    : out_(out), threaded_(threads != 1) {
  if (threaded_)
    writer_ = std::thread([this] { WriterLoop(); });
  else
    single_.reserve(kBatchBytes);
}

PipelinedTextSink::~PipelinedTextSink() { Finish(); }

void PipelinedTextSink::Write(std::string_view s) {
  if (finished_) return out_.Write(s);
  if (!threaded_) {
    single_.append(s);
    if (single_.size() >= kBatchBytes) FlushSingle();
    return;
  }
  if (!current_.pieces.empty() && current_.pieces.back().stable == nullptr)
    current_.pieces.back().size += s.size();
  else
    current_.pieces.push_back({nullptr, s.size()});
  current_.copied.append(s);
  current_.bytes += s.size();
  if (current_.bytes >= kBatchBytes) Send();
}

void PipelinedTextSink::FlushSingle() {
  if (!single_.empty()) out_.Write(single_);
  single_.clear();
}

void PipelinedTextSink::Send() {
  if (current_.pieces.empty()) return;
  Batch next;
  {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [this] { return queue_.size() < kBatchesInFlight; });
    queue_.push_back(std::move(current_));
    if (!spare_.empty()) {
      next = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  changed_.notify_all();
  current_ = std::move(next);
}

void PipelinedTextSink::WriterLoop() {
  std::string assembled;
  assembled.reserve(2 * kBatchBytes);
  for (;;) {
    Batch b;
    {
      std::unique_lock lock(mu_);
      changed_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing, and everything was written
      b = std::move(queue_.front());
      queue_.pop_front();
    }
    changed_.notify_all();
    assembled.clear();
    std::size_t copied_at = 0;
    for (const Piece& p : b.pieces) {
      if (p.stable != nullptr) {
        assembled.append(p.stable, p.size);
      } else {
        assembled.append(b.copied, copied_at, p.size);
        copied_at += p.size;
      }
    }
    out_.Write(assembled);
    b.copied.clear();
    b.pieces.clear();
    b.bytes = 0;
    std::lock_guard lock(mu_);
    if (spare_.size() < kBatchesInFlight) spare_.push_back(std::move(b));
  }
}

void PipelinedTextSink::Finish() {
  if (finished_) return;
  if (threaded_) {
    Send();
    {
      std::lock_guard lock(mu_);
      closing_ = true;
    }
    changed_.notify_all();
    writer_.join();
  } else {
    FlushSingle();
  }
  finished_ = true;
}

}  // namespace mpo::memtrace
