#include "core/tracer/tracer.h"

#include <algorithm>
#include <utility>

namespace mpo::tracer {

using memprof::CallbackResult;
using memtrace::OcamlInt;

Tracer::Tracer(TracerOptions options, FrameLocations& frames, std::int64_t pid)
    : options_(std::move(options)),
      frames_(frames),
      pid_(pid),
      lookup_([this](OcamlInt code) { return frames_.Lookup(code); }),
      external_(options_.sampling_rate, options_.external_seed) {}

Tracer::~Tracer() = default;

Result<std::unique_ptr<Tracer>> Tracer::Create(memtrace::ByteSink& sink, const memtrace::Info& info,
                                               TracerOptions options, FrameLocations& frames) {
  if (options.format_version != 2 && options.format_version != 3) {
    return Status(ErrorCode::kInvalidArgument, "must be 2 or 3").WithField("format version");
  }
  if (!options.now_us) {
    return Status(ErrorCode::kInvalidArgument, "a clock is required").WithField("now_us");
  }
  const std::int64_t pid = options.getpid ? options.getpid() : info.pid;
  std::unique_ptr<Tracer> t(new Tracer(std::move(options), frames, pid));
  memtrace::WriterOptions w;
  w.format_version = t->options_.format_version;
  w.getpid = t->options_.getpid;
  auto writer = memtrace::TraceWriter::Create(sink, info, std::move(w));
  if (!writer.ok()) return writer.status();
  t->writer_ = std::move(*writer);
  return t;
}

memprof::Tracker Tracer::MakeTracker() {
  memprof::Tracker t;
  t.alloc_minor = [this](const memprof::AllocationInfo& i) {
    return Alloc(i, memtrace::AllocationSource::kMinor);
  };
  t.alloc_major = [this](const memprof::AllocationInfo& i) {
    return Alloc(i, memtrace::AllocationSource::kMajor);
  };
  t.promote = [this](memprof::UserData id) { return Promote(id); };
  t.dealloc_minor = t.dealloc_major = [this](memprof::UserData id) {
    Collect(current_domain_, id);
    return CallbackResult::Drop();
  };
  return t;
}

std::uint16_t Tracer::StreamOf(std::uint32_t domain) const {
  return options_.format_version == 2 ? 0 : static_cast<std::uint16_t>(domain);
}

std::uint16_t Tracer::PromoteStream(OcamlInt id) const {
  const std::uint16_t current = StreamOf(current_domain_);
  if (options_.format_version == 2) return current;
  if (current < last_id_.size() && id <= last_id_[current]) return current;
  auto owner = chunk_owner_.find(id / memtrace::WriterOptions{}.obj_ids_per_chunk);
  return owner != chunk_owner_.end() ? owner->second : current;
}

bool Tracer::Usable() {
  if (stopped_) return false;
  if (options_.getpid && options_.getpid() != pid_) {
    // memtrace ignores Pid_changed: the child silently stops tracing.
    stopped_ = true;
    pid_changed_ = true;
    return false;
  }
  return true;
}

void Tracer::Fail(Status s) {
  stopped_ = true;
  if (s.code() == ErrorCode::kFailedPrecondition && options_.getpid && options_.getpid() != pid_) {
    pid_changed_ = true;
    return;
  }
  if (failure_.ok()) failure_ = std::move(s);
}

Result<OcamlInt> Tracer::WriteAlloc(std::uint32_t domain, std::uint64_t length,
                                    std::uint64_t nsamples, memtrace::AllocationSource source,
                                    std::span<const std::uint64_t> callstack) {
  // memprof gives the innermost frame first; memtrace writes the caller first.
  backtrace_.assign(callstack.rbegin(), callstack.rend());
  const std::uint16_t stream = StreamOf(domain);
  auto id = writer_->PutAlloc(stream, options_.now_us(), static_cast<OcamlInt>(length),
                              static_cast<OcamlInt>(nsamples), source, backtrace_, lookup_);
  if (id.ok() && options_.format_version == 3) {
    if (last_id_.size() <= stream) last_id_.resize(stream + 1u, -1);
    const OcamlInt chunk = memtrace::WriterOptions{}.obj_ids_per_chunk;
    // A stream's ids grow, so a new chunk shows as a new chunk index.
    if (last_id_[stream] < 0 || last_id_[stream] / chunk != *id / chunk) {
      chunk_owner_[*id / chunk] = stream;
    }
    last_id_[stream] = *id;
  }
  return id;
}

CallbackResult Tracer::Alloc(const memprof::AllocationInfo& info,
                             memtrace::AllocationSource source) {
  if (!Usable()) {
    ++counts_.dropped;
    return CallbackResult::Drop();
  }
  auto id = WriteAlloc(info.domain_id, info.size, info.n_samples, source, info.callstack);
  if (!id.ok()) {
    Fail(id.status());
    return CallbackResult::Drop();
  }
  ++counts_.allocs;
  counts_.samples += info.n_samples;
  return CallbackResult::Keep(static_cast<memprof::UserData>(*id));
}

CallbackResult Tracer::Promote(memprof::UserData id) {
  if (!Usable()) {
    ++counts_.dropped;
    return CallbackResult::Drop();
  }
  const auto obj = static_cast<OcamlInt>(id);
  Status s = writer_->PutPromote(PromoteStream(obj), options_.now_us(), obj);
  if (!s.ok()) {
    Fail(std::move(s));
    return CallbackResult::Drop();
  }
  ++counts_.promotes;
  return CallbackResult::Keep(id);
}

void Tracer::Collect(std::uint32_t domain, memprof::UserData id) {
  if (!Usable()) {
    ++counts_.dropped;
    return;
  }
  Status s = writer_->PutCollect(StreamOf(domain), options_.now_us(), static_cast<OcamlInt>(id));
  if (!s.ok()) {
    Fail(std::move(s));
    return;
  }
  ++counts_.collects;
}

std::optional<OcamlInt> Tracer::ExtAlloc(std::uint32_t domain, std::uint64_t bytes,
                                         std::span<const std::uint64_t> callstack) {
  if (stopped_) return std::nullopt;
  const std::uint64_t samples = external_.SamplesFor(bytes);
  if (samples == 0 || !Usable()) return std::nullopt;
  const std::uint64_t words = bytes / 8 + (bytes % 8 != 0 ? 1 : 0);
  auto id = WriteAlloc(domain, words, samples, memtrace::AllocationSource::kExternal, callstack);
  if (!id.ok()) {
    Fail(id.status());
    return std::nullopt;
  }
  ++counts_.external_allocs;
  counts_.external_samples += samples;
  return *id;
}

void Tracer::ExtFree(std::uint32_t domain, OcamlInt id) {
  if (!Usable()) return;
  Collect(domain, static_cast<memprof::UserData>(id));
  if (!stopped_) ++counts_.external_frees;
}

Status Tracer::Close() {
  if (!closed_) {
    closed_ = true;
    if (Usable()) {
      Status s = writer_->Flush();
      if (!s.ok()) Fail(std::move(s));
    }
    stopped_ = true;
  }
  return failure_;
}

}  // namespace mpo::tracer
