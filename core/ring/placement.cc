#include "core/ring/placement.h"

#include <optional>
#include <string>

namespace mpo::ring {
namespace {

constexpr std::uint64_t kRingHeadAndTailBytes = 2 * sizeof(std::uint64_t);

Status HeaderError(ErrorCode code, MetadataWord word, const char* field, const std::string& why) {
  return Status(code, "E_CORRUPT_STREAM: " + why)
      .WithField(std::string("metadata header: ") + field)
      .AtOffset(8 * word);
}

// a + b * c <= limit, without overflow.
bool FitsIn(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t limit) {
  const unsigned __int128 end = static_cast<unsigned __int128>(b) * c + a;
  return end <= limit;
}

Status StrictMetadata(const MetadataHeader& m, std::uint64_t file_size) {
  if (m.version != kFileVersion) {
    return HeaderError(ErrorCode::kUnsupportedVersion, kVersionWord, "version",
                       "version " + std::to_string(m.version) + ", only 1 exists");
  }
  if (m.max_domains == 0 || m.max_domains > kMaxDomainsLimit) {
    return HeaderError(ErrorCode::kCorrupt, kMaxDomainsWord, "max_domains",
                       std::to_string(m.max_domains) + " not in [1, 4096]");
  }
  if (m.ring_header_size_bytes < 16 || m.ring_header_size_bytes % 8 != 0 ||
      m.ring_header_size_bytes > (1u << 20)) {
    return HeaderError(
        ErrorCode::kCorrupt, kRingHeaderSizeWord, "ring_header_size_bytes",
        std::to_string(m.ring_header_size_bytes) + " is not a multiple of 8 holding head and tail");
  }
  const std::uint64_t n = m.ring_size_elements;
  if (n < 4 || (n & (n - 1)) != 0 || n > (std::uint64_t{1} << 40)) {
    return HeaderError(ErrorCode::kCorrupt, kRingSizeElementsWord, "ring_size_elements",
                       std::to_string(n) + " is not a power of two in [4, 2^40]");
  }
  if (m.ring_size_bytes != n * 8) {
    return HeaderError(ErrorCode::kCorrupt, kRingSizeBytesWord, "ring_size_bytes",
                       std::to_string(m.ring_size_bytes) + " != 8 * ring_size_elements");
  }
  if (m.headers_offset % 8 != 0 ||
      !FitsIn(m.headers_offset, m.max_domains, m.ring_header_size_bytes, file_size)) {
    return HeaderError(ErrorCode::kCorrupt, kHeadersOffsetWord, "headers_offset",
                       "ring headers at " + std::to_string(m.headers_offset) +
                           " unaligned or beyond the file (" + std::to_string(file_size) +
                           " bytes)");
  }
  if (m.data_offset % 8 != 0 ||
      !FitsIn(m.data_offset, m.max_domains, m.ring_size_bytes, file_size)) {
    return HeaderError(ErrorCode::kCorrupt, kDataOffsetWord, "data_offset",
                       "ring data at " + std::to_string(m.data_offset) +
                           " unaligned or beyond the file (" + std::to_string(file_size) +
                           " bytes)");
  }
  if (m.custom_events_offset > file_size) {
    return HeaderError(ErrorCode::kCorrupt, kCustomEventsOffsetWord, "custom_events_offset",
                       std::to_string(m.custom_events_offset) + " beyond the file");
  }
  return Status::Ok();
}

Status Ocaml53Metadata(const MetadataHeader& m, std::uint64_t file_size) {
  if (m.max_domains > kMaxDomainsLimit) {
    return HeaderError(ErrorCode::kCorrupt, kMaxDomainsWord, "max_domains",
                       std::to_string(m.max_domains) + " above 4096");
  }
  if (m.headers_offset > file_size) {
    return HeaderError(ErrorCode::kCorrupt, kHeadersOffsetWord, "headers_offset",
                       std::to_string(m.headers_offset) + " beyond the file");
  }
  // OCaml's test, overflow included: 8 * n wraps for n >= 2^61, and then differs from n
  // or is below it.
  const std::uint64_t n = m.ring_size_elements;
  if (n == 0 || n * 8 != m.ring_size_bytes || n > m.ring_size_bytes) {
    return HeaderError(ErrorCode::kCorrupt, kRingSizeBytesWord, "ring_size_bytes",
                       std::to_string(m.ring_size_bytes) + " is not 8 * ring_size_elements (" +
                           std::to_string(n) + ") with ring_size_elements > 0");
  }
  return Status::Ok();
}

// base + d * len, wrapping as OCaml's uint64_t arithmetic does, if [it, it + len) is
// inside the file.
std::optional<std::uint64_t> Place(std::uint64_t base, std::uint64_t d, std::uint64_t len,
                                   std::uint64_t file_size) {
  if (base >= file_size) return std::nullopt;
  const std::uint64_t at = base + d * len;
  if (at >= file_size || len > file_size - at) return std::nullopt;
  return at;
}

}  // namespace

Status ValidateMetadata(const MetadataHeader& m, std::uint64_t file_size, const RingRules& rules) {
  if (file_size < kMetadataHeaderBytes) {
    return Status(ErrorCode::kTruncated, "E_CORRUPT_STREAM: file of " + std::to_string(file_size) +
                                             " bytes has no 64-byte metadata header")
        .WithField("metadata header");
  }
  return rules.lenient_metadata ? Ocaml53Metadata(m, file_size) : StrictMetadata(m, file_size);
}

Result<DomainPlace> PlaceDomain(const MetadataHeader& m, std::uint64_t file_size, std::uint64_t d) {
  const auto header = Place(m.headers_offset, d, m.ring_header_size_bytes, file_size);
  if (!header) {
    return HeaderError(ErrorCode::kCorrupt, kHeadersOffsetWord, "headers_offset",
                       "ring " + std::to_string(d) + "'s header is not inside the file (" +
                           std::to_string(file_size) + " bytes)");
  }
  // Head and tail are read whatever ring_header_size_bytes says: OCaml's bounds hold a
  // header below 16 bytes, and it reads past the file's end. Reported apart, as the size's
  // fault, so that the difference can be declared alone.
  if (file_size - *header < kRingHeadAndTailBytes) {
    return HeaderError(ErrorCode::kCorrupt, kRingHeaderSizeWord, "ring_header_size_bytes",
                       "ring " + std::to_string(d) + "'s head and tail at " +
                           std::to_string(*header) + " end past the file (" +
                           std::to_string(file_size) + " bytes): a header of " +
                           std::to_string(m.ring_header_size_bytes) + " bytes is below 16");
  }
  const auto data = Place(m.data_offset, d, m.ring_size_bytes, file_size);
  if (!data) {
    return HeaderError(ErrorCode::kCorrupt, kDataOffsetWord, "data_offset",
                       "ring " + std::to_string(d) + "'s data is not inside the file (" +
                           std::to_string(file_size) + " bytes)");
  }
  return DomainPlace{*header, *data};
}

Result<std::uint64_t> PlaceNameSlot(const MetadataHeader& m, std::uint64_t file_size, unsigned id) {
  const std::uint64_t end = (static_cast<std::uint64_t>(id) + 1) * kUserEventNameBytes;
  if (m.custom_events_offset > file_size || end > file_size - m.custom_events_offset) {
    return Status(ErrorCode::kCorrupt, "E_CORRUPT_STREAM: user event id " + std::to_string(id) +
                                           " has no name slot in the file")
        .WithField("metadata header: custom_events_offset")
        .AtOffset(8 * kCustomEventsOffsetWord);
  }
  return m.custom_events_offset + end - kUserEventNameBytes;
}

}  // namespace mpo::ring
