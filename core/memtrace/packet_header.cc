#include "core/memtrace/packet_header.h"

#include <cstdio>
#include <string>

namespace mpo::memtrace {

static_assert(MemtraceRules{}.max_version == kMaxFormatVersion,
              "strict reads every version this reader writes");

bool ReadsFormatVersion(const MemtraceRules& rules, unsigned version) {
  return version >= rules.min_version && version <= rules.max_version;
}

namespace {

// "memtrace 0.2.3 reads v001 and v002", "this reader reads v001 to v003".
std::string VersionsRead(const MemtraceRules& rules) {
  char buf[48];
  std::snprintf(buf, sizeof buf, " reads v%03u %s v%03u", unsigned{rules.min_version},
                rules.max_version == rules.min_version + 1 ? "and" : "to",
                unsigned{rules.max_version});
  return std::string(rules.versions_reader) + buf;
}

}  // namespace

Status ReadPacketHeader(ByteReader& in, PacketHeader* h, const MemtraceRules& rules) {
  const std::uint64_t start = in.offset();
  h->magic = in.U32("packet header: magic");
  h->packet_size_bits = in.U32("packet header: packet_size");
  h->time_begin = static_cast<std::int64_t>(in.U64("packet header: time_begin"));
  h->time_end = static_cast<std::int64_t>(in.U64("packet header: time_end"));
  h->flush_duration = in.U32("packet header: flush_duration");
  h->version = in.U16("packet header: version");
  h->pid = static_cast<std::int64_t>(in.U64("packet header: pid"));
  // The domain field exists from v3; for versions this reader refuses, keep the v2
  // layout so that the version error is reported, not a short read.
  h->domain = (HasDomainStreams(h->version) && h->version <= kMaxFormatVersion)
                  ? in.U16("packet header: domain")
                  : 0;
  h->verifier.ix = in.U16("packet header: cache_verify_ix");
  h->verifier.pred = in.U16("packet header: cache_verify_pred");
  h->verifier.value = in.U64("packet header: cache_verify_val");
  h->alloc_id_begin = static_cast<std::int64_t>(in.U64("packet header: alloc_id_begin"));
  h->alloc_id_end = static_cast<std::int64_t>(in.U64("packet header: alloc_id_end"));
  if (!in.ok()) return in.status();
  if (h->magic != kCtfMagic) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "not a CTF packet: magic 0x%08x, expected 0x%08x", h->magic,
                  kCtfMagic);
    return Status(ErrorCode::kCorrupt, buf).WithField("packet header: magic").AtOffset(start);
  }
  if (!ReadsFormatVersion(rules, h->version)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "trace format v%03d, but ", h->version);
    return Status(ErrorCode::kUnsupportedVersion, buf + VersionsRead(rules))
        .WithField("packet header: version")
        .AtOffset(start + header_offset::kVersion);
  }
  const std::size_t header_size = PacketHeaderSize(h->version);
  if (static_cast<std::int32_t>(h->packet_size_bits) < 0 || h->packet_size_bits / 8 < header_size) {
    return Status(ErrorCode::kCorrupt, "bad packet size: " + std::to_string(h->packet_size_bits) +
                                           " bits (a packet holds at least its " +
                                           std::to_string(header_size) +
                                           "-byte header and at most 2^31 - 1 bits)")
        .WithField("packet header: packet_size")
        .AtOffset(start + header_offset::kPacketSize);
  }
  if (h->time_begin > h->time_end) {
    return Status(ErrorCode::kCorrupt, "non-monotone packet timestamps: time_begin " +
                                           std::to_string(h->time_begin) + " > time_end " +
                                           std::to_string(h->time_end))
        .WithField("packet header: time_end")
        .AtOffset(start + header_offset::kTimeEnd);
  }
  if (h->alloc_id_begin > h->alloc_id_end) {
    return Status(ErrorCode::kCorrupt, "non-monotone alloc ids: alloc_id_begin " +
                                           std::to_string(h->alloc_id_begin) + " > alloc_id_end " +
                                           std::to_string(h->alloc_id_end))
        .WithField("packet header: alloc_id_end")
        .AtOffset(start + header_offset::kAllocIdEndV2 + (header_size - kHeaderSizeV2));
  }
  return Status::Ok();
}

PacketHeaderSlots WritePacketHeader(ByteWriter& out, int version, std::int64_t pid,
                                    std::uint16_t domain, const CacheVerifier& v) {
  PacketHeaderSlots s;
  out.U32(kCtfMagic);
  s.size = out.Skip(4);
  s.time_begin = out.Skip(8);
  s.time_end = out.Skip(8);
  s.flush_duration = out.Skip(4);
  out.U16(static_cast<std::uint16_t>(version));
  out.U64(static_cast<std::uint64_t>(pid));
  if (HasDomainStreams(version)) out.U16(domain);
  out.U16(v.ix);
  out.U16(v.pred);
  out.U64(v.value);
  s.alloc_begin = out.Skip(8);
  s.alloc_end = out.Skip(8);
  return s;
}

void FinishPacketHeader(ByteWriter& out, const PacketHeaderSlots& s, std::int64_t time_begin,
                        std::int64_t time_end, OcamlInt alloc_id_begin, OcamlInt alloc_id_end) {
  out.Update32(s.size, static_cast<std::uint32_t>(out.pos() * 8));
  out.Update64(s.time_begin, static_cast<std::uint64_t>(time_begin));
  out.Update64(s.time_end, static_cast<std::uint64_t>(time_end));
  out.Update32(s.flush_duration, 0);
  out.Update64(s.alloc_begin, static_cast<std::uint64_t>(alloc_id_begin));
  out.Update64(s.alloc_end, static_cast<std::uint64_t>(alloc_id_end));
}

void FailEventHeader(ByteReader& in, std::uint64_t at, const EventHeader& ev,
                     std::int64_t time_begin, std::int64_t time_end) {
  if (!(time_begin <= ev.time && ev.time <= time_end)) {
    in.Fail(Status(ErrorCode::kCorrupt,
                   "event time " + std::to_string(ev.time) + " outside packet bounds [" +
                       std::to_string(time_begin) + ", " + std::to_string(time_end) + "]")
                .WithField("event header: time in packet bounds")
                .AtOffset(at));
  } else {
    in.Fail(Status(ErrorCode::kCorrupt, "unknown event code " + std::to_string(ev.code))
                .WithField("event header: code")
                .AtOffset(at + 3, 1));
  }
}

}  // namespace mpo::memtrace
