#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <string>

#include "core/io/cleanup_registry.h"
#include "core/io/input_file.h"
#include "core/io/output_file.h"
#include "testing/scratch_dir.h"

namespace mpo::io {
namespace {

class FilesTest : public mpo::testing::ScratchDirTest {
 protected:
  FilesTest() : ScratchDirTest("files_test") {}
};

TEST_F(FilesTest, OpensRegularFileWithSize) {
  WriteFile(Path("a"), "hello");
  auto in = OpenInput(Path("a"));
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_EQ(in->size, 5u);
  EXPECT_TRUE(in->fd.valid());
  EXPECT_EQ(::fcntl(in->fd.get(), F_GETFL) & O_NONBLOCK, 0);
}

TEST_F(FilesTest, MissingFileIsIoError) {
  auto in = OpenInput(Path("nope"));
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), ErrorCode::kIo);
  EXPECT_EQ(in.status().field(), Path("nope"));
  EXPECT_NE(in.status().message().find("no such file"), std::string::npos);
}

TEST_F(FilesTest, DirectoryIsRefused) {
  auto in = OpenInput(dir_.path());
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("directory"), std::string::npos);
}

TEST_F(FilesTest, FifoIsRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(Path("fifo").c_str(), 0600), 0);
  auto in = OpenInput(Path("fifo"));  // would block forever without O_NONBLOCK
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("FIFO"), std::string::npos);
}

TEST_F(FilesTest, CommitReplacesTargetAtomically) {
  WriteFile(Path("b"), "old");
  auto out = AtomicOutput::Create(Path("b"));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE(out->Write(std::string_view("new contents")).ok());
  EXPECT_EQ(ReadFile(Path("b")), "old");  // untouched until the commit
  ASSERT_TRUE(out->Commit().ok());
  EXPECT_EQ(ReadFile(Path("b")), "new contents");
  EXPECT_FALSE(out->Commit().ok());
}

TEST_F(FilesTest, UncommittedOutputLeavesTargetAndNoTemporary) {
  WriteFile(Path("b"), "old");
  {
    auto out = AtomicOutput::Create(Path("b"));
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->Write(std::string(200000, 'x')).ok());
  }
  EXPECT_EQ(ReadFile(Path("b")), "old");
  EXPECT_EQ(EntriesInDir(), 1);  // "b" only: the hidden temporary is gone
}

