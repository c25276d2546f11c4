#include "core/ring/cursor.h"

#include <cstring>
#include <utility>

#include "core/io/readable_input.h"
#include "core/ring/cursor_impl.h"

namespace mpo::ring {

bool EventCallbacks::RuntimeBegin(std::uint32_t, std::uint64_t, unsigned) { return true; }
bool EventCallbacks::RuntimeEnd(std::uint32_t, std::uint64_t, unsigned) { return true; }
bool EventCallbacks::RuntimeCounter(std::uint32_t, std::uint64_t, unsigned, std::uint64_t) {
  return true;
}
bool EventCallbacks::Alloc(std::uint32_t, std::uint64_t, std::span<const std::uint64_t>) {
  return true;
}
bool EventCallbacks::LifecycleEvent(std::uint32_t, std::uint64_t, unsigned, std::int64_t) {
  return true;
}
bool EventCallbacks::LostEvents(std::uint32_t, std::uint64_t) { return true; }
void EventCallbacks::PaddingSkipped(std::uint32_t, std::uint64_t) {}
bool EventCallbacks::UserUnit(std::uint32_t, std::uint64_t, unsigned, std::string_view) {
  return true;
}
bool EventCallbacks::UserInt(std::uint32_t, std::uint64_t, unsigned, std::string_view,
                             std::uint64_t) {
  return true;
}
bool EventCallbacks::UserSpan(std::uint32_t, std::uint64_t, unsigned, std::string_view, bool) {
  return true;
}
bool EventCallbacks::UserCustom(std::uint32_t, std::uint64_t, unsigned, std::string_view,
                                std::span<const std::uint64_t>) {
  return true;
}

Result<std::string_view> DecodeCustomPayload(std::span<const std::uint64_t> payload) {
  if (payload.empty()) {
    return Status(ErrorCode::kCorrupt, "custom event without payload words")
        .WithField("custom event: pad-count byte");
  }
  const std::size_t last = payload.size() * 8 - 1;
  unsigned char pad;
  std::memcpy(&pad, reinterpret_cast<const char*>(payload.data()) + last, 1);
  if (pad > last) {
    return Status(ErrorCode::kCorrupt, "pad count " + std::to_string(pad) + " exceeds payload of " +
                                           std::to_string(last) + " bytes")
        .WithField("custom event: pad-count byte");
  }
  return std::string_view(reinterpret_cast<const char*>(payload.data()), last - pad);
}

Cursor::Cursor(std::unique_ptr<State> s) : s_(std::move(s)) {}
Cursor::Cursor(Cursor&&) noexcept = default;
Cursor& Cursor::operator=(Cursor&&) noexcept = default;
Cursor::~Cursor() = default;

Result<Cursor> Cursor::Build(std::unique_ptr<State> s, CursorOptions o) {
  if (s->size < kMetadataHeaderBytes) {
    return ValidateMetadata(MetadataHeader{}, s->size);
  }
  std::memcpy(&s->meta, s->base, sizeof(MetadataHeader));
  MPO_RETURN_IF_ERROR(s->file.CheckIntact());
  MPO_RETURN_IF_ERROR(ValidateMetadata(s->meta, s->size, o.rules));
  s->positions.assign(s->meta.max_domains, 0);
  s->options = o;
  if (s->options.batch_messages == 0) s->options.batch_messages = 1;
  s->buffer.assign(4 * kMaxMessageWords, 0);
  return Cursor(std::move(s));
}

Result<Cursor> Cursor::OpenFile(const std::string& path, CursorOptions o) {
  auto in = io::OpenReadable(path, kRingInMemory);
  if (!in.ok()) {
    if (in.status().code() != ErrorCode::kIo) return in.status();
    // OpenInput's documented message for a missing file; OCaml's code is E_OPEN_FAILURE.
    const bool missing = in.status().message() == "no such file";
    return Status(missing ? ErrorCode::kNotFound : ErrorCode::kIo,
                  "E_OPEN_FAILURE: " + in.status().message())
        .WithField(path);
  }
  if (in->format == io::InputFormat::kMemtraceTrace || in->format == io::InputFormat::kGzip) {
    return Status(ErrorCode::kUnsupportedVersion,
                  std::string("E_CORRUPT_STREAM: ") +
                      (in->format == io::InputFormat::kGzip
                           ? "this is a gzip file inside a gzip file; decompress it once first"
                           : "this looks like a memtrace trace, not a runtime events ring; try "
                             "`memprof-oracle memtrace dump`"))
        .WithField(path);
  }
  if (!in->file) {
    return FromBytes(std::as_bytes(std::span<const std::uint8_t>(in->bytes)), o);
  }
  // A plain file is mapped, not copied: the ring may be live.
  in->file.reset();
  auto file = MappedFile::OpenReadOnly(path);
  if (!file.ok()) return file.status();
  auto s = std::make_unique<State>();
  s->file = std::move(*file);
  // The mapping is page aligned; the protocol only loads through this pointer.
  s->base = reinterpret_cast<std::uint64_t*>(s->file.data());
  s->size = s->file.size();
  return Build(std::move(s), o);
}

Result<Cursor> Cursor::Open(const std::string& dir, std::int64_t pid, CursorOptions o) {
  if (pid < 0) {
    return Status(ErrorCode::kInvalidArgument, "E_PATH_FAILURE: negative pid").WithField("pid");
  }
  const std::string name = std::to_string(pid) + ".events";
  return OpenFile(dir.empty() ? name : dir + "/" + name, o);
}

Result<Cursor> Cursor::OpenCurrent(const std::string& current_path, CursorOptions o) {
  if (current_path.empty()) {
    return Status(ErrorCode::kFailedPrecondition,
                  "E_NO_CURRENT_RING: runtime events were not started in this process");
  }
  return OpenFile(current_path, o);
}

Result<Cursor> Cursor::FromBytes(std::span<const std::byte> bytes, CursorOptions o) {
  auto s = std::make_unique<State>();
  s->copy.assign((bytes.size() + 7) / 8, 0);
  if (!bytes.empty()) std::memcpy(s->copy.data(), bytes.data(), bytes.size());
  s->base = s->copy.data();
  s->size = bytes.size();
  return Build(std::move(s), o);
}

const MetadataHeader& Cursor::metadata() const { return s_->meta; }

void Cursor::Close() {
  s_->open = false;
  s_->file.Close(false);
}

Result<std::uint64_t> Cursor::ReadPoll(EventCallbacks& callbacks, std::uint64_t max_events) {
  if (s_->poll != nullptr) return s_->poll(*this, callbacks, max_events);
  return ReadPollWith<NoFaults>(callbacks, max_events);
}

template Result<std::uint64_t> Cursor::ReadPollWith<NoFaults>(EventCallbacks&, std::uint64_t);

}  // namespace mpo::ring
