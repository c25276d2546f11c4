#include "tools/memtrace/limit_options.h"

#include "tools/numeric_options.h"

namespace mpo::tools {

void AddLimitOptions(CLI::App* command, memtrace::Limits* limits) {
  const memtrace::Limits defaults;
  auto add = [&](const char* name, std::uint64_t* field, const char* what, std::uint64_t dflt) {
    command
        ->add_option(name, *field,
                     std::string(what) + " (default " + std::to_string(dflt) +
                         "; passing it is a typed error)")
        ->check(UnsignedIn(1))
        ->group("Limits");
  };
  add("--max-frames", &limits->max_frames, "backtrace entries decoded over the whole trace",
      defaults.max_frames);
  add("--max-held-frames", &limits->max_held_frames,
      "backtrace entries held at once (all domains; folded's stack tree; the frames of "
      "every analysis site's key)",
      defaults.max_held_frames);
  add("--max-location-bytes", &limits->max_location_bytes,
      "bytes of location strings materialised (the analyses: every site's copy of its names)",
      defaults.max_location_bytes);
  add("--max-output-bytes", &limits->max_output_bytes,
      "bytes of location text written (dump_trace lines, folded stacks)",
      defaults.max_output_bytes);
}

}  // namespace mpo::tools
