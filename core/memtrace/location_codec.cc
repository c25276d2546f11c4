#include "core/memtrace/location_codec.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <string>

#include "core/base/splitmix64.h"
#include "core/base/uninit_array.h"

namespace mpo::memtrace {

void AppendLocationText(std::string& out, std::string_view defname, std::string_view filename,
                        OcamlInt line, OcamlInt start_char, OcamlInt end_char) {
  char num[24];
  auto append_int = [&](OcamlInt v) {
    const auto r = std::to_chars(num, num + sizeof num, v);
    out.append(num, r.ptr);
  };
  out += defname;
  out += '@';
  out += filename;
  out += ':';
  append_int(line);
  out += ':';
  append_int(start_char);
  out += '-';
  append_int(end_char);
}

std::string LocationToString(const Location& l) {
  std::string s;
  AppendLocationText(s, l.defname, l.filename, l.line, l.start_char, l.end_char);
  return s;
}

namespace {

std::uint64_t Clamp(OcamlInt v, std::uint64_t limit) {
  return (v < 0 || static_cast<std::uint64_t>(v) > limit) ? limit : static_cast<std::uint64_t>(v);
}

}  // namespace

void LocationWriter::Put(ByteWriter& out, OcamlInt code, std::span<const Location> locs) {
  std::size_t worst = 8 + 1;
  for (const Location& l : locs) worst += 6 + (l.filename.size() + 1) + (l.defname.size() + 1);
  static const Location kUnknown = UnknownLocation();
  if (locs.size() > kMaxLocationFrames || worst > kMaxLocationLength)
    locs = std::span<const Location>(&kUnknown, 1);
  out.U64(static_cast<std::uint64_t>(code));
  out.U8(static_cast<std::uint8_t>(locs.size()));
  const bool v023 = packing_ == ColumnPacking::kV023;
  for (const Location& l : locs) {
    const std::uint64_t line = Clamp(l.line, kLineMax);
    const std::uint64_t start = Clamp(l.start_char, v023 ? 0xfff : kStartCharMax);
    const std::uint64_t end = Clamp(l.end_char, v023 ? 0xfff : kEndCharMax);
    auto& files = mtf_.files;
    int file_ix = files.Find(l.filename);
    std::uint8_t table;
    if (file_ix == MtfTable<std::uint8_t>::kNotFound) {
      const bool full = files.size() == MtfTable<std::uint8_t>::kLength;
      auto& e = files.PushReusingLast(l.filename);
      if (!full) e.value = static_cast<std::uint8_t>(files.size() - 1);
      table = e.value;
      mtf_.defnames[table].Clear();  // the encoder starts each new file afresh
    } else {
      table = files.MoveToFront(file_ix).value;
    }
    auto& defs = mtf_.defnames[table];
    int def_ix = defs.Find(l.defname);
    if (def_ix == MtfTable<char>::kNotFound)
      defs.Push(l.defname);
    else
      defs.MoveToFront(def_ix);
    const std::uint64_t word = line | (start << kStartCharShift) | (end << kEndCharShift) |
                               (std::uint64_t(file_ix) << kFilenameShift) |
                               (std::uint64_t(def_ix) << kDefnameShift);
    out.U32(static_cast<std::uint32_t>(word));
    // memtrace writes `Int64.to_int (word asr 32)` with put_16: the low 16 bits of it.
    out.U16(static_cast<std::uint16_t>(word >> 32));
    if (file_ix == MtfTable<std::uint8_t>::kNotFound) out.String(l.filename);
    if (def_ix == MtfTable<char>::kNotFound) out.String(l.defname);
  }
}

std::string_view StringInterner::Store(std::string_view s) {
  constexpr std::size_t kBlock = 1 << 16;
  if (s.empty()) return {};  // no block needed (and there may be none yet)
  if (blocks_.empty() || s.size() > block_cap_ - block_used_) {
    block_cap_ = std::max(kBlock, s.size());
    blocks_.push_back(MakeUninitArray<char>(block_cap_));
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  if (!s.empty()) std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return {dst, s.size()};
}

namespace {

// A fast inline hash of a short string (names are tens of bytes): 8 bytes per multiply.
std::uint64_t HashName(std::string_view s) {
  std::uint64_t h = kGoldenGamma ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  std::uint64_t tail = 0;
  for (std::size_t i = 0; i < n; ++i)
    tail |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

}  // namespace

void StringInterner::Grow() {
  std::vector<std::uint32_t> t(table_.empty() ? 256 : table_.size() * 2, 0);
  const std::size_t mask = t.size() - 1;
  for (std::uint32_t id = 0; id < strings_.size(); ++id) {
    std::size_t i = HashName(strings_[id]) & mask;
    while (t[i] != 0) i = (i + 1) & mask;
    t[i] = id + 1;
  }
  table_.swap(t);
}

std::uint32_t StringInterner::Intern(std::string_view s) {
  if ((strings_.size() + 1) * 2 > table_.size()) Grow();  // load factor <= 1/2
  const std::size_t mask = table_.size() - 1;
  std::size_t i = HashName(s) & mask;
  while (table_[i] != 0) {
    if (strings_[table_[i] - 1] == s) return table_[i] - 1;
    i = (i + 1) & mask;
  }
  const auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(Store(s));
  table_[i] = id + 1;
  return id;
}

Location Materialize(const CompactFrame& f, const StringInterner& strings) {
  return Location{std::string(strings.Get(f.filename)), f.line, f.start_char, f.end_char,
                  std::string(strings.Get(f.defname))};
}

void LocationReader::Get(ByteReader& in, OcamlInt* code, std::vector<Location>* locs) {
  GetCompact(in, own_strings_, code, &scratch_);
  locs->clear();
  for (const CompactFrame& f : scratch_) locs->push_back(Materialize(f, own_strings_));
}

template void LocationReader::GetCompact<NoFaults>(ByteReader&, StringInterner&, OcamlInt*,
                                                   std::vector<CompactFrame>*);

}  // namespace mpo::memtrace
