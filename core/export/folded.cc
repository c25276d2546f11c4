#include "core/export/folded.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/memtrace/analysis/backtrace_frames.h"
#include "core/memtrace/analysis/collapse_recursion.h"
#include "core/memtrace/analysis/folded_order.h"
#include "core/memtrace/analysis/site_attribution.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/location_codec.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::exporter {
namespace {

using memtrace::LimitExceeded;
using memtrace::Limits;
using memtrace::OcamlInt;

constexpr std::uint32_t kRoot = 0;
constexpr std::uint32_t kNone = 0xffffffff;

// The stack tree: node 0 is the empty stack; a child adds one frame (an id of a
// rendered frame name, so that codes rendering alike share nodes).
class StackTree {
 public:
  StackTree() { nodes_.push_back(Node{kNone, kNone, kNone, kNone, 0}); }
  // The child of `parent` for `frame`, created if new; kNone past `max_nodes`.
  std::uint32_t Child(std::uint32_t parent, std::uint32_t frame, std::uint64_t max_nodes) {
    if (!slots_.empty()) {
      const std::size_t mask = slots_.size() - 1;
      for (std::size_t i = Slot(parent, frame, mask);; i = (i + 1) & mask) {
        const std::uint32_t s = slots_[i];
        if (s == 0) break;
        if (nodes_[s].parent == parent && nodes_[s].frame == frame) return s;
      }
    }
    if (nodes_.size() > max_nodes || nodes_.size() >= kNone) return kNone;
    if (nodes_.size() * 2 > slots_.size()) Grow();
    const auto id = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(Node{parent, frame, kNone, nodes_[parent].first_child, 0});
    nodes_[parent].first_child = id;
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = Slot(parent, frame, mask);
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = id;
    return id;
  }
  struct Node {
    std::uint32_t parent;
    std::uint32_t frame;
    std::uint32_t first_child;
    std::uint32_t next_sibling;
    std::uint64_t count;
  };
  std::vector<Node>& nodes() { return nodes_; }

 private:
  static std::size_t Slot(std::uint32_t parent, std::uint32_t frame, std::size_t mask) {
    const std::uint64_t k = (std::uint64_t{parent} << 32) | frame;
    return static_cast<std::size_t>((k * kGoldenGamma) >> 32) & mask;
  }
  void Grow() {
    std::vector<std::uint32_t> grown(slots_.empty() ? 1024 : slots_.size() * 2, 0);
    const std::size_t mask = grown.size() - 1;
    for (std::uint32_t id = 1; id < nodes_.size(); ++id) {
      std::size_t i = Slot(nodes_[id].parent, nodes_[id].frame, mask);
      while (grown[i] != 0) i = (i + 1) & mask;
      grown[i] = id;
    }
    slots_.swap(grown);
  }
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> slots_;  // node id, 0 = empty; load factor <= 1/2
};

std::string Clean(std::string s) {
  for (char& c : s)
    if (c == ';' || c == '\n' || c == '\r') c = '_';
  return s;
}

// Frame names, interned; each code's frame ids (outermost first) computed once.
class FrameNames {
 public:
  FrameNames(const memtrace::TraceReader& r, const Limits& limits, bool functions)
      : r_(r), limits_(limits), functions_(functions), bytes_left_(limits.max_location_bytes) {}
  // The frame ids of `code` (none for a code whose location holds no frame), or nullptr
  // past max_location_bytes.
  const std::vector<std::uint32_t>* Of(OcamlInt code) {
    auto it = by_code_.find(code);
    if (it != by_code_.end()) return &it->second;
    std::vector<std::uint32_t> ids;
    // The view has checked that `code` is defined; it may still hold no frame, and then
    // contributes none.
    const memtrace::StringInterner& s = r_.strings();
    // Caller first, as the rest of the stack (backtrace_frames.h).
    for (const memtrace::CompactFrame& frame : memtrace::analysis::EntryFrames(r_, code)) {
      const memtrace::CompactFrame* f = &frame;
      // Codes share frames (and their long names): render and hash each once.
      const FrameKey key =
          functions_ ? FrameKey{0, f->defname, 0} : FrameKey{f->filename, f->defname, f->line};
      if (auto known = by_frame_.find(key); known != by_frame_.end()) {
        ids.push_back(known->second);
        continue;
      }
      std::string name(s.Get(f->defname));
      if (!functions_)
        name += " (" + std::string(s.Get(f->filename)) + ":" + std::to_string(f->line) + ")";
      if (!Add(Clean(std::move(name)), &ids)) return nullptr;
      if (memtrace::analysis::IsTracerFrame(s.Get(f->defname))) tracer_.insert(ids.back());
      by_frame_.emplace(key, ids.back());
    }
    return &by_code_.emplace(code, std::move(ids)).first->second;
  }
  std::string_view Name(std::uint32_t id) const { return names_.Get(id); }
  // Whether frame `id` is one of memtrace's tracer frames (site_attribution.h).
  bool Tracer(std::uint32_t id) const { return tracer_.contains(id); }
  Status Exceeded() const {
    return LimitExceeded("rendered frame names", limits_.max_location_bytes,
                         "--max-location-bytes");
  }
  // The id of `name` if it is already known (no budget needed).
  std::uint32_t Intern(std::string_view name) { return names_.Intern(name); }

