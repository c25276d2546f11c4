// Every memprof-oracle command on every issue-11 bomb, each in a child process: it must
// finish under 256 MB resident, either successfully or with a typed "exceeds the limit"
// error (exit 1). Not a timing test (times are printed; bomb_bench measures them).
// Usage: bomb_rss_test PROGRAM
#include <unistd.h>

#include <cstdio>
#include <string>

#include "bench/memtrace/bomb_commands.h"
#include "bench/memtrace/child_run.h"
#include "core/memtrace/internal/bombs.h"

#if defined(__SANITIZE_ADDRESS__)
#define MPO_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPO_UNDER_ASAN 1
#endif
#endif

constexpr std::uint64_t kRssLimitKb = 256u << 10;
// Not a speed limit: only a guard against a hang (the slowest case takes ~20 s in a
// debug build on a busy 2-core machine).
constexpr double kHangGuardSeconds = 300;

int main(int argc, char** argv) {
  using namespace mpo;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bomb_rss_test PROGRAM\n");
    return 2;
  }
#ifdef MPO_UNDER_ASAN
  // Shadow memory makes resident sizes meaningless, and the sanitised program is several
  // times slower; the sanitised runs of the unit tests and fuzzers cover these inputs.
  std::printf("skipped under ASan\n");
  return 0;
#endif
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp ? tmp : "/tmp";
  int failures = 0;
  for (const auto& bomb : memtrace::bombs::IssueBombs()) {
    const std::string path = dir + "/" + bomb.name + ".ctf";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr ||
        std::fwrite(bomb.bytes.data(), 1, bomb.bytes.size(), f) != bomb.bytes.size() ||
        std::fclose(f) != 0)
      return 2;
    for (const auto& cmd : bench::BombCommands()) {
      std::vector<std::string> args = {argv[1]};
      const std::string out = dir + "/out.ctf";
      for (const std::string& a : cmd.args)
        args.push_back(a == "{}" ? path : a == "{out}" ? out : a);
      const bench::ChildResult r = bench::RunChild(args, kRssLimitKb, kHangGuardSeconds);
      const bool limit = r.stderr_text.find("exceeds the limit") != std::string::npos;
      const bool ok = !r.over_rss && !r.over_time && r.signal == 0 &&
                      (r.exit_code == 0 || (r.exit_code == 1 && limit));
      std::printf("%-6s %-16s %-14s %7.2f s %7.1f MB exit %d%s\n", ok ? "ok" : "FAIL",
                  bomb.name.c_str(), cmd.name.c_str(), r.seconds,
                  static_cast<double>(r.peak_rss_kb) / 1024, r.exit_code,
                  r.over_rss    ? " (killed: RSS)"
                  : r.over_time ? " (killed: time)"
                  : limit       ? " (limit)"
                                : "");
      if (!ok) {
        ++failures;
        std::printf("%s\n", r.stderr_text.substr(0, 2000).c_str());
      }
      unlink(out.c_str());
    }
    unlink(path.c_str());
  }
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
