#include "core/process/spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace mpo::process {
namespace {

struct Outcome {
  int exec_error = -2;
  int status = -1;  // the wait status
  std::string out, err;
};

// A pipe whose write end is above 2, as ChildStdio asks.
struct Pipe {
  UniqueFd r, w;
  Pipe() {
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    r = UniqueFd(fds[0]);
    w = UniqueFd(::fcntl(fds[1], F_DUPFD, 3));  // not close-on-exec: the child's
    ::close(fds[1]);
  }
};

std::string ReadAll(int fd) {
  std::string s;
  char buf[256];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  return s;
}

Outcome SpawnAndWait(const ExecImage& image, SpawnOptions options) {
  Pipe out, err;
  options.stdio.out = out.w.get();
  options.stdio.err = err.w.get();
  Outcome run;
  auto child = Spawn(image, options);
  EXPECT_TRUE(child.ok()) << child.status().ToString();
  if (!child.ok()) return run;
  out.w.Reset();
  err.w.Reset();
  run.exec_error = child->Exec();
  run.out = ReadAll(out.r.get());
  run.err = ReadAll(err.r.get());
  EXPECT_EQ(::waitpid(child->pid(), &run.status, 0), child->pid());
  return run;
}

ExecImage Image(const std::vector<std::string>& argv, const EnvOverrides& env = {}) {
  auto image = ExecImage::Make(argv, env);
  EXPECT_TRUE(image.ok()) << image.status().ToString();
  return std::move(*image);
}

TEST(ExecImage, RefusesNoProgram) {
  for (const auto& argv : {std::vector<std::string>{}, std::vector<std::string>{""}}) {
    auto image = ExecImage::Make(argv, {});
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(image.status().field(), "PROG");
  }
}

TEST(Spawn, RunsTheProgramFoundInPathWithTheEnvironmentGiven) {
  ::setenv("MPO_SPAWN_KEPT", "kept", 1);
  ::setenv("MPO_SPAWN_REPLACED", "old", 1);
  const Outcome r = SpawnAndWait(
      Image({"sh", "-c", "echo \"$0 $MPO_SPAWN_KEPT $MPO_SPAWN_REPLACED $MPO_SPAWN_ADDED\"; exit 3",
             "zero"},
            {{"MPO_SPAWN_REPLACED", "new"}, {"MPO_SPAWN_ADDED", "added"}}),
      {});
  EXPECT_EQ(r.exec_error, 0);
  EXPECT_EQ(r.out, "zero kept new added\n");
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(WEXITSTATUS(r.status), 3);
}

TEST(Spawn, AMissingProgramIsReportedAsAShellWould) {
  const Outcome r =
      SpawnAndWait(Image({"mpo-no-such-program-anywhere"}), {.failure_prefix = "cannot run it: "});
  EXPECT_EQ(r.exec_error, ENOENT);
  EXPECT_EQ(r.err, std::string("cannot run it: ") + std::strerror(ENOENT) + "\n");
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(WEXITSTATUS(r.status), 127);
}

TEST(Spawn, ANonExecutableFileIsReportedAsAShellWould) {
  const std::string dir = ::testing::TempDir();
  const std::string file = dir + "/mpo_spawn_not_executable";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const Outcome r = SpawnAndWait(Image({file}), {});
  // root may execute a file without an x bit only if some x bit is set: EACCES either way.
  EXPECT_EQ(r.exec_error, EACCES);
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(WEXITSTATUS(r.status), 126);
  EXPECT_EQ(ExecFailureStatus(ENOTDIR), 127);
}

TEST(Spawn, AGatedChildRunsOnlyWhenLetGoOn) {
  Pipe out;
  auto dropped =
      Spawn(Image({"sh", "-c", "echo ran"}), {.stdio = {.out = out.w.get()}, .gated = true});
  ASSERT_TRUE(dropped.ok());
  const pid_t pid = dropped->pid();
  dropped->Drop();
  // The dropped child is reaped: it is no longer our child.
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  auto kept =
      Spawn(Image({"sh", "-c", "echo ran"}), {.stdio = {.out = out.w.get()}, .gated = true});
  ASSERT_TRUE(kept.ok());
  out.w.Reset();
  EXPECT_EQ(kept->Exec(), 0);
  EXPECT_EQ(ReadAll(out.r.get()), "ran\n");  // once: the dropped child never ran
  int status = 0;
  EXPECT_EQ(::waitpid(kept->pid(), &status, 0), kept->pid());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(Spawn, StdinFromDevNull) {
  const Outcome r =
      SpawnAndWait(Image({"sh", "-c", "cat; echo end"}), {.stdio = {.in = ChildStdio::kDevNull}});
  EXPECT_EQ(r.out, "end\n");
}

TEST(Spawn, ProcessGroupOfItsOwnOnlyWhenAsked) {
  // Field 5 of /proc/PID/stat is the process group; the shell's comm "sh" has no space.
  const std::vector<std::string> argv = {
      "sh", "-c", "read -r p c s pp g rest < /proc/$$/stat; [ \"$g\" = \"$$\" ]"};
  const Outcome own = SpawnAndWait(Image(argv), {.new_process_group = true});
  EXPECT_TRUE(WIFEXITED(own.status) && WEXITSTATUS(own.status) == 0);
  const Outcome ours = SpawnAndWait(Image(argv), {});
  EXPECT_TRUE(WIFEXITED(ours.status) && WEXITSTATUS(ours.status) == 1);
}

TEST(Spawn, ShellTakesTheEnvironmentAtExecAndSurvivesAMove) {
  ExecImage first = ExecImage::Shell("echo \"$MPO_SPAWN_LATE\" \"$0\"");
  ExecImage image = std::move(first);
  ::setenv("MPO_SPAWN_LATE", "late", 1);
  const Outcome r = SpawnAndWait(image, {});
  EXPECT_EQ(r.exec_error, 0);
  EXPECT_EQ(r.out, "late sh\n");
}

// Plain words run without the shell, with exactly the arguments the shell would pass;
// anything the shell would expand, redirect or interpret keeps it.
TEST(Spawn, CommandSkipsTheShellOnlyWhereItWouldRunOneProgram) {
  const std::string printf_path = ExecImage::Command("cat /dev/null").program();
  ASSERT_NE(printf_path, "/bin/sh");
  ASSERT_NE(printf_path.find("/cat"), std::string::npos);
  for (const char* direct :
       {"/usr/bin/printf '%s|' a 'b c' d\\ e '' 'it'\\''s'", "cat -- x,y:z@1"}) {
    EXPECT_NE(ExecImage::Command(direct).program(), "/bin/sh") << direct;
  }
  for (const char* shell :
       {"cat $HOME", "cat a > b", "cat a; cat b", "cat *", "X=1 cat", "exit 3", "echo 'a\\nb'",
        "cat 'unterminated", "cd / && cat x", "no-such-program-here x", "cat ~/x", "cat \"x\"",
        "cat a\tb", "", "/etc/passwd"}) {
    EXPECT_EQ(ExecImage::Command(shell).program(), "/bin/sh") << shell;
  }
  // The same output either way.
  for (const char* cmd :
       {"/usr/bin/printf '%s|' a 'b c' d\\ e '' 'it'\\''s'  x", "cat /dev/null"}) {
    const Outcome direct = SpawnAndWait(ExecImage::Command(cmd), {});
    const Outcome shell = SpawnAndWait(ExecImage::Shell(cmd), {});
    EXPECT_EQ(direct.exec_error, 0);
    EXPECT_EQ(direct.out, shell.out) << cmd;
    EXPECT_EQ(direct.status, shell.status) << cmd;
  }
  EXPECT_EQ(
      SpawnAndWait(ExecImage::Command("/usr/bin/printf '%s|' a 'b c' d\\ e '' 'it'\\''s'"), {}).out,
      "a|b c|d e||it's|");
}

// PosixSpawn: the same program, descriptors and environment as Spawn, without fork.
Outcome PosixSpawnAndWait(const ExecImage& image, ChildStdio stdio) {
  Pipe out, err;
  stdio.out = out.w.get();
  stdio.err = err.w.get();
  Outcome run;
  pid_t pid = -1;
  run.exec_error = PosixSpawn(image, stdio, pid);
  out.w.Reset();
  err.w.Reset();
  if (run.exec_error != 0) return run;
  run.out = ReadAll(out.r.get());
  run.err = ReadAll(err.r.get());
  EXPECT_EQ(::waitpid(pid, &run.status, 0), pid);
  return run;
}

TEST(PosixSpawn, RunsTheProgramWithItsEnvironmentAndDescriptors) {
  ::setenv("MPO_SPAWN_KEPT", "kept", 1);
  const Outcome r = PosixSpawnAndWait(
      Image({"sh", "-c", "echo \"$MPO_SPAWN_KEPT $MPO_SPAWN_ADDED\"; echo oops >&2; exit 3"},
            {{"MPO_SPAWN_ADDED", "added"}}),
      {});
  EXPECT_EQ(r.exec_error, 0);
  EXPECT_EQ(r.out, "kept added\n");
  EXPECT_EQ(r.err, "oops\n");
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(WEXITSTATUS(r.status), 3);
  // The shell image takes the environment at the start.
  EXPECT_EQ(PosixSpawnAndWait(ExecImage::Shell("echo \"$MPO_SPAWN_KEPT\""), {}).out, "kept\n");
}

TEST(PosixSpawn, AFailedExecIsItsError) {
  EXPECT_EQ(PosixSpawnAndWait(Image({"mpo-no-such-program-anywhere"}), {}).exec_error, ENOENT);
  const std::string file = ::testing::TempDir() + "/mpo_posix_spawn_not_executable";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_EQ(PosixSpawnAndWait(Image({file}), {}).exec_error, EACCES);
}

// stdin from a pipe or /dev/null, the pipe's source not left open in the child, and SIGPIPE is back
// to its default when asked.
TEST(PosixSpawn, StdinSourcesClosedAndSigpipe) {
  Pipe in;
  ASSERT_EQ(::write(in.w.get(), "fed\n", 4), 4);
  const int in_r = ::fcntl(in.r.get(), F_DUPFD, 3);  // not close-on-exec: the child's
  ASSERT_GE(in_r, 3);
  in.w.Reset();
  // The shell says whether its own copy of the source is still open.
  const std::string check_source =
      "cat; [ -e /proc/$$/fd/" + std::to_string(in_r) + " ] && echo leaked; echo end";
  const Outcome piped = PosixSpawnAndWait(Image({"sh", "-c", check_source}), {.in = in_r});
  ::close(in_r);
  EXPECT_EQ(piped.exec_error, 0);
  EXPECT_EQ(piped.out, "fed\nend\n");
  const Outcome null =
      PosixSpawnAndWait(Image({"sh", "-c", "cat; echo end"}), {.in = ChildStdio::kDevNull});
  EXPECT_EQ(null.out, "end\n");
  const auto old = ::signal(SIGPIPE, SIG_IGN);
  const char* sigpipe = "grep SigIgn /proc/self/status";
  const Outcome ignored = PosixSpawnAndWait(Image({"sh", "-c", sigpipe}), {});
  const Outcome reset = PosixSpawnAndWait(Image({"sh", "-c", sigpipe}), {.default_sigpipe = true});
  ::signal(SIGPIPE, old);
  // SIGPIPE (13) is bit 12 of the mask's last hex digits: 0x1000.
  auto ignores_sigpipe = [](const std::string& line) {
    const auto colon = line.find(':');
    return (std::stoull(line.substr(colon + 1), nullptr, 16) & (1ull << 12)) != 0;
  };
  EXPECT_TRUE(ignores_sigpipe(ignored.out)) << ignored.out;
  EXPECT_FALSE(ignores_sigpipe(reset.out)) << reset.out;
}

}  // namespace
}  // namespace mpo::process
