// The harness's definitions, for every engine fault policy (core/memprof/faults.h):
// harness.cc instantiates Run for the correct engine; tests that run a mutant include
// this header to instantiate theirs.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/sim_runtime.h"
#include "core/sim/sim_runtime_impl.h"
#include "proptests/memprof/harness.h"

namespace mpo::memprof::harness {
namespace detail {

using sim::BlockId;
using sim::MemprofThread;
using P = sync::StdPlatform;

inline constexpr const char* kOpNames[] = {
    "AllocCaml", "AllocSmallC",  "AllocMajor", "Release",      "Poll",
    "MinorGc",   "MajorGc",      "Compact",    "Start",        "Stop",
    "Discard",   "Arm",          "NewThread",  "SwitchThread", "EndThread",
    "NewDomain", "SwitchDomain", "EndDomain",  "FailCHeap"};
inline constexpr const char* kSiteNames[] = {"entries", "callstack", "orphan_table", "thread",
                                             "domain"};
inline constexpr const char* kActionNames[] = {"keep",    "drop",    "raise", "stop",
                                               "restart", "discard", "hold"};
inline constexpr double kRates[] = {1.0, 0.5, 0.1, 0.01, 0.0};
inline constexpr Exception kRaised{0xBAD};
inline constexpr std::size_t kMaxDomains = 4;
inline constexpr std::size_t kMaxThreads = 4;

// One allocation callback's worth of tracking.
struct Track {
  std::uint64_t profile = 0;
  std::uint64_t serial = 0;  // which allocation op
  int sub = 0;               // which sub-allocation
  bool promoted = false;
  bool dealloc = false;
  bool ended = false;  // a callback returned None or raised
  bool is_major = false;
  std::optional<BlockId> held;  // the block its user data names (kHold)
  bool maybe_lost = false;      // alive when a C-heap refusal may have lost entries
};

struct Allocation {
  std::uint32_t domain = 0;
  std::uint32_t thread = 0;
  bool cancelled_or_restarted = false;  // faked deallocs allowed
  std::vector<BlockId> blocks;
  std::vector<bool> dead;
};

template <class Faults>
class Harness {
 public:
  explicit Harness(const RunOptions& options)
      : options_(options), rt_(sim::SimConfig{2048, /*user_data_are_values=*/true}) {
    domains_.push_back(DomainState{{rt_.memprof(0).current()}, 0});
    rt_.SetDeathObserver([this](BlockId id) {
      if (auto root = profile_root_owner_.find(id); root != profile_root_owner_.end()) {
        // While a live domain samples under the profile, its table roots the tracker.
        for (std::uint32_t d : LiveDomainIds()) {
          const ProfileRef<P> p = rt_.memprof(d).profile();
          if (p && p->id() == root->second && discarded_.count(p->id()) == 0) {
            Violation("block held by the tracker of profile " + std::to_string(root->second) +
                      " died");
            break;
          }
        }
        profile_root_owner_.erase(root);
      }
      if (auto held = held_owner_.find(id); held != held_owner_.end()) {
        const Track& t = tracks_[held->second];
        if (!t.ended && !t.dealloc && !t.maybe_lost && discarded_.count(t.profile) == 0) {
          Violation("block held by the user data of track " + std::to_string(held->second) +
                    " died");
        }
        held_owner_.erase(held);
      }
      auto it = block_owner_.find(id);
      if (it == block_owner_.end()) return;
      Allocation& a = allocations_[it->second.first];
      a.dead[it->second.second] = true;
      block_owner_.erase(it);
    });
  }

