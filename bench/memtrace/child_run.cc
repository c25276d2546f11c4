#include "bench/memtrace/child_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

namespace mpo::bench {
namespace {

// VmHWM of a live process, in KiB (0 if unknown).
std::uint64_t PeakRssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
  return 0;
}

}  // namespace

ChildResult RunChild(const std::vector<std::string>& argv, std::uint64_t rss_limit_kb,
                     double time_limit_s, const std::string& stdout_path) {
  ChildResult res;
  char err_path[] = "/tmp/child_run_stderr_XXXXXX";
  const int err_fd = mkstemp(err_path);
  if (err_fd < 0) return res;
  unlink(err_path);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) _exit(127);
    dup2(out, 1);
    dup2(err_fd, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) {
    close(err_fd);
    return res;
  }
  int status = 0;
  struct rusage ru {};
  while (true) {
    const pid_t done = wait4(pid, &status, WNOHANG, &ru);
    if (done == pid) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::uint64_t rss = PeakRssKb(pid);
    if (rss > res.peak_rss_kb) res.peak_rss_kb = rss;
    if (rss > rss_limit_kb || elapsed > time_limit_s) {
      (rss > rss_limit_kb ? res.over_rss : res.over_time) = true;
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &ru);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.peak_rss_kb =
      std::max<std::uint64_t>(res.peak_rss_kb, static_cast<std::uint64_t>(ru.ru_maxrss));
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  char buf[1 << 16];
  const ssize_t n = pread(err_fd, buf, sizeof buf, 0);
  if (n > 0) res.stderr_text.assign(buf, static_cast<std::size_t>(n));
  close(err_fd);
  return res;
}

}  // namespace mpo::bench
