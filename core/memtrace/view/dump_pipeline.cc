#include "core/memtrace/view/dump_pipeline.h"

#include <algorithm>
#include <system_error>

namespace mpo::memtrace {

DumpPipeline::DumpPipeline(TextSink& out, bool head_format) : out_(out), head_format_(head_format) {
  for (DumpBatch& b : slots_) {
    b.records.reserve(kRecords);
    b.entries.reserve(kEntries);
  }
  try {
    writer_ = std::thread([this] { WriterLoop(); });
  } catch (const std::system_error&) {
    // Left unstarted: the caller writes the same bytes on its own thread instead.
  }
}

DumpPipeline::~DumpPipeline() { Finish(); }

void DumpPipeline::Send() {
  if (slots_[fill_].records.empty()) return;
  bool was_empty = false;
  {
    std::lock_guard lock(mu_);
    was_empty = queued_++ == 0;
  }
  if (was_empty) not_empty_.notify_one();
  fill_ = (fill_ + 1) % kSlots;
  std::unique_lock lock(mu_);
  not_full_.wait(lock, [this] { return queued_ < kSlots; });
}

void DumpPipeline::Split() {
  // The line goes on in the next batch: whether it then ends is the kMore record's say.
  DumpRecord& cut = slots_[fill_].records.back();
  DumpRecord more;
  more.kind = DumpKind::kMore;
  more.domain = cut.domain;
  more.ends_line = cut.ends_line;
  cut.ends_line = false;
  Send();
  slots_[fill_].records.push_back(more);
}

void DumpPipeline::WriterLoop() {
  DumpLineWriter w(out_, head_format_);
  // Each domain's previous alloc line's entry texts, as the producer's (see `reused`).
  std::vector<std::vector<const std::string*>> previous;
  std::size_t next = 0;  // the oldest queued slot
  for (;;) {
    {
      std::unique_lock lock(mu_);
      not_empty_.wait(lock, [this] { return queued_ > 0 || closing_; });
      if (queued_ == 0) break;  // closing, and every batch was written
    }
    DumpBatch& b = slots_[next];
    std::size_t entry = 0;
    std::size_t copied = 0;
    for (const DumpRecord& r : b.records) {
      w.Header(r);
      if (r.kind == DumpKind::kPromote || r.kind == DumpKind::kCollect) continue;
      if (r.domain >= previous.size()) previous.resize(std::size_t{r.domain} + 1);
      std::vector<const std::string*>& prev = previous[r.domain];
      if (r.kind != DumpKind::kMore) {
        // The producer reuses only entries whose texts it kept (never nullptr here).
        prev.resize(std::min<std::size_t>(r.reused, prev.size()));
        for (const std::string* text : prev) w.Entry(*text);
      }
      for (std::uint32_t i = 0; i < r.entries; ++i) {
        const std::string* text = b.entries[entry++];
        w.Entry(text != nullptr ? *text : b.copied[copied++]);
        prev.push_back(text);
      }
      if (r.ends_line) w.EndLine();
    }
    b.records.clear();
    b.entries.clear();
    b.copied.clear();
    next = (next + 1) % kSlots;
    bool was_full = false;
    {
      std::lock_guard lock(mu_);
      was_full = queued_-- == kSlots;
    }
    if (was_full) not_full_.notify_one();
  }
  w.Flush();
}

void DumpPipeline::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!started()) return;
  Send();
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  not_empty_.notify_one();
  writer_.join();
}

}  // namespace mpo::memtrace