  void Apply(const Op& op) {
    ++step_;
    const std::uint64_t refusals_before = Refusals();
    switch (op.kind) {
      case OpKind::kAllocCaml: {
        const int n = 1 + op.a % 4;
        std::vector<std::uint64_t> sizes;
        for (int i = 0; i < n; ++i) sizes.push_back(1 + (op.b * (i + 7)) % 9);
        Allocate([&] { return rt_.AllocCaml(cur_, sizes); }, n);
        break;
      }
      case OpKind::kAllocSmallC:
        Allocate([&] { return rt_.AllocSmallFromC(cur_, 1 + op.b % 40); }, 1);
        break;
      case OpKind::kAllocMajor:
        Allocate(
            [&] {
              const std::uint64_t wosize = options_.major_wosize_mod == 0
                                               ? 257 + op.b
                                               : 1 + op.b % options_.major_wosize_mod;
              return rt_.AllocMajor(cur_, wosize, static_cast<AllocationSource>(op.a % 3));
            },
            1);
        break;
      case OpKind::kRelease: {
        if (live_.empty()) break;
        const std::size_t k = op.a % live_.size();
        rt_.Release(live_[k]);
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
      case OpKind::kPoll: Note(rt_.Poll(cur_)); break;
      case OpKind::kMinorGc: rt_.MinorGc(); break;
      case OpKind::kMajorGc: rt_.MajorGc(); break;
      case OpKind::kCompact: rt_.Compact(); break;
      case OpKind::kStart: StartProfile(kRates[op.a % 5]); break;
      case OpKind::kStop: StopProfile(); break;
      case OpKind::kDiscard:
        if (!profiles_.empty()) DiscardProfile(profiles_[op.a % profiles_.size()]);
        break;
      case OpKind::kArm:
        armed_.push_back(
            static_cast<CallbackAction>(op.a % static_cast<int>(CallbackAction::kCount)));
        break;
      case OpKind::kNewThread: {
        auto& threads = domains_[cur_].threads;
        if (threads.size() >= kMaxThreads) break;
        auto t = rt_.NewThread(cur_);
        if (t.ok()) threads.push_back(*t);
        break;
      }
      case OpKind::kSwitchThread: {
        auto& ds = domains_[cur_];
        if (ds.threads.empty()) break;
        ds.current = op.a % ds.threads.size();
        Check(rt_.EnterThread(cur_, ds.threads[ds.current]).ok(), "EnterThread failed");
        break;
      }
      case OpKind::kEndThread: {
        auto& ds = domains_[cur_];
        if (ds.threads.size() < 2) break;
        std::size_t k = op.a % ds.threads.size();
        if (k == ds.current) k = (k + 1) % ds.threads.size();
        Check(rt_.EndThread(cur_, ds.threads[k]).ok(), "EndThread failed");
        ds.threads.erase(ds.threads.begin() + static_cast<std::ptrdiff_t>(k));
        if (ds.current > k) --ds.current;
        break;
      }
      case OpKind::kNewDomain: {
        if (LiveDomains() >= kMaxDomains) break;
        auto d = rt_.NewDomain(cur_);
        if (!d.ok()) break;
        if (domains_.size() <= *d) domains_.resize(*d + 1);
        domains_[*d] = DomainState{{rt_.memprof(*d).current()}, 0};
        break;
      }
      case OpKind::kSwitchDomain: {
        std::vector<std::uint32_t> live = LiveDomainIds();
        cur_ = live[op.a % live.size()];
        break;
      }
      case OpKind::kEndDomain: {
        std::vector<std::uint32_t> live = LiveDomainIds();
        if (live.size() < 2) break;
        std::uint32_t d = live[op.a % live.size()];
        if (d == cur_) d = live[(op.a + 1) % live.size()];
        Check(rt_.EndDomain(d).ok(), "EndDomain failed");
        domains_[d].threads.clear();
        break;
      }
      case OpKind::kFailCHeap:
        rt_.c_heap().Fail(static_cast<CHeapSite>(op.a % kCHeapSiteCount), op.b % 8, 1);
        break;
      case OpKind::kCount: break;
    }
    // Ending a thread or a domain loses entries when a table cannot be allocated.
    const bool may_lose = op.kind == OpKind::kEndThread || op.kind == OpKind::kEndDomain;
    if (may_lose && Refusals() != refusals_before) {
      for (auto& [id, t] : tracks_) t.maybe_lost = true;
    }
    if (Status bad = rt_.CheckInvariants(); !bad.ok()) Violation("invariant: " + bad.message());
  }

  RunReport Finish() {
    armed_.clear();
    rt_.c_heap().Clear();
    for (BlockId id : live_) rt_.Release(id);
    live_.clear();
    rt_.MajorGc();
    for (std::uint32_t d : LiveDomainIds()) {
      cur_ = d;
      for (MemprofThread* t : domains_[d].threads) {
        Check(rt_.EnterThread(d, t).ok(), "EnterThread failed");
        for (int round = 0; round < 3; ++round) Note(rt_.Poll(d));
      }
    }
    for (const auto& [id, t] : tracks_) {
      if (t.ended || t.maybe_lost || discarded_.count(t.profile) != 0) continue;
      if (!t.dealloc) {
        Violation("track " + std::to_string(id) + " (allocation " + std::to_string(t.serial) +
                  ") never deallocated");
      }
    }
    report_.tracks = tracks_.size();
    return std::move(report_);
  }

 private:
  struct DomainState {
    std::vector<MemprofThread*> threads;
    std::size_t current = 0;
  };

  std::uint64_t Refusals() const {
    std::uint64_t n = 0;
    for (int site = 0; site < kCHeapSiteCount; ++site) {
      n += rt_.c_heap().refusals(static_cast<CHeapSite>(site));
    }
    return n;
  }

  std::size_t LiveDomains() const { return LiveDomainIds().size(); }
  std::vector<std::uint32_t> LiveDomainIds() const {
    std::vector<std::uint32_t> ids;
    for (std::uint32_t d = 0; d < domains_.size(); ++d) {
      if (rt_.DomainAlive(d)) ids.push_back(d);
    }
    return ids;
  }

  void Check(bool ok, const char* what) {
    if (!ok) Violation(what);
  }
  void Violation(std::string what) {
    if (report_.violations.size() < 20) {
      report_.violations.push_back("step " + std::to_string(step_) + ": " + what);
    }
  }
  void Note(const Raised& raised) {
    if (raised && !(*raised == kRaised)) Violation("unexpected exception");
  }

  template <class Fn>
  void Allocate(Fn&& alloc, int n) {
    const std::uint64_t serial = allocations_.size();
    Allocation a;
    a.domain = cur_;
    a.thread = rt_.memprof(cur_).current()->id();
    a.dead.assign(static_cast<std::size_t>(n), false);
    allocations_.push_back(a);
    in_flight_ = serial;
    restarted_ = false;
    rt_.SetCallstack(cur_, {serial});
    sim::AllocOutcome out = alloc();
    in_flight_.reset();
    Check(out.status.ok(), "allocation refused");
    Note(out.raised);
    Allocation& done = allocations_[serial];
    done.cancelled_or_restarted = out.raised.has_value() || restarted_;
    done.blocks = out.blocks;
    for (std::size_t i = 0; i < out.blocks.size(); ++i) {
      block_owner_[out.blocks[i]] = {serial, i};
      live_.push_back(out.blocks[i]);
    }
    if (live_.size() > options_.max_live_blocks) {
      const std::size_t excess = live_.size() - options_.max_live_blocks;
      for (std::size_t i = 0; i < excess; ++i) rt_.Release(live_[i]);
      live_.erase(live_.begin(), live_.begin() + static_cast<std::ptrdiff_t>(excess));
    }
  }

  void StartProfile(double rate) {
    Tracker t;
    t.alloc_minor = [this](const AllocationInfo& info) { return OnAlloc(info, false); };
    t.alloc_major = [this](const AllocationInfo& info) { return OnAlloc(info, true); };
    t.promote = [this](UserData id) { return OnPromote(id); };
    t.dealloc_minor = [this](UserData id) { return OnDealloc(id, false); };
    t.dealloc_major = [this](UserData id) { return OnDealloc(id, true); };
    // The tracker's closures hold a block nothing else reaches (allocated while this
    // thread is not sampling, so that no callback sees it).
    std::optional<BlockId> root;
    if (!rt_.memprof(cur_).Sampling()) {
      sim::AllocOutcome a = rt_.AllocSmallFromC(cur_, 1, /*reachable=*/false);
      if (a.ok()) {
        root = a.blocks[0];
        t.roots.push_back(rt_.ValueOf(*root));
      }
    }
    auto p = rt_.memprof(cur_).Start(rate, 2, std::move(t));
    if (!p.ok()) return;
    profiles_.push_back(*p);
    if (root) profile_root_owner_[*root] = (*p)->id();
  }
  void StopProfile() {
    Outcome out = rt_.memprof(cur_).Stop();
    Note(out.raised);
  }
  void DiscardProfile(const ProfileRef<P>& p) {
    if (Discard<P>(p).ok()) discarded_.insert({p->id(), true});
  }

  // Shared entry/exit of every callback: nesting, discarded profiles, armed actions.
  // `alloc_track` is the track an allocation callback just created (kHold applies).
  CallbackResult Finish(CallbackResult keep, std::optional<UserData> alloc_track = std::nullopt) {
    --depth_;
    if (armed_.empty()) return keep;
    const CallbackAction action = armed_.front();
    armed_.erase(armed_.begin());
    switch (action) {
      case CallbackAction::kKeep: return keep;
      case CallbackAction::kDrop: return CallbackResult::Drop();
      case CallbackAction::kRaise: return CallbackResult::Raise(kRaised);
      case CallbackAction::kStop: StopProfile(); return keep;
      case CallbackAction::kRestart: {
        StopProfile();
        const double rate = profiles_.empty() ? 1.0 : profiles_.back()->lambda();
        StartProfile(rate);
        if (in_flight_) restarted_ = true;
        return keep;
      }
      case CallbackAction::kDiscard: {
        StopProfile();
        ProfileRef<P> p = rt_.memprof(cur_).profile();
        if (p) DiscardProfile(p);
        return keep;
      }
      case CallbackAction::kHold: {
        if (!alloc_track) return keep;
        sim::AllocOutcome held = rt_.AllocSmallFromC(cur_, 2, /*reachable=*/false);
        if (!held.ok()) return keep;
        tracks_[*alloc_track].held = held.blocks[0];
        held_owner_[held.blocks[0]] = *alloc_track;
        return CallbackResult::Keep(rt_.ValueOf(held.blocks[0]));
      }
      case CallbackAction::kCount: break;
    }
    return keep;
  }
  void Enter() {
    ++report_.callbacks;
    if (++depth_ > 1) Violation("callbacks nested");
  }

  CallbackResult OnAlloc(const AllocationInfo& info, bool major) {
    Enter();
    const ProfileRef<P> p = rt_.memprof(cur_).profile();
    if (!p || !p->sampling()) Violation("allocation callback while not sampling");
    if (info.callstack.empty()) {
      // Only a refused stash (kCallstack) leaves a sample without its callstack.
      if (rt_.c_heap().refusals(CHeapSite::kCallstack) == 0) {
        Violation("allocation callback without callstack");
      }
      --depth_;
      return CallbackResult::Drop();
    }
    // Combined allocations name the sub-allocation in the innermost frame.
    std::uint64_t serial = info.callstack.back();
    int sub = 0;
    if (info.callstack.size() == 2) sub = static_cast<int>(info.callstack[0] - sim::kAllocSiteBase);
    if (serial >= allocations_.size()) {
      Violation("allocation callback for an unknown allocation");
    } else {
      const Allocation& a = allocations_[serial];
      if (a.domain != info.domain_id || a.thread != info.thread_id) {
        Violation("allocation callback off its allocating thread");
      }
      if (rt_.memprof(cur_).current()->id() != info.thread_id) {
        Violation("allocation callback on another thread than it reports");
      }
    }
    const UserData id = next_track_++;
    Track t;
    t.profile = p ? p->id() : 0;
    t.serial = serial;
    t.sub = sub;
    t.is_major = major;
    tracks_[id] = t;
    CallbackResult r =
        Finish(CallbackResult::Keep(sim::IntValue(static_cast<std::int64_t>(id))), id);
    if (!r.kept()) tracks_[id].ended = true;
    return r;
  }

  // The track user data names: an immediate, or a block held for a track.
  std::optional<UserData> TrackOf(UserData v) const {
    if (!sim::IsBlockValue(v)) return v >> 1;
    const std::optional<BlockId> block = rt_.BlockOf(v);
    if (!block) return std::nullopt;
    auto it = held_owner_.find(*block);
    if (it == held_owner_.end()) return std::nullopt;
    return it->second;
  }

  Track* Lookup(UserData v, const char* what) {
    const std::optional<UserData> id = TrackOf(v);
    auto it = id ? tracks_.find(*id) : tracks_.end();
    if (it == tracks_.end()) {
      Violation(std::string(what) + (sim::IsBlockValue(v) ? " with user data naming no held block"
                                                          : " for unknown user data"));
      return nullptr;
    }
    Track& t = it->second;
    if (discarded_.count(t.profile) != 0) Violation(std::string(what) + " after discard");
    if (t.ended) Violation(std::string(what) + " after tracking ended");
    return &t;
  }

  CallbackResult OnPromote(UserData id) {
    Enter();
    Track* t = Lookup(id, "promote");
    if (t != nullptr) {
      if (t->promoted) Violation("promoted twice");
      if (t->dealloc) Violation("promoted after dealloc");
      if (t->is_major) Violation("major allocation promoted");
      t->promoted = true;
    }
    CallbackResult r = Finish(CallbackResult::Keep(id));
    if (!r.kept() && t != nullptr) t->ended = true;
    return r;
  }

  CallbackResult OnDealloc(UserData id, bool major) {
    Enter();
    if (Track* t = Lookup(id, "dealloc")) {
      if (t->dealloc) Violation("deallocated twice");
      if (major != (t->promoted || t->is_major)) Violation("dealloc from the wrong heap");
      t->dealloc = true;
      if (t->serial < allocations_.size()) {
        const Allocation& a = allocations_[t->serial];
        const bool known_dead = static_cast<std::size_t>(t->sub) < a.dead.size() && a.dead[t->sub];
        if (!known_dead && !a.cancelled_or_restarted && !a.blocks.empty()) {
          Violation("dealloc before the block died (allocation " + std::to_string(t->serial) + ")");
        }
      }
    }
    CallbackResult r = Finish(CallbackResult::Drop());
    return r.raised() ? r : CallbackResult::Drop();
  }

  RunOptions options_;
  sim::BasicSimRuntime<Faults> rt_;
  std::vector<DomainState> domains_;
  std::uint32_t cur_ = 0;
  std::vector<BlockId> live_;
  std::vector<Allocation> allocations_;
  std::unordered_map<BlockId, std::pair<std::uint64_t, std::size_t>> block_owner_;
  std::map<UserData, Track> tracks_;
  std::unordered_map<BlockId, UserData> held_owner_;               // held block -> track
  std::unordered_map<BlockId, std::uint64_t> profile_root_owner_;  // tracker root -> profile
  std::vector<ProfileRef<P>> profiles_;
  std::map<std::uint64_t, bool> discarded_;
  std::vector<CallbackAction> armed_;
  std::optional<std::uint64_t> in_flight_;
  bool restarted_ = false;
  UserData next_track_ = 1;
  int depth_ = 0;
  std::uint64_t step_ = 0;
  RunReport report_;
};

}  // namespace detail

template <class Faults>
RunReport Run(std::span<const Op> ops, const RunOptions& options) {
  auto h = std::make_unique<detail::Harness<Faults>>(options);
  for (const Op& op : ops) h->Apply(op);
  return h->Finish();
}

}  // namespace mpo::memprof::harness
