#include "core/memtrace/site_name.h"

#include "core/memtrace/location.h"

namespace mpo::memtrace {

Result<std::string> SiteName(const TraceReader& reader, OcamlInt code) {
  if (!reader.HasLocation(code)) return "<undefined " + std::to_string(code) + ">";
  auto locs = reader.LocationOfEntry(code, reader.event_offset());
  if (!locs.ok()) return locs.status();
  if ((*locs)->empty()) return "$" + std::to_string(code);
  std::string s;
  for (const Location& l : **locs) s += (s.empty() ? "" : " ") + LocationToString(l);
  return s;
}

}  // namespace mpo::memtrace