TEST_F(FilesTest, SyncThenCommitAndRestartForgetsWhatWasWritten) {
  WriteFile(Path("b"), "old");
  auto out = AtomicOutput::Create(Path("b"));
  ASSERT_TRUE(out.ok());
  // Past the 64 KiB buffer, so that bytes reach the temporary file before the restart.
  ASSERT_TRUE(out->Write(std::string(300000, 'x')).ok());
  ASSERT_TRUE(out->Sync().ok());
  EXPECT_EQ(ReadFile(Path("b")), "old");  // a sync commits nothing
  ASSERT_TRUE(out->Restart().ok());
  ASSERT_TRUE(out->Write(std::string_view("again")).ok());
  ASSERT_TRUE(out->Sync().ok());
  ASSERT_TRUE(out->Commit().ok());
  EXPECT_EQ(ReadFile(Path("b")), "again");
  EXPECT_EQ(EntriesInDir(), 1);
  EXPECT_EQ(out->Restart().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(out->Sync().code(), ErrorCode::kFailedPrecondition);
}

TEST_F(FilesTest, RefusesInputThroughSymlinkAndHardLink) {
  WriteFile(Path("a"), "input");
  auto in = OpenInput(Path("a"));
  ASSERT_TRUE(in.ok());
  ASSERT_EQ(::symlink(Path("a").c_str(), Path("link").c_str()), 0);
  ASSERT_EQ(::link(Path("a").c_str(), Path("hard").c_str()), 0);
  const FileId ids[] = {in->id};
  for (const char* target : {"a", "link", "hard"}) {
    auto out = AtomicOutput::Create(Path(target), ids);
    ASSERT_FALSE(out.ok()) << target;
    EXPECT_EQ(out.status().code(), ErrorCode::kInvalidArgument);
  }
  EXPECT_EQ(ReadFile(Path("a")), "input");
}

TEST_F(FilesTest, PlantedSymlinkIsReplacedNotFollowed) {
  WriteFile(Path("a"), "victim");
  ASSERT_EQ(::symlink(Path("a").c_str(), Path("link").c_str()), 0);
  auto out = AtomicOutput::Create(Path("link"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->Write(std::string_view("output")).ok());
  ASSERT_TRUE(out->Commit().ok());
  EXPECT_EQ(ReadFile(Path("a")), "victim");
  EXPECT_EQ(ReadFile(Path("link")), "output");
  struct stat st {};
  ASSERT_EQ(::lstat(Path("link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

TEST_F(FilesTest, DirectoryTargetIsRefused) {
  auto out = AtomicOutput::Create(dir_.path());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), ErrorCode::kInvalidArgument);
}

TEST_F(FilesTest, MissingDirectoryIsIoError) {
  auto out = AtomicOutput::Create(Path("no-such-dir/x"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), ErrorCode::kIo);
}

TEST_F(FilesTest, FifoAndSocketTargetsAreRefusedAndKept) {
  ASSERT_EQ(::mkfifo(Path("fifo").c_str(), 0600), 0);
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, "sock", 5);
  // Bound by a relative name: the scratch path may be longer than sun_path holds.
  const int cwd = ::open(".", O_RDONLY | O_DIRECTORY);
  ASSERT_GE(cwd, 0);
  ASSERT_EQ(::chdir(dir_.path().c_str()), 0);
  const int bound = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ASSERT_EQ(::fchdir(cwd), 0);
  ::close(cwd);
  ASSERT_EQ(bound, 0);
  for (const char* target : {"fifo", "sock"}) {
    auto out = AtomicOutput::Create(Path(target));
    ASSERT_FALSE(out.ok()) << target;
    EXPECT_EQ(out.status().code(), ErrorCode::kInvalidArgument) << target;
    EXPECT_NE(out.status().message().find("not a regular file"), std::string::npos);
  }
  ::close(sock);
  struct stat st {};
  ASSERT_EQ(::lstat(Path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(EntriesInDir(), 2);  // no temporary left
}

TEST_F(FilesTest, ReplacedFileKeepsItsMode) {
  WriteFile(Path("private"), "old");
  ASSERT_EQ(::chmod(Path("private").c_str(), 0600), 0);
  auto out = AtomicOutput::Create(Path("private"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->Write(std::string_view("new")).ok());
  ASSERT_TRUE(out->Commit().ok());
  struct stat st {};
  ASSERT_EQ(::stat(Path("private").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(ReadFile(Path("private")), "new");
}

TEST_F(FilesTest, LongestLegalNameIsWritten) {
  for (const std::size_t length : {std::size_t{243}, std::size_t{244}, std::size_t{255}}) {
    const std::string name(length, 'n');
    auto out = AtomicOutput::Create(Path(name));
    ASSERT_TRUE(out.ok()) << length << ": " << out.status().ToString();
    ASSERT_TRUE(out->Write(std::string_view("long")).ok());
    ASSERT_TRUE(out->Commit().ok());
    EXPECT_EQ(ReadFile(Path(name)), "long");
    ASSERT_EQ(::unlink(Path(name).c_str()), 0);
  }
  EXPECT_EQ(EntriesInDir(), 0);
}

TEST_F(FilesTest, CommitNewNeverReplacesAFileOrASymlink) {
  WriteFile(Path("victim"), "victim");
  ASSERT_EQ(::symlink(Path("victim").c_str(), Path("link").c_str()), 0);
  ASSERT_EQ(::symlink(Path("nowhere").c_str(), Path("dangling").c_str()), 0);
  for (const char* target : {"victim", "link", "dangling"}) {
    auto out = AtomicOutput::Create(Path(target));
    ASSERT_TRUE(out.ok()) << target;
    ASSERT_TRUE(out->Write(std::string_view("new")).ok());
    const Status s = out->CommitNew();
    EXPECT_EQ(s.code(), ErrorCode::kIo) << target;
    EXPECT_NE(s.message().find("already exists"), std::string::npos) << s.ToString();
  }
  EXPECT_EQ(ReadFile(Path("victim")), "victim");
  EXPECT_FALSE(::access(Path("nowhere").c_str(), F_OK) == 0);
  auto fresh = AtomicOutput::Create(Path("fresh"));
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE(fresh->Write(std::string_view("fresh")).ok());
  ASSERT_TRUE(fresh->CommitNew().ok());
  EXPECT_EQ(ReadFile(Path("fresh")), "fresh");
  EXPECT_EQ(EntriesInDir(), 4);  // victim, link, dangling, fresh: no temporary
}

TEST_F(FilesTest, WritePastFileSizeLimitIsIoErrorAndLeavesNoTemporary) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    InstallSignalPolicy();
    const rlimit limit{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(10);
    auto out = AtomicOutput::Create(Path("big"));
    if (!out.ok()) ::_exit(11);
    (void)out->Write(std::string(200000, 'x'));
    const Status s = out->Commit();
    ::_exit(s.code() == ErrorCode::kIo && s.message().find("too large") != std::string::npos ? 0
                                                                                             : 12);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(EntriesInDir(), 0);
}

TEST_F(FilesTest, TerminationSignalRemovesTemporaryFilesAndFolders) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGPIPE}) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::signal(sig, SIG_DFL);
      InstallSignalPolicy();
      auto out = AtomicOutput::Create(Path("target"));
      if (!out.ok() || !out->Write(std::string(100000, 'x')).ok()) ::_exit(10);
      const std::string tree = Path("tree");
      if (::mkdir(tree.c_str(), 0700) != 0 || ::mkdir((tree + "/sub").c_str(), 0700) != 0) {
        ::_exit(11);
      }
      WriteFile(tree + "/a", "a");
      WriteFile(tree + "/sub/b", "b");
      ScopedCleanup folder(tree, CleanupKind::kTree);
      if (!folder.registered()) ::_exit(12);
      (void)!::write(ready[1], "r", 1);
      ::pause();
      ::_exit(13);
    }
    ::close(ready[1]);
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ::close(ready[0]);
    ASSERT_EQ(::kill(pid, sig), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << sig << ": exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(EntriesInDir(), 0) << "signal " << sig;
  }
}

TEST_F(FilesTest, ForkedChildNeverRemovesItsParentsFiles) {
  WriteFile(Path("kept"), "kept");
  ScopedCleanup parent(Path("kept"), CleanupKind::kFile);
  ASSERT_TRUE(parent.registered());
  InstallSignalPolicy();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(ReadFile(Path("kept")), "kept");
}

}  // namespace
}  // namespace mpo::io
