#include "tools/events/ring_input.h"

#include "tools/events/pid_arg.h"
#include "tools/numeric_options.h"

namespace mpo::tools {

Result<RingSource> ParseRingSource(const std::vector<std::string>& args) {
  if (args.size() == 1) return RingSource{args[0], -1};
  if (args.size() == 2) {
    auto parsed = ParsePid(args[1]);
    if (!parsed.ok()) return parsed.status();
    const std::int64_t pid = *parsed;
    return RingSource{
        (args[0].empty() ? std::string(".") : args[0]) + "/" + std::to_string(pid) + ".events",
        pid};
  }
  return Status(ErrorCode::kInvalidArgument, "give DIR PID or FILE").WithField("arguments");
}

void AddRingReadOptions(CLI::App* cmd, RingReadOptions& o) {
  cmd->add_option("--ocaml-version", o.version,
                  "OCaml release whose phase/counter numbering the file uses (5.0 .. 5.5); "
                  "default: 5.N for a file named NAME.ocaml-5.N.events (as the conformance "
                  "corpus names them), else 5.3");
  cmd->add_option("--batch", o.batch,
                  "messages validated per fence and head re-check (1 = OCaml's algorithm)")
      ->check(UnsignedIn(1, 64));
}

Result<ring::OcamlVersion> ParseVersion(const std::optional<std::string>& v,
                                        const std::string& path) {
  if (!v) return ring::OcamlVersionOfFileName(path).value_or(ring::kDefaultOcamlVersion);
  auto parsed = ring::ParseOcamlVersion(*v);
  if (!parsed) {
    return Status(ErrorCode::kInvalidArgument, "unknown OCaml release " + *v + " (5.0 .. 5.5)")
        .WithField("--ocaml-version");
  }
  return *parsed;
}

Result<std::map<std::string, std::string>> ParseTags(const std::vector<std::string>& tags) {
  std::map<std::string, std::string> m;
  for (const std::string& t : tags) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status(ErrorCode::kInvalidArgument, "expected NAME=TAG, got " + t).WithField("--tag");
    }
    m[t.substr(0, eq)] = t.substr(eq + 1);
  }
  return m;
}

Result<ring::Cursor> OpenRing(const std::string& path, std::size_t batch, Verdicts verdicts) {
  auto c = ring::Cursor::OpenFile(path, ring::CursorOptions{batch, RulesOf(verdicts).ring});
  if (!c.ok() && c.status().code() == ErrorCode::kNotFound) {
    Status s(ErrorCode::kIo, c.status().message());
    return std::move(s.WithField(c.status().field()));
  }
  return c;
}

Result<std::pair<std::uint64_t, std::uint64_t>> Drain(ring::Cursor& c, ring::EventCallbacks& cb,
                                                      const std::function<void()>& after_poll) {
  std::uint64_t polls = 0, total = 0;
  while (true) {
    auto n = c.ReadPoll(cb);
    if (!n.ok()) return n.status();
    ++polls;
    total += *n;
    after_poll();
    if (*n == 0) return std::make_pair(polls, total);
  }
}

}  // namespace mpo::tools