 private:
  bool Add(const std::string& name, std::vector<std::uint32_t>* ids) {
    if (name.size() > bytes_left_) return false;
    const std::size_t before = names_.size();
    const std::uint32_t id = names_.Intern(name);
    if (names_.size() != before) bytes_left_ -= name.size();
    ids->push_back(id);
    return true;
  }
  const memtrace::TraceReader& r_;
  const Limits& limits_;
  bool functions_;
  std::uint64_t bytes_left_;
  memtrace::StringInterner names_;
  std::unordered_map<OcamlInt, std::vector<std::uint32_t>> by_code_;
  std::unordered_set<std::uint32_t> tracer_;
  struct FrameKey {
    std::uint32_t filename, defname;
    OcamlInt line;
    bool operator==(const FrameKey&) const = default;
  };
  struct FrameKeyHash {
    std::size_t operator()(const FrameKey& k) const {
      return ((std::uint64_t{k.filename} << 32 | k.defname) * kGoldenGamma) ^
             static_cast<std::uint64_t>(k.line);
    }
  };
  std::unordered_map<FrameKey, std::uint32_t, FrameKeyHash> by_frame_;
};

// Lines sorted by their stack text (folded_order.h).
// Counts are written times `scale` (1 but for estimated bytes), rounded; a stack whose
// written count is 0 is left out.
Status WriteTree(StackTree& tree, const FrameNames& names, TextSink& out, const Limits& limits,
                 double scale) {
  auto& nodes = tree.nodes();
  std::uint64_t left = limits.max_output_bytes;
  std::string line;
  auto written = [scale](std::uint64_t count) -> std::uint64_t {
    if (scale == 1) return count;
    const double v = std::round(static_cast<double>(count) * scale);
    // Hostile sample counts times a rate's inverse can pass 2^64.
    if (!(v < 18446744073709551615.0)) return ~std::uint64_t{0};
    return v > 0 ? static_cast<std::uint64_t>(v) : 0;
  };
  auto emit = [&](std::span<const std::uint32_t> path) -> Status {
    const std::uint64_t count = written(nodes[path.back()].count);
    line.clear();
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (i > 0) line += ';';
      line += names.Name(nodes[path[i]].frame);
      if (line.size() >= (1 << 16)) {
        if (line.size() > left) break;
        left -= line.size();
        out.Write(line);
        line.clear();
      }
    }
    line += ' ';
    line += std::to_string(count);
    line += '\n';
    if (line.size() > left)
      return LimitExceeded("folded text written", limits.max_output_bytes, "--max-output-bytes");
    left -= line.size();
    out.Write(line);
    return Status::Ok();
  };
  return memtrace::analysis::WalkFoldedLines(
      kRoot,
      [&](std::uint32_t node, auto f) {
        for (std::uint32_t c = nodes[node].first_child; c != kNone; c = nodes[c].next_sibling) f(c);
      },
      [&](std::uint32_t c) { return nodes[c].first_child != kNone; },
      [&](std::uint32_t c) { return written(nodes[c].count) > 0; },
      [&](std::uint32_t c) { return names.Name(nodes[c].frame); }, emit);
}

}  // namespace

