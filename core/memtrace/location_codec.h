// Location events: one 64-bit location code and the (inlined) frames it stands for
// (mirrors memtrace's Location_codec).
//
// Layout of one frame: a 48-bit little-endian word (u32 low + u16 high), then the
// filename string if its MTF index is 31, then the defname string if its index is 31.
//
//   bits  0..19  line        (20 bits)
//   bits 20..27  start_char  ( 8 bits)
//   bits 28..37  end_char    (10 bits)
//   bits 38..42  filename MTF index (0..30 hit, 31 new)
//   bits 43..47  defname MTF index, in the file's own defname table
//
// Event body: u64 code, u8 nlocs, nlocs frames.
//
// Writer rules (memtrace HEAD): a value below 0 or above its field's maximum is written
// as the maximum; a list of more than 255 frames, or one whose worst-case size (9 + per
// frame 6 + filename + 1 + defname + 1 bytes) exceeds 4096 bytes, is written as the single
// frame `UnknownLocation()`. memtrace <= 0.2.3 clamped both columns at 0xfff instead, so
// start_char spilled into end_char and end_char into the filename index; that writer is
// available as `ColumnPacking::kV023` to reproduce such traces (never the default).
//
// Reader failures (typed, never an abort): running off the end (kTruncated), and an MTF
// index that points at an empty slot (kCorrupt; the failure memtrace <= 0.2.3 traces with
// long columns trigger, where memtrace's own reader dies on an assertion).
//
// Threading: one state per stream; not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/memtrace/buf.h"
#include "core/memtrace/faults.h"
#include "core/memtrace/location.h"
#include "core/memtrace/mtf_table.h"

namespace mpo::memtrace {

inline constexpr int kLineBits = 20;
inline constexpr int kStartCharBits = 8;
inline constexpr int kEndCharBits = 10;
inline constexpr int kMtfBits = 5;
inline constexpr int kStartCharShift = kLineBits;
inline constexpr int kEndCharShift = kStartCharShift + kStartCharBits;
inline constexpr int kFilenameShift = kEndCharShift + kEndCharBits;
inline constexpr int kDefnameShift = kFilenameShift + kMtfBits;
inline constexpr std::uint64_t kLineMax = (1u << kLineBits) - 1;            // 0xfffff
inline constexpr std::uint64_t kStartCharMax = (1u << kStartCharBits) - 1;  // 0xff
inline constexpr std::uint64_t kEndCharMax = (1u << kEndCharBits) - 1;      // 0x3ff
inline constexpr std::uint64_t kMtfMask = (1u << kMtfBits) - 1;             // 0x1f
static_assert(kDefnameShift + kMtfBits == 48, "a frame word is 48 bits");

// Worst-case encoded size of a location event body the writer accepts.
inline constexpr std::size_t kMaxLocationLength = 4096;
inline constexpr std::size_t kMaxLocationFrames = 255;

enum class ColumnPacking : std::uint8_t {
  kCurrent,  // memtrace HEAD: clamp to each field's own width
  kV023,     // memtrace <= 0.2.3: clamp both columns to 0xfff (overlapping fields)
};

// The move-to-front state shared by encoder and decoder: a filename table whose values
// index `defnames`, one defname table per filename slot.
class LocationMtfState {
 public:
  MtfTable<std::uint8_t> files;
  std::array<MtfTable<char>, MtfTable<char>::kLength> defnames;
};

class LocationWriter {
 public:
  explicit LocationWriter(ColumnPacking packing = ColumnPacking::kCurrent) : packing_(packing) {}
  // Appends a location event body for `code` to `out`. The caller guarantees at least
  // kMaxLocationLength bytes of room (the packet flush rule does).
  void Put(ByteWriter& out, OcamlInt code, std::span<const Location> locs);

 private:
  ColumnPacking packing_;
  LocationMtfState mtf_;
};

// Strings stored once, named by dense ids (decoders keep location tables compact): bytes
// in append-only blocks, an open-addressing table of ids. No allocation per string except
// when a block fills.
class StringInterner {
 public:
  std::uint32_t Intern(std::string_view s);
  std::string_view Get(std::uint32_t id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }

