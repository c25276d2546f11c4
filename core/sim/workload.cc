#include "core/sim/workload.h"

#include <algorithm>
#include <utility>

#include "core/base/splitmix64.h"

namespace mpo::sim {
namespace {

enum Site : unsigned {
  kList,
  kMapAdd,
  kRecord,
  kArray,
  kCStub,
  kUnmarshal,
  kBigstring,
  kSiteCount
};

constexpr std::uint64_t kSiteFrameBase = 0x401000;
constexpr std::uint64_t SiteFrame(unsigned s) { return kSiteFrameBase + std::uint64_t{0x10} * s; }

constexpr WorkloadSite kSites[kSiteCount] = {
    {"Workload.build_list", "demo/workload.ml", 41, SiteFrame(kList)},
    {"Workload.Index.add", "demo/index.ml", 63, SiteFrame(kMapAdd)},
    {"Workload.make_record", "demo/workload.ml", 102, SiteFrame(kRecord)},
    {"Workload.make_table", "demo/workload.ml", 88, SiteFrame(kArray)},
    {"Workload.c_stub_alloc", "demo/stubs.ml", 17, SiteFrame(kCStub)},
    {"Workload.load_snapshot", "demo/snapshot.ml", 29, SiteFrame(kUnmarshal)},
    {"Workload.read_bigstring", "demo/io.ml", 140, SiteFrame(kBigstring)},
};

// A domain's seeded choices. Each domain has its own stream, so a domain's choices do not
// depend on how the others are interleaved with it.
class Choices {
 public:
  explicit Choices(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Below(std::uint64_t n) { return SplitMix64Next(&state_) % n; }
  bool Chance(unsigned percent) { return Below(100) < percent; }

 private:
  std::uint64_t state_;
};

// Spreads the domains' streams apart (a prime multiplier: seeds s and s + 1 share no stream).
constexpr std::uint64_t kDomainSeedStride = 1000003;

Status Raised() { return Status(ErrorCode::kInternal, "a memprof callback raised"); }

}  // namespace

std::span<const WorkloadSite> WorkloadSites() { return kSites; }

bool IsWorkloadSiteFrame(std::uint64_t frame) {
  return frame >= SiteFrame(0) && frame < SiteFrame(kSiteCount);
}

// A structure: blocks that become garbage together.
struct Workload::DomainWork {
  std::uint32_t id = 0;
  bool alive = true;
  Choices choose{0};
  std::vector<std::vector<BlockId>> live;  // reachable structures
  std::vector<std::int64_t> external;      // tracked external allocations not yet freed
};

Workload::Workload(SimRuntime& rt, WorkloadHost& host, const WorkloadOptions& options)
    : rt_(rt), host_(host), options_(options) {}

Workload::~Workload() = default;

Result<std::unique_ptr<Workload>> Workload::Create(SimRuntime& rt, WorkloadHost& host,
                                                   const WorkloadOptions& options) {
  if (options.domains < 1 || options.domains > kWorkloadMaxDomains) {
    return Status(ErrorCode::kInvalidArgument,
                  "must lie in [1, " + std::to_string(kWorkloadMaxDomains) + "]")
        .WithField("domains");
  }
  std::unique_ptr<Workload> w(new Workload(rt, host, options));
  w->work_.resize(options.domains);
  w->work_[0].choose = Choices(options.seed * kDomainSeedStride);
  for (std::uint32_t d = 1; d < options.domains; ++d) {
    auto id = rt.NewDomain(0);
    if (!id.ok()) return id.status();
    w->work_[d].id = *id;
    w->work_[d].choose = Choices(options.seed * kDomainSeedStride + d);
  }
  return w;
}

void Workload::Enter(std::uint32_t domain, unsigned site) {
  stack_ = {SiteFrame(site), WorkloadDomainFrame(domain), kWorkloadMainFrame};
  rt_.SetCallstack(domain, stack_);
}

// Time grows with the words written, headers included.
void Workload::Allocated(std::span<const std::uint64_t> wosizes) {
  std::uint64_t words = 0;
  for (std::uint64_t s : wosizes) words += s + 1;
  ++stats_.allocations;
  stats_.words_allocated += words;
  host_.Elapse(10 + 2 * words);
}

// One structure of the pattern `kind` (a percentile: the patterns' frequencies).
Status Workload::AllocateStructure(DomainWork& w, std::uint64_t kind) {
  const std::uint32_t d = w.id;
  Choices& c = w.choose;
  std::vector<BlockId> blocks;
  bool keep = false;
  auto caml = [&](std::initializer_list<std::uint64_t> sizes) -> Status {
    const std::span<const std::uint64_t> v(sizes.begin(), sizes.size());
    AllocOutcome a = rt_.AllocCaml(d, v, keep);
    if (!a.status.ok()) return a.status;
    if (a.raised) return Raised();
    Allocated(v);
    blocks.insert(blocks.end(), a.blocks.begin(), a.blocks.end());
    return Status::Ok();
  };
  // Runtime allocations (major heap, C): their callbacks are deferred, they never raise.
  auto runtime = [&](const AllocOutcome& a, std::uint64_t wosize) -> Status {
    if (!a.status.ok()) return a.status;
    Allocated(std::span<const std::uint64_t>(&wosize, 1));
    blocks = a.blocks;
    return Status::Ok();
  };
  if (kind < 40) {  // a list, cell by cell (List.init)
    Enter(d, kList);
    keep = c.Chance(30);
    const std::uint64_t n = 1 + c.Below(24);
    for (std::uint64_t i = 0; i < n; ++i) MPO_RETURN_IF_ERROR(caml({2}));
  } else if (kind < 60) {  // a map node and its boxed key, in one combined allocation
    Enter(d, kMapAdd);
    keep = c.Chance(60);
    MPO_RETURN_IF_ERROR(caml({5, 2}));
  } else if (kind < 72) {  // a record with two fields allocated with it
    Enter(d, kRecord);
    keep = c.Chance(20);
    MPO_RETURN_IF_ERROR(caml({3, 1, 4}));
  } else if (kind < 75) {  // an array too large for the minor heap (Array.make)
    Enter(d, kArray);
    keep = c.Chance(50);
    const std::uint64_t words = kMaxYoungWosize + 1 + c.Below(2000);
    MPO_RETURN_IF_ERROR(
        runtime(rt_.AllocMajor(d, words, memprof::AllocationSource::kNormal, keep), words));
  } else if (kind < 84) {  // caml_alloc_small from a C stub
    Enter(d, kCStub);
    keep = c.Chance(10);
    const std::uint64_t words = 1 + c.Below(64);
    MPO_RETURN_IF_ERROR(runtime(rt_.AllocSmallFromC(d, words, keep), words));
  } else if (kind < 87) {  // unmarshalled data, straight to the major heap
    Enter(d, kUnmarshal);
    keep = c.Chance(40);
    const std::uint64_t words = 300 + c.Below(1500);
    MPO_RETURN_IF_ERROR(
        runtime(rt_.AllocMajor(d, words, memprof::AllocationSource::kMarshal, keep), words));
  } else if (kind < 93) {  // a bigstring: memory outside the OCaml heap
    Enter(d, kBigstring);
    const std::uint64_t bytes = 256 + c.Below(std::uint64_t{16} * 1024);
    ++stats_.external_allocations;
    stats_.external_bytes += bytes;
    host_.Elapse(50 + bytes / 64);
    if (auto handle = host_.ExternalAlloc(d, bytes, stack_)) w.external.push_back(*handle);
  }
  if (keep && !blocks.empty()) w.live.push_back(std::move(blocks));
  return Status::Ok();
}

Status Workload::Step(DomainWork& w) {
  ++stats_.steps;
  const std::uint32_t d = w.id;
  host_.Running(d);
  Choices& c = w.choose;
  MPO_RETURN_IF_ERROR(AllocateStructure(w, c.Below(100)));
  // Forget a structure now and then (it becomes garbage).
  if (!w.live.empty() && c.Chance(22)) {
    const std::size_t k = c.Below(w.live.size());
    for (BlockId b : w.live[k]) rt_.Release(b);
    w.live[k] = std::move(w.live.back());
    w.live.pop_back();
  }
  if (!w.external.empty() && c.Chance(5)) {
    const std::size_t k = c.Below(w.external.size());
    host_.Elapse(30);
    ++stats_.external_frees;
    host_.ExternalFree(d, w.external[k]);
    w.external[k] = w.external.back();
    w.external.pop_back();
  }
  if (c.Chance(3)) {
    host_.Elapse(20);
    if (rt_.Poll(d)) return Raised();
  }
  return Status::Ok();
}

// The domain terminates with its structures still reachable: domain 0 inherits them
// (they are shared data), and memprof's entries for them become orphans that another
// domain adopts.
Status Workload::EndDomain(DomainWork& w) {
  host_.Running(w.id);
  if (rt_.Poll(w.id)) return Raised();
  MPO_RETURN_IF_ERROR(rt_.EndDomain(w.id));
  ++stats_.domains_ended;
  w.alive = false;
  DomainWork& heir = work_[0];
  for (auto& s : w.live) heir.live.push_back(std::move(s));
  w.live.clear();
  heir.external.insert(heir.external.end(), w.external.begin(), w.external.end());
  w.external.clear();
  return Status::Ok();
}

Status Workload::Run() {
  const std::uint64_t steps = options_.steps;
  const std::uint64_t major_every = std::max<std::uint64_t>(1, steps / 6);
  for (std::uint64_t step = 0; step < steps; ++step) {
    // Domains run in turns (one OS thread interleaves them).
    if (step % kWorkloadSlice == 0) {
      for (DomainWork& w : work_) {
        for (std::uint64_t k = step; w.alive && k < step + kWorkloadSlice && k < steps; ++k) {
          MPO_RETURN_IF_ERROR(Step(w));
        }
      }
    }
    if (step % major_every == major_every - 1) {
      rt_.MajorGc();
      ++stats_.major_collections;
    }
    if (step == steps / 3) {
      rt_.Compact();
      ++stats_.compactions;
      host_.Elapse(150000);
    }
    if (work_.size() >= 2 && step == steps / 2) MPO_RETURN_IF_ERROR(EndDomain(work_.back()));
  }
  return Status::Ok();
}

Status Workload::Teardown() {
  for (DomainWork& w : work_) {
    for (const auto& s : w.live) {
      for (BlockId b : s) rt_.Release(b);
    }
    w.live.clear();
    // An ended domain's external memory went to domain 0 with its structures.
    for (std::int64_t handle : w.external) {
      host_.Elapse(30);
      ++stats_.external_frees;
      host_.ExternalFree(w.id, handle);
    }
    w.external.clear();
  }
  rt_.MajorGc();
  ++stats_.major_collections;
  // Callbacks the collection queued run at each domain's next poll points.
  for (int round = 0; round < 2; ++round) {
    for (const DomainWork& w : work_) {
      if (!w.alive) continue;
      host_.Running(w.id);
      host_.Elapse(20);
      if (rt_.Poll(w.id)) return Raised();
    }
  }
  return Status::Ok();
}

}  // namespace mpo::sim