namespace {

// The time blocks are judged live at, in microseconds from the start (the end: the
// largest time, so every collection counts); the peak's from an analysis pass.
Result<std::int64_t> LiveAtMicros(memtrace::ByteSource& source, const FoldedOptions& o) {
  using memtrace::analysis::LiveAt;
  if (o.live_at->kind == LiveAt::Kind::kTime) return o.live_at->t_us;
  if (o.live_at->kind == LiveAt::Kind::kEnd) return std::numeric_limits<std::int64_t>::max();
  memtrace::analysis::AnalysisOptions a;
  a.from_us = o.from_us;
  a.to_us = o.to_us;
  a.limits = o.limits;
  a.live_at = *o.live_at;
  a.stop_at_damage = o.damage != nullptr;
  auto analysis = memtrace::analysis::AnalyzeTrace(source, a);
  if (!analysis.ok()) return analysis.status();
  return analysis->live_at_us;
}

}  // namespace

Status WriteFoldedStacks(memtrace::ByteSource& source, const FoldedOptions& o, TextSink& out) {
  std::int64_t live_at_us = 0;
  if (o.live_at) {
    auto t = LiveAtMicros(source, o);
    if (!t.ok()) return t.status();
    live_at_us = *t;
  }
  // The blocks allocated in the window and not (yet) collected by live_at_us: their node
  // and weight.
  struct LiveBlock {
    std::uint32_t node;
    std::uint64_t weight;
  };
  std::unordered_map<OcamlInt, LiveBlock> live;
  memtrace::ReaderOptions opts;
  opts.limits = o.limits;
  auto opened = memtrace::view::TraceView::Open(memtrace::BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  memtrace::view::TraceView& v = **opened;
  const std::int64_t start = v.info().start_time;
  StackTree tree;
  FrameNames names(v.reader(), o.limits, o.functions);
  const std::uint64_t max_nodes = o.limits.max_held_frames / 2;
  // Per domain: the tree node after each entry of its previous backtrace.
  std::unordered_map<std::uint16_t, std::vector<std::uint32_t>> paths;
  std::uint64_t events = 0;
  std::int64_t last_time = start;
  while (const memtrace::Event* ev = v.NextEvent()) {
    ++events;
    last_time = ev->time;
    if (ev->kind == memtrace::EventKind::kCollect && o.live_at &&
        memtrace::analysis::SaturatingSub(ev->time, start) <= live_at_us)
      live.erase(ev->obj_id);
    if (ev->kind != memtrace::EventKind::kAlloc) continue;
    std::vector<std::uint32_t>& path = paths[ev->domain];
    // The reader's backtrace shares its first common_prefix entries with the previous
    // one of the domain (or is that one unchanged, when the prefix is longer). Events
    // outside the window still walk theirs: the next event's prefix refers to it.
    const auto common = static_cast<std::uint64_t>(std::max<OcamlInt>(ev->common_prefix, 0));
    std::size_t keep = std::min<std::uint64_t>({common, path.size(), ev->backtrace.size()});
    path.resize(keep);
    for (std::size_t k = keep; k < ev->backtrace.size(); ++k) {
      const std::vector<std::uint32_t>* frames = names.Of(ev->backtrace[k]);
      if (frames == nullptr) return names.Exceeded();
      std::uint32_t node = path.empty() ? kRoot : path.back();
      for (std::uint32_t f : *frames) {
        const std::uint32_t* caller = node == kRoot ? nullptr : &tree.nodes()[node].frame;
        if (o.collapse_recursion && memtrace::analysis::DroppedAsRecursion(caller, f)) continue;
        node = tree.Child(node, f, max_nodes);
        if (node == kNone)
          return LimitExceeded("folded stack tree nodes", o.limits.max_held_frames,
                               "--max-held-frames");
      }
      path.push_back(node);
    }
    const std::int64_t rel = memtrace::analysis::SaturatingSub(ev->time, start);
    if (rel < o.from_us || rel > o.to_us) continue;
    const std::uint64_t w =
        static_cast<std::uint64_t>(o.weight == FoldedWeight::kWords ? ev->length : ev->nsamples);
    if (w == 0 || ev->nsamples <= 0) continue;
    std::uint32_t node = path.empty() ? kRoot : path.back();
    // An external allocation counts at the tracer's caller (site_attribution.h).
    for (std::size_t skip =
             memtrace::analysis::TracerFramesToSkip(v.reader(), ev->source, ev->backtrace);
         skip > 0 && node != kRoot && names.Tracer(tree.nodes()[node].frame); --skip)
      node = tree.nodes()[node].parent;
    if (!o.live_at) {
      tree.nodes()[node].count += w;
    } else if (rel <= live_at_us) {
      live[ev->obj_id] = LiveBlock{node, w};
    }
  }
  for (const auto& [id, b] : live) tree.nodes()[b.node].count += b.weight;
  if (o.damage != nullptr) o.damage->reset();
  if (!v.status().ok()) {
    if (o.damage == nullptr || !memtrace::analysis::IsDamage(v.status(), events)) return v.status();
    *o.damage = memtrace::analysis::DamageAt(v.status(), v.reader(), events);
  }
  // Every event is at or after the start (the reader checks).
  MPO_RETURN_IF_ERROR(memtrace::analysis::CheckWindowStart(
      o.from_us, static_cast<std::uint64_t>(last_time) - static_cast<std::uint64_t>(start)));
  if (o.live_at)
    MPO_RETURN_IF_ERROR(memtrace::analysis::CheckLiveAt(
        *o.live_at, static_cast<std::uint64_t>(last_time) - static_cast<std::uint64_t>(start)));
  // Allocations without frames: the line "<no backtrace>", merged with a stack of one
  // frame of that name if there is one.
  auto& nodes = tree.nodes();
  if (nodes[kRoot].count > 0) {
    const std::uint32_t id = names.Intern("<no backtrace>");
    const std::uint32_t node = tree.Child(kRoot, id, ~std::uint64_t{0});
    if (node == kNone)
      return LimitExceeded("folded stack tree nodes", o.limits.max_held_frames,
                           "--max-held-frames");
    tree.nodes()[node].count += tree.nodes()[kRoot].count;
    tree.nodes()[kRoot].count = 0;
  }
  const double scale =
      o.weight == FoldedWeight::kBytes ? memtrace::analysis::EstimatedBytes(1, v.info()) : 1.0;
  return WriteTree(tree, names, out, o.limits, scale);
}

Status WriteFoldedStacks(memtrace::ByteSource& source, FoldedWeight weight, TextSink& out,
                         const Limits& limits) {
  FoldedOptions o;
  o.weight = weight;
  o.limits = limits;
  return WriteFoldedStacks(source, o, out);
}

Result<std::string> FoldedStacks(std::unique_ptr<memtrace::ByteSource> source, FoldedWeight weight,
                                 const Limits& limits) {
  StringTextSink out;
  MPO_RETURN_IF_ERROR(WriteFoldedStacks(*source, weight, out, limits));
  return std::move(out.text);
}

}  // namespace mpo::exporter