 private:
  std::string_view Store(std::string_view s);
  void Grow();
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_used_ = 0;
  std::size_t block_cap_ = 0;
  std::vector<std::string_view> strings_;
  std::vector<std::uint32_t> table_;  // id + 1, 0 = empty; size a power of two
};

// A decoded frame whose strings live in a StringInterner.
struct CompactFrame {
  std::uint32_t filename = 0;
  std::uint32_t defname = 0;
  OcamlInt line = 0;
  OcamlInt start_char = 0;
  OcamlInt end_char = 0;
  friend bool operator==(const CompactFrame&, const CompactFrame&) = default;
};

class LocationReader {
 public:
  // Decodes one location event body into `frames` (cleared first), interning strings in
  // `strings`. No allocation per frame once strings are known. On failure `in` holds the
  // error. `Faults`: faults.h.
  template <class Faults = NoFaults>
  void GetCompact(ByteReader& in, StringInterner& strings, OcamlInt* code,
                  std::vector<CompactFrame>* frames);
  // The same, materialised (convenient, slower).
  void Get(ByteReader& in, OcamlInt* code, std::vector<Location>* locs);

 private:
  LocationMtfState mtf_;
  StringInterner own_strings_;
  std::vector<CompactFrame> scratch_;
};

Location Materialize(const CompactFrame& f, const StringInterner& strings);

template <class Faults>
void LocationReader::GetCompact(ByteReader& in, StringInterner& strings, OcamlInt* code,
                                std::vector<CompactFrame>* frames) {
  *code = OcamlIntOfInt64(in.U64("location: code"));
  const int n = in.U8("location: nlocs");
  frames->clear();
  if (!in.ok()) return;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t word_off = in.offset();
    const std::uint64_t low = in.U32("location: frame word");
    const std::uint64_t high = in.U16("location: frame word");
    if (!in.ok()) return;
    const std::uint64_t word = low | (high << 32);
    CompactFrame l;
    l.line = Faults::Line(static_cast<OcamlInt>(word & kLineMax), word);
    l.start_char =
        Faults::StartChar(static_cast<OcamlInt>((word >> kStartCharShift) & kStartCharMax), word);
    l.end_char =
        Faults::EndChar(static_cast<OcamlInt>((word >> kEndCharShift) & kEndCharMax), word);
    const int file_ix = static_cast<int>((word >> kFilenameShift) & kMtfMask);
    const int def_ix = static_cast<int>((word >> kDefnameShift) & kMtfMask);
    auto& files = mtf_.files;
    std::uint8_t table;
    if (file_ix == MtfTable<std::uint8_t>::kNotFound) {
      std::string_view name = in.String("location: filename");
      if (!in.ok()) return;
      const bool full = files.size() == MtfTable<std::uint8_t>::kLength;
      auto& e = files.PushKeyless(/*reuse_last_value=*/Faults::kEvictionKeepsDefnames);
      if (!full) {
        e.value = static_cast<std::uint8_t>(files.size() - 1);
        if (Faults::kClearsNewFileDefnames) mtf_.defnames[e.value].Clear();
      }
      e.id = strings.Intern(name);
      l.filename = e.id;
      table = e.value;
    } else if (file_ix >= files.size()) {
      in.Fail(Status(ErrorCode::kCorrupt, "filename move-to-front index " +
                                              std::to_string(file_ix) +
                                              " points at an empty slot (" +
                                              std::to_string(files.size()) + " filenames seen)")
                  .WithField("location: filename MTF index")
                  .AtOffset(word_off + kFilenameShift / 8, kFilenameShift % 8));
      return;
    } else {
      auto& e = Faults::FileHit(files, file_ix);
      l.filename = e.id;
      table = e.value;
    }
    auto& defs = mtf_.defnames[table];
    if (def_ix == MtfTable<char>::kNotFound) {
      std::string_view name = in.String("location: defname");
      if (!in.ok()) return;
      auto& e = defs.PushKeyless(/*reuse_last_value=*/false);
      e.id = strings.Intern(name);
      l.defname = e.id;
    } else if (def_ix >= defs.size()) {
      in.Fail(Status(ErrorCode::kCorrupt, "defname move-to-front index " + std::to_string(def_ix) +
                                              " points at an empty slot (" +
                                              std::to_string(defs.size()) + " defnames seen for " +
                                              std::string(strings.Get(l.filename)) + ")")
                  .WithField("location: defname MTF index")
                  .AtOffset(word_off + kDefnameShift / 8, kDefnameShift % 8));
      return;
    } else {
      l.defname = Faults::DefnameHit(defs, def_ix).id;
    }
    frames->push_back(l);
  }
}

// The correct reader is compiled once, in location_codec.cc.
extern template void LocationReader::GetCompact<NoFaults>(ByteReader&, StringInterner&, OcamlInt*,
                                                          std::vector<CompactFrame>*);

}  // namespace mpo::memtrace
