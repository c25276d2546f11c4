#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <string>

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

}  // namespace
}  // namespace mpo::io
