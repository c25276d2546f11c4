#include "core/process/spawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace mpo::process {

Result<ExecImage> ExecImage::Make(const std::vector<std::string>& argv, const EnvOverrides& env) {
  if (argv.empty() || argv[0].empty()) {
    return Status(ErrorCode::kInvalidArgument, "no program to run").WithField("PROG");
  }
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : env) vars[name] = value;
  ExecImage image;
  image.args_ = argv;
  image.env_.reserve(vars.size());
  for (const auto& [name, value] : vars) {
    std::string entry = name;
    entry += '=';
    entry += value;
    image.env_.push_back(std::move(entry));
  }
  image.own_env_ = true;
  image.Point();
  return image;
}

ExecImage ExecImage::Shell(const std::string& command) {
  ExecImage image;
  image.path_ = "/bin/sh";
  image.args_ = {"sh", "-c", command};
  image.Point();
  return image;
}

namespace {

bool PlainChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::strchr("/._-+=:,@%^", c) != nullptr;
}

// The words of `command` as the shell would split and unquote them, or nothing when it
// uses anything beyond plain words and quoting (see Command).
std::optional<std::vector<std::string>> PlainWords(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const std::size_t end = command.find('\'', i + 1);
      if (end == std::string::npos) return std::nullopt;
      word.append(command, i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (c == '\\') {
      if (i + 1 >= command.size() || command[i + 1] == '\n') return std::nullopt;
      word += command[++i];
      in_word = true;
    } else if (PlainChar(c)) {
      word += c;
      in_word = true;
    } else {
      return std::nullopt;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// An executable regular file that the kernel runs itself (ELF or #!): exec of anything
// else fails with ENOEXEC, where the shell would have read it as a script.
bool DirectlyExecutable(const std::string& path) {
  if (::access(path.c_str(), X_OK) != 0) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  char head[4] = {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const ssize_t n = regular ? ::read(fd, head, sizeof head) : 0;
  ::close(fd);
  return (n >= 2 && head[0] == '#' && head[1] == '!') || (n == 4 && std::memcmp(head,
                                                                                "\x7f"
                                                                                "ELF",
                                                                                4) == 0);
}

// `program` as execvp would find it, or "" when it would not be run directly.
std::string ResolveProgram(const std::string& program) {
  if (program.find('/') != std::string::npos)
    return DirectlyExecutable(program) ? program : std::string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    std::string candidate = std::move(dir);
    candidate += '/';
    candidate += program;
    if (DirectlyExecutable(candidate)) return candidate;
    if (colon == std::string_view::npos) return {};
    dirs.remove_prefix(colon + 1);
  }
}

}  // namespace

ExecImage ExecImage::Command(const std::string& command) {
  auto words = PlainWords(command);
  // A first word with '=' is an assignment; a keyword or builtin is the shell's own.
  static constexpr std::string_view kShellOwn[] = {
      "exec", "exit", "cd", "ulimit", "umask", "set", "trap", "export", "readonly", "unset",
      "shift", "eval", "return", "break", "continue", "wait", "read", "alias", "command", "type",
      "hash", "getopts", "local", "times", "if", "while", "until", "for", "case",
      // Builtins whose utility namesakes may differ (echo's backslashes, for one).
      "echo", "printf", "test", "kill", "pwd", "true", "false"};
  if (!words || words->empty() || (*words)[0].find('=') != std::string::npos ||
      std::find(std::begin(kShellOwn), std::end(kShellOwn), (*words)[0]) != std::end(kShellOwn))
    return Shell(command);
  std::string program = ResolveProgram((*words)[0]);
  if (program.empty()) return Shell(command);
  ExecImage image;
  image.path_ = std::move(program);
  image.args_ = std::move(*words);
  image.Point();
  return image;
}

void ExecImage::Point() {
  argp_.clear();
  for (std::string& s : args_) argp_.push_back(s.data());
  argp_.push_back(nullptr);
  envp_.clear();
  for (std::string& s : env_) envp_.push_back(s.data());
  envp_.push_back(nullptr);
}

int ExecImage::Exec() const {
  if (path_.empty()) {
    if (own_env_) {
      ::execvpe(argp_[0], argp_.data(), envp_.data());
    } else {
      ::execvp(argp_[0], argp_.data());
    }
  } else if (own_env_) {
    ::execve(path_.c_str(), argp_.data(), envp_.data());
  } else {
    ::execv(path_.c_str(), argp_.data());
  }
  return errno;
}

int ExecInChild(const ExecImage& image, const ChildStdio& stdio) {
  if (stdio.default_sigpipe) ::signal(SIGPIPE, SIG_DFL);
  if (stdio.in >= 0) {
    ::dup2(stdio.in, 0);
    ::close(stdio.in);
  } else if (stdio.in == ChildStdio::kDevNull) {
    const int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) ::dup2(devnull, 0);
    if (devnull > 2) ::close(devnull);
  }
  if (stdio.out >= 0) ::dup2(stdio.out, 1);
  if (stdio.err >= 0) ::dup2(stdio.err, 2);
  if (stdio.out >= 0) ::close(stdio.out);
  if (stdio.err >= 0 && stdio.err != stdio.out) ::close(stdio.err);
  return image.Exec();
}

namespace {

// posix_spawn's attribute objects, destroyed on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  int error = 0;
  SpawnSetup() {
    error = ::posix_spawn_file_actions_init(&actions);
    if (error == 0 && (error = ::posix_spawnattr_init(&attr)) != 0)
      ::posix_spawn_file_actions_destroy(&actions);
  }
  ~SpawnSetup() {
    if (error != 0) return;
    ::posix_spawnattr_destroy(&attr);
    ::posix_spawn_file_actions_destroy(&actions);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

}  // namespace

int PosixSpawn(const ExecImage& image, const ChildStdio& stdio, pid_t& pid) {
  SpawnSetup setup;
  if (setup.error != 0) return setup.error;
  posix_spawn_file_actions_t* actions = &setup.actions;
  int error = 0;
  auto add = [&error](int result) {
    if (error == 0) error = result;
  };
  if (stdio.in >= 0) {
    add(::posix_spawn_file_actions_adddup2(actions, stdio.in, 0));
  } else if (stdio.in == ChildStdio::kDevNull) {
    add(::posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDWR, 0));
  }
  if (stdio.out >= 0) add(::posix_spawn_file_actions_adddup2(actions, stdio.out, 1));
  if (stdio.err >= 0) add(::posix_spawn_file_actions_adddup2(actions, stdio.err, 2));
  // Each source once: closing one twice would fail the whole start.
  if (stdio.in >= 0) add(::posix_spawn_file_actions_addclose(actions, stdio.in));
  if (stdio.out >= 0 && stdio.out != stdio.in)
    add(::posix_spawn_file_actions_addclose(actions, stdio.out));
  if (stdio.err >= 0 && stdio.err != stdio.in && stdio.err != stdio.out)
    add(::posix_spawn_file_actions_addclose(actions, stdio.err));
  if (stdio.default_sigpipe) {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    add(::posix_spawnattr_setsigdefault(&setup.attr, &pipe_only));
    add(::posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETSIGDEF));
  }
  if (error != 0) return error;
  char* const* envp = image.own_env_ ? image.envp_.data() : environ;
  if (image.path_.empty())
    return ::posix_spawnp(&pid, image.argp_[0], actions, &setup.attr, image.argp_.data(), envp);
  return ::posix_spawn(&pid, image.path_.c_str(), actions, &setup.attr, image.argp_.data(), envp);
}

