#include "core/memtrace/analysis/site_name.h"

#include "core/memtrace/location.h"

namespace mpo::memtrace {

Result<std::string> SiteName(const TraceReader& reader, OcamlInt code, std::uint64_t event_offset) {
  auto locs = reader.LocationOfEntry(code, event_offset);
  if (!locs.ok()) return locs.status();
  if ((*locs)->empty()) return "$" + std::to_string(code);
  std::string s;
  for (const Location& l : **locs) {
    if (!s.empty()) s += ' ';
    AppendLocationText(s, l.defname, l.filename, l.line, l.start_char, l.end_char);
  }
  return s;
}

}  // namespace mpo::memtrace
