#include "tools/lazy_commands.h"

namespace mpo::tools {

void AddReachable(CLI::App& parent, std::span<const LazyCommand> commands,
                  std::span<char* const> args) {
  if (!args.empty() && args.front() != nullptr) {
    const std::string_view first = args.front();
    for (const LazyCommand& c : commands) {
      if (c.name == first) return c.add(parent, args.subspan(1));
    }
  }
  for (const LazyCommand& c : commands) c.add(parent, {});
}

}  // namespace mpo::tools