int ExecFailureStatus(int error) { return error == ENOENT || error == ENOTDIR ? 127 : 126; }

Result<Spawned> Spawn(const ExecImage& image, const SpawnOptions& options) {
  // One socket: the parent's word to a gated child, and the child's exec error back (both
  // ends close-on-exec, so end of file means exec succeeded). A socket rather than a pipe:
  // send() with MSG_NOSIGNAL, so a child killed meanwhile cannot end the parent with
  // SIGPIPE.
  int channel[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) {
    return Status(ErrorCode::kIo, std::string("socketpair: ") + std::strerror(errno));
  }
  UniqueFd ours(channel[1]), theirs(channel[0]);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return Status(ErrorCode::kIo, std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(ours.get());
    const int fd = theirs.get();
    if (options.gated) {
      char word = 0;
      ssize_t r;
      do {
        r = ::read(fd, &word, 1);
      } while (r < 0 && errno == EINTR);
      if (r != 1) ::_exit(0);  // dropped
    }
    if (options.new_process_group) ::setpgid(0, 0);
    const int error = ExecInChild(image, options.stdio);
    const char* reason = std::strerror(error);
    const std::string& prefix = options.failure_prefix;
    (void)!::write(2, prefix.data(), prefix.size());
    (void)!::write(2, reason, std::strlen(reason));
    (void)!::write(2, "\n", 1);
    (void)!::send(fd, &error, sizeof error, MSG_NOSIGNAL);
    ::_exit(ExecFailureStatus(error));
  }
  theirs.Reset();
  return Spawned(pid, std::move(ours), options.gated);
}

int Spawned::Exec() {
  if (!channel_.valid()) return -1;
  if (gated_ && ::send(channel_.get(), "g", 1, MSG_NOSIGNAL) != 1) return -1;
  gated_ = false;
  int error = 0;
  ssize_t r;
  do {
    r = ::recv(channel_.get(), &error, sizeof error, MSG_WAITALL);
  } while (r < 0 && errno == EINTR);
  channel_.Reset();
  return r == static_cast<ssize_t>(sizeof error) && error != 0 ? error : 0;
}

void Spawned::Drop() {
  if (!gated_ || pid_ <= 0) return;
  channel_.Reset();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  gated_ = false;
  pid_ = -1;
}

}  // namespace mpo::process
