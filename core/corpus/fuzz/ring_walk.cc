#include "core/corpus/fuzz/ring_walk.h"

#include <algorithm>

#include "core/corpus/fuzz/packet_walk.h"
#include "core/ring/layout.h"

namespace mpo::corpus::fuzz {
namespace {

std::uint64_t MetadataWord(std::span<const std::uint8_t> file, ring::MetadataWord w) {
  return LoadLe(file, 8 * static_cast<std::size_t>(w), 8);
}

// The range [begin, begin + size) clipped to the file, or nothing.
void AddClipped(std::vector<ByteRange>& out, std::uint64_t begin, std::uint64_t size,
                std::size_t file_size) {
  if (begin >= file_size) return;
  const std::uint64_t end = std::min<std::uint64_t>(file_size, begin + std::min(size, file_size));
  if (end > begin) out.push_back({static_cast<std::size_t>(begin), static_cast<std::size_t>(end)});
}

}  // namespace

RingMap MapRing(std::span<const std::uint8_t> file) {
  RingMap map;
  const std::size_t n = file.size();
  AddClipped(map.hot, 0, ring::kMetadataHeaderBytes, n);
  const std::uint64_t max_domains = MetadataWord(file, ring::kMaxDomainsWord);
  const std::uint64_t header_size = MetadataWord(file, ring::kRingHeaderSizeWord);
  const std::uint64_t ring_words = MetadataWord(file, ring::kRingSizeElementsWord);
  const std::uint64_t headers = MetadataWord(file, ring::kHeadersOffsetWord);
  const std::uint64_t data = MetadataWord(file, ring::kDataOffsetWord);
  // Only a geometry that fits the file is followed; anything else leaves just the
  // metadata hot, which is where such a file's trouble is anyway.
  if (header_size < 16 || header_size > n || ring_words == 0 || ring_words > n / 8 ||
      (ring_words & (ring_words - 1)) != 0 || headers >= n || data >= n)
    return map;
  const std::uint64_t domains = std::min<std::uint64_t>(max_domains, kMaxMappedDomains);
  for (std::uint64_t d = 0; d < domains; ++d) {
    const std::uint64_t at = headers + d * header_size;
    if (at > n || n - at < 16) break;
    RingDomain dom;
    dom.head_at = static_cast<std::size_t>(at + 8 * ring::kRingHeadWord);
    dom.tail_at = static_cast<std::size_t>(at + 8 * ring::kRingTailWord);
    dom.head = LoadLe(file, dom.head_at, 8);
    dom.tail = LoadLe(file, dom.tail_at, 8);
    AddClipped(map.hot, at, 16, n);
    const std::uint64_t ring_at = data + d * ring_words * 8;
    if (ring_at < n && n - ring_at >= ring_words * 8 && dom.tail > dom.head) {
      // The live words: at most one ring's worth, wrapped at its end.
      const std::uint64_t live = std::min(dom.tail - dom.head, ring_words);
      std::uint64_t pos = dom.tail - live;
      const std::uint64_t first = pos & (ring_words - 1);
      AddClipped(map.hot, ring_at + 8 * first, 8 * std::min(live, ring_words - first), n);
      if (first + live > ring_words)
        AddClipped(map.hot, ring_at, 8 * (first + live - ring_words), n);
      while (pos < dom.tail && dom.events.size() < kMaxMappedEvents) {
        const std::size_t word_at =
            static_cast<std::size_t>(ring_at + 8 * (pos & (ring_words - 1)));
        dom.events.push_back(word_at);
        const std::uint64_t len = ring::header::Length(LoadLe(file, word_at, 8));
        if (len == 0) break;
        pos += len;
      }
    }
    map.domains.push_back(std::move(dom));
  }
  return map;
}

}  // namespace mpo::corpus::fuzz
