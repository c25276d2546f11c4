// Names of runtime phases, counters and lifecycle events, per OCaml release.
//
// The ring stores only numbers, and the numbering moved between releases: 5.3 inserted
// four memprof phases in the middle of the list, so a file cannot say which names
// apply (its version word stays 1). The reader is told the release; 5.3 by default.
// Unknown numbers are never an error: callers print them as numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mpo::ring {

enum class OcamlVersion : std::uint8_t { k5_0, k5_1, k5_2, k5_3, k5_4, k5_5 };
inline constexpr OcamlVersion kDefaultOcamlVersion = OcamlVersion::k5_3;

// "5.0" .. "5.5" (also "5.3.0" etc.: the patch level does not matter); nullopt otherwise.
std::optional<OcamlVersion> ParseOcamlVersion(std::string_view text);
std::string_view OcamlVersionName(OcamlVersion v);
// The release a file named `NAME.ocaml-5.N.events` states (the conformance corpus names
// its ring cases so, since a ring cannot say which numbering it uses); nullopt for any
// other name. Only the last path component counts.
std::optional<OcamlVersion> OcamlVersionOfFileName(std::string_view path);
// The release text such a name states ("5.3", also one no table knows, such as "9.9"),
// or "" when the name has no `.ocaml-<release>.events` suffix.
std::string_view OcamlReleaseOfFileName(std::string_view path);

// The name OCaml's Runtime_events gives the id, or nullopt when the release has none.
std::optional<std::string_view> PhaseName(OcamlVersion v, unsigned id);
std::optional<std::string_view> CounterName(OcamlVersion v, unsigned id);
std::optional<std::string_view> LifecycleName(unsigned id);

}  // namespace mpo::ring
