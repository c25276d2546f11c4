// A ring file that another process shrinks, a non-regular input, and a planted link
// at the producer's path: typed errors, never SIGBUS, a hang, or a clobbered file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "core/ring/cursor.h"
#include "core/ring/mapped_file.h"
#include "core/ring/producer.h"

namespace mpo::ring {
namespace {

std::string TmpDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// A preserved ring file of 2 domains of 4096 words (32 KiB each, so ring 1's data is
// pages away from the headers), `n` counters in each.
std::string WriteRing(std::int64_t pid, unsigned n) {
  ProducerOptions o;
  o.dir = TmpDir();
  o.max_domains = 2;
  o.ring_log2_words = 12;
  o.pid = pid;
  o.preserve = true;
  RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_TRUE(ev.Counter(0, 4, i).ok());
    EXPECT_TRUE(ev.Counter(1, 5, 100 + i).ok());
  }
  const std::string path = ev.path();
  EXPECT_TRUE(ev.Stop().ok());
  return path;
}

struct Counters : EventCallbacks {
  std::string truncate_path;  // truncated to `truncate_to` at the first counter
  off_t truncate_to = 0;
  int seen = 0;
  int seen_ring1 = 0;
  bool RuntimeCounter(std::uint32_t ring, std::uint64_t, unsigned, std::uint64_t) override {
    if (!truncate_path.empty()) {
      EXPECT_EQ(::truncate(truncate_path.c_str(), truncate_to), 0);
      truncate_path.clear();
    }
    ++seen;
    if (ring == 1) ++seen_ring1;
    return true;
  }
};

TEST(ShrinkingFile, TruncatedBetweenPollsIsTypedError) {
  const std::string path = WriteRing(31001, 50);
  auto c = Cursor::OpenFile(path);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  Counters cb;
  ASSERT_TRUE(c->ReadPoll(cb, 10).ok());
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  auto r = c->ReadPoll(cb);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kTruncated) << r.status().ToString();
  EXPECT_EQ(r.status().field(), path);
  EXPECT_NE(r.status().message().find("shrank while mapped"), std::string::npos);
  EXPECT_NE(r.status().message().find("4096 now"), std::string::npos) << r.status().ToString();
  // Sticky: the next poll says the same, and nothing more was delivered.
  const int seen = cb.seen;
  EXPECT_EQ(c->ReadPoll(cb).status().code(), ErrorCode::kTruncated);
  EXPECT_EQ(cb.seen, seen);
}

TEST(ShrinkingFile, TruncatedDuringAPollIsTypedErrorNotSigbus) {
  for (off_t to : {off_t{0}, off_t{4096}, off_t{20000}}) {
    const std::string path = WriteRing(31002, 50);
    auto c = Cursor::OpenFile(path);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    Counters cb;
    cb.truncate_path = path;  // at ring 0's first counter; ring 1 is then read
    cb.truncate_to = to;
    auto r = c->ReadPoll(cb);
    ASSERT_FALSE(r.ok()) << "truncated to " << to;
    EXPECT_EQ(r.status().code(), ErrorCode::kTruncated) << r.status().ToString();
    EXPECT_EQ(r.status().field(), path);
    // Ring 1's data lies beyond 32 KiB: none of it came from a vanished page.
    EXPECT_EQ(cb.seen_ring1, 0) << "truncated to " << to;
    EXPECT_EQ(c->ReadPoll(cb).status().code(), ErrorCode::kTruncated);
  }
}

TEST(ShrinkingFile, AFaultOutsideEveryGuardedMappingStillKills) {
  const std::string path = WriteRing(31003, 1);
  auto guarded = Cursor::OpenFile(path);  // installs the handler
  ASSERT_TRUE(guarded.ok());
  EXPECT_DEATH(
      {
        const int fd = ::open(path.c_str(), O_RDONLY);
        auto* p = static_cast<volatile char*>(::mmap(nullptr, 65536, PROT_READ, MAP_SHARED, fd, 0));
        (void)::ftruncate(::open(path.c_str(), O_RDWR), 0);
        std::printf("%d\n", p[8192]);
      },
      "");
}

TEST(ShrinkingFile, GuardSlotsAreReleased) {
  const std::string path = WriteRing(31004, 1);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(Cursor::OpenFile(path).ok()) << i;
}

TEST(RingInput, FifoAndDirectoryAreRefusedWithoutBlocking) {
  const std::string fifo = TmpDir() + "/ring.fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto f = Cursor::OpenFile(fifo);  // no writer: a plain open() would block forever
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), ErrorCode::kIo);
  EXPECT_NE(f.status().message().find("FIFO"), std::string::npos) << f.status().ToString();
  auto d = Cursor::OpenFile(TmpDir());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kIo);
  EXPECT_NE(d.status().message().find("directory"), std::string::npos) << d.status().ToString();
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ProducerFile, PlantedSymlinkIsNotFollowed) {
  const std::string victim = TmpDir() + "/victim.txt";
  std::ofstream(victim) << "precious";
  const std::string path = TmpDir() + "/link.events";
  ::unlink(path.c_str());
  ASSERT_EQ(::symlink(victim.c_str(), path.c_str()), 0);
  auto f = MappedFile::Create(path, 8192);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(Slurp(victim), "precious");
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_size, 8192);
}

TEST(ProducerFile, HardLinkedOldFileIsNotTruncated) {
  const std::string kept = TmpDir() + "/kept.events";
  std::ofstream(kept) << "an older ring someone is reading";
  const std::string path = TmpDir() + "/reused.events";
  ::unlink(path.c_str());
  ASSERT_EQ(::link(kept.c_str(), path.c_str()), 0);
  ASSERT_TRUE(MappedFile::Create(path, 4096).ok());
  EXPECT_EQ(Slurp(kept), "an older ring someone is reading");
}

TEST(ProducerFile, DirectoryAtThePathIsAnError) {
  const std::string path = TmpDir() + "/dir.events";
  ::mkdir(path.c_str(), 0700);
  auto f = MappedFile::Create(path, 4096);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace mpo::ring
