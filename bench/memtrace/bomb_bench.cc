// Time and peak RSS of every memprof-oracle command on every issue-11 bomb, each in a
// child process (killed past 4 GiB or 120 s, reported as such).
// Run: bazel run -c opt //bench/memtrace:bomb_bench -- [PROGRAM]
//   (PROGRAM: another memprof-oracle to measure, e.g. an older build; default ours).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "bench/memtrace/bomb_commands.h"
#include "bench/memtrace/child_run.h"
#include "core/memtrace/internal/bombs.h"

int main(int argc, char** argv) {
  using namespace mpo;
  std::string program = argc > 1 ? argv[1] : "";
  if (program.empty()) {
    const char* runfiles = std::getenv("RUNFILES_DIR");
    program = std::string(runfiles ? runfiles : ".") + "/memprof_oracle/tools/memprof-oracle";
  }
  char dir_tmpl[] = "/tmp/bomb_bench_XXXXXX";
  const char* dir = mkdtemp(dir_tmpl);
  if (dir == nullptr) return 2;
  std::printf("%-16s %9s  %-14s %9s %10s  %s\n", "bomb", "bytes", "command", "seconds", "peak RSS",
              "outcome");
  for (const auto& bomb : memtrace::bombs::IssueBombs()) {
    const std::string path = std::string(dir) + "/" + bomb.name + ".ctf";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return 2;
    std::fwrite(bomb.bytes.data(), 1, bomb.bytes.size(), f);
    std::fclose(f);
    for (const auto& cmd : bench::BombCommands()) {
      std::vector<std::string> argv = {program};
      const std::string out = std::string(dir) + "/out.ctf";
      for (const std::string& a : cmd.args)
        argv.push_back(a == "{}" ? path : a == "{out}" ? out : a);
      const bench::ChildResult r = bench::RunChild(argv, 4u << 20, 120);
      std::string outcome = r.over_rss    ? "killed: > 4 GiB"
                            : r.over_time ? "killed: > 120 s"
                            : r.signal    ? "signal " + std::to_string(r.signal)
                                          : "exit " + std::to_string(r.exit_code);
      if (r.stderr_text.find("exceeds the limit") != std::string::npos) outcome += " (limit)";
      std::printf("%-16s %9zu  %-14s %9.2f %7.1f MB  %s\n", bomb.name.c_str(), bomb.bytes.size(),
                  cmd.name.c_str(), r.seconds, static_cast<double>(r.peak_rss_kb) / 1024,
                  outcome.c_str());
      std::fflush(stdout);
      unlink(out.c_str());
    }
    unlink(path.c_str());
  }
  rmdir(dir);
  return 0;
}
