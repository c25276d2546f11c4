// Where a runtime events file puts each domain's ring and each user event's name, checked
// against the file's size as each verdict mode requires (conformance/VERDICTS.md).
//
// kStrict checks the whole metadata header once, before any poll: every field must be one
// a producer writes (version 1, power-of-two rings, 8-byte aligned offsets, every domain's
// header and ring inside the file). RingRules::lenient_metadata (ocaml-5.3) checks what
// OCaml 5.3's consumer
// checks, where it checks it: a few fields at open, each domain's header and ring when a
// poll reaches that domain (so earlier domains' events are delivered first), each name
// slot when a user event needs it. Every mode keeps every read inside the file.
#pragma once

#include <cstdint>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/ring/layout.h"

namespace mpo::ring {

// The checks made when a cursor opens. Under rules.lenient_metadata: the file holds the
// 64-byte header (OCaml reads it past a shorter file's end), max_domains <= 4096,
// headers_offset <= the file's size, and ring_size_bytes == 8 * ring_size_elements != 0 (in
// 64-bit arithmetic, as OCaml computes it); version is never read. Otherwise strict.
Status ValidateMetadata(const MetadataHeader& m, std::uint64_t file_size,
                        const RingRules& rules = {});

// Byte offsets of one domain's ring header (head and tail words) and data words.
struct DomainPlace {
  std::uint64_t header = 0;
  std::uint64_t data = 0;
};

// Where domain `d` lies, computed as OCaml does (offset + d * size in 64-bit arithmetic);
// kCorrupt if the header's ring_header_size_bytes or the ring's ring_size_bytes do not lie
// inside the file (field headers_offset or data_offset), or if they do but the 16 bytes of
// head and tail do not (field ring_header_size_bytes: only a size below 16 allows it).
Result<DomainPlace> PlaceDomain(const MetadataHeader& m, std::uint64_t file_size, std::uint64_t d);

// The byte offset of user event `id`'s 128-byte name slot; kCorrupt if it is not entirely
// inside the file.
Result<std::uint64_t> PlaceNameSlot(const MetadataHeader& m, std::uint64_t file_size, unsigned id);

}  // namespace mpo::ring
