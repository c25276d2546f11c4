#include "tools/lazy_commands.h"

namespace mpo::tools {

namespace {

void Add(const LazyCommand& c, CLI::App& parent, std::span<char* const> rest) {
  if (c.add_lazy != nullptr)
    c.add_lazy(parent, rest);
  else
    c.add(parent);
}

}  // namespace

void AddReachable(CLI::App& parent, std::span<const LazyCommand> commands,
                  std::span<char* const> args) {
  if (!args.empty() && args.front() != nullptr) {
    const std::string_view first = args.front();
    for (const LazyCommand& c : commands) {
      if (c.name == first) return Add(c, parent, args.subspan(1));
    }
  }
  for (const LazyCommand& c : commands) Add(c, parent, {});
}

}  // namespace mpo::tools
