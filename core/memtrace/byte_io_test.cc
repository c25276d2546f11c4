#include "core/memtrace/byte_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "testing/scratch_dir.h"

namespace mpo::memtrace {
namespace {

class ByteIoTest : public mpo::testing::ScratchDirTest {
 protected:
  ByteIoTest() : ScratchDirTest("byte_io_test") {}
};

std::span<const std::uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST_F(ByteIoTest, FileSourceReadsARegularFileAndTellsItsIdentity) {
  WriteFile(Path("a"), "hello");
  io::FileId id;
  auto src = OpenFileSource(Path("a"), &id);
  ASSERT_TRUE(src.ok()) << src.status().ToString();
  EXPECT_EQ((*src)->size(), 5u);
  std::uint8_t buf[8];
  auto n = (*src)->ReadAt(1, buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), *n), "ello");
  struct stat st {};
  ASSERT_EQ(::stat(Path("a").c_str(), &st), 0);
  EXPECT_EQ(id, (io::FileId{st.st_dev, st.st_ino}));
}

// Without a writer, open() of a FIFO would block forever: it must be a prompt kIo.
TEST_F(ByteIoTest, FileSourceRefusesAFifoAndADirectory) {
  ASSERT_EQ(::mkfifo(Path("fifo").c_str(), 0600), 0);
  auto fifo = OpenFileSource(Path("fifo"));
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.status().code(), ErrorCode::kIo);
  EXPECT_NE(fifo.status().ToString().find("FIFO"), std::string::npos);
  auto dir = OpenFileSource(dir_.path());
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().code(), ErrorCode::kIo);
  auto missing = OpenFileSource(Path("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIo);
}

TEST_F(ByteIoTest, AtomicSinkReplacesOnlyOnCommit) {
  WriteFile(Path("out"), "old");
  {
    auto sink = AtomicFileSink::Create(Path("out"));
    ASSERT_TRUE(sink.ok()) << sink.status().ToString();
    ASSERT_TRUE((*sink)->Write(Bytes("new")).ok());
    EXPECT_EQ(ReadFile(Path("out")), "old");
  }  // dropped uncommitted
  EXPECT_EQ(ReadFile(Path("out")), "old");
  EXPECT_EQ(EntriesInDir(), 1);
  auto sink = AtomicFileSink::Create(Path("out"));
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->Write(Bytes("new")).ok());
  ASSERT_TRUE((*sink)->Commit().ok());
  EXPECT_EQ(ReadFile(Path("out")), "new");
  EXPECT_EQ(EntriesInDir(), 1);
}

TEST_F(ByteIoTest, AtomicSinkRefusesItsOwnInputThroughALink) {
  WriteFile(Path("in"), "trace");
  io::FileId id;
  auto src = OpenFileSource(Path("in"), &id);
  ASSERT_TRUE(src.ok());
  ASSERT_EQ(::symlink("in", Path("link").c_str()), 0);
  auto sink = AtomicFileSink::Create(Path("link"), std::span<const io::FileId>(&id, 1));
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ReadFile(Path("in")), "trace");
}

}  // namespace
}  // namespace mpo::memtrace
