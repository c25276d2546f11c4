#include "core/io/readable_input.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/io/gzip.h"
#include "testing/scratch_dir.h"

namespace mpo::io {
namespace {

constexpr FileBudget kBig{"test input", 1 << 24};

// Compresses `text` as one gzip member with zlib's deflate.
std::string Gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::span<const std::uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::string RingHeader() {
  const std::uint64_t words[8] = {1, 128, 80, 8 << 16, 1 << 16, 64, 64 + 128 * 80, 0};
  return std::string(reinterpret_cast<const char*>(words), sizeof words);
}

TEST(SniffFormat, TellsTheFormatsApart) {
  EXPECT_EQ(SniffFormat(Bytes(std::string("\xc1\x1f\xfc\xc1rest", 8))),
            InputFormat::kMemtraceTrace);
  EXPECT_EQ(SniffFormat(Bytes(RingHeader())), InputFormat::kRuntimeEventsRing);
  EXPECT_EQ(SniffFormat(Bytes(Gzip("x"))), InputFormat::kGzip);
  // The version word alone is not a ring: a short file, or an implausible header.
  EXPECT_EQ(SniffFormat(Bytes(RingHeader().substr(0, 40))), InputFormat::kUnknown);
  std::string bad = RingHeader();
  bad[8 * 3] = 7;  // ring_size_bytes no longer 8 x ring_size_elements
  EXPECT_EQ(SniffFormat(Bytes(bad)), InputFormat::kUnknown);
  EXPECT_EQ(SniffFormat({}), InputFormat::kUnknown);
}

TEST(Gunzip, InflatesConcatenatedMembers) {
  const std::string both = Gzip("hello, ") + Gzip("world");
  auto out = Gunzip(Bytes(both), kBig, "f.gz");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(std::string(out->begin(), out->end()), "hello, world");
}

TEST(Gunzip, ABombStopsAtTheBudget) {
  const std::string zeros(8 << 20, '\0');  // 8 MiB of zeros: about 8 KB compressed
  const std::string bomb = Gzip(zeros);
  ASSERT_LT(bomb.size(), 64u << 10);
  auto out = Gunzip(Bytes(bomb), FileBudget{"inflated trace", 1 << 20}, "bomb.gz");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(out.status().message().find("inflated trace is larger than the limit of 1048576"),
            std::string::npos)
      << out.status().ToString();
  EXPECT_EQ(out.status().field(), "bomb.gz");
  // Exactly the budget is still accepted.
  EXPECT_TRUE(Gunzip(Bytes(bomb), FileBudget{"inflated trace", 8 << 20}, "bomb.gz").ok());
}

TEST(Gunzip, TruncatedAndCorruptStreamsAreTypedErrors) {
  const std::string whole = Gzip(std::string(100000, 'a') + "tail");
  auto cut = Gunzip(Bytes(whole.substr(0, whole.size() / 2)), kBig, "cut.gz");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), ErrorCode::kTruncated);
  std::string trailing = whole + "junk";
  auto junk = Gunzip(Bytes(trailing), kBig, "junk.gz");
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(junk.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(junk.status().byte_offset(), whole.size());
  std::string flipped = whole;
  flipped[12] ^= 0x55;
  flipped[13] ^= 0x55;
  auto bad = Gunzip(Bytes(flipped), kBig, "bad.gz");
  EXPECT_FALSE(bad.ok());
}

class OpenReadableTest : public testing::ScratchDirTest {
 protected:
  OpenReadableTest() : ScratchDirTest("readable") {}
};

TEST_F(OpenReadableTest, PlainFilesAreLeftToReadInPlace) {
  WriteFile(Path("ring"), RingHeader() + "more");
  auto in = OpenReadable(Path("ring"), kBig);
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_TRUE(in->file.has_value());
  EXPECT_TRUE(in->bytes.empty());
  EXPECT_FALSE(in->gzip);
  EXPECT_EQ(in->format, InputFormat::kRuntimeEventsRing);
}

TEST_F(OpenReadableTest, GzipFilesAreInflatedAndSniffedAgain) {
  WriteFile(Path("ring.gz"), Gzip(RingHeader() + "more"));
  auto in = OpenReadable(Path("ring.gz"), kBig);
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_FALSE(in->file.has_value());
  EXPECT_TRUE(in->gzip);
  EXPECT_EQ(in->format, InputFormat::kRuntimeEventsRing);
  EXPECT_EQ(in->bytes.size(), 68u);
}

TEST_F(OpenReadableTest, ACompressedFileOverTheBudgetIsRefusedBeforeReading) {
  WriteFile(Path("big.gz"), Gzip(std::string(4096, 'x')) + std::string(4096, 'y'));
  auto in = OpenReadable(Path("big.gz"), FileBudget{"small input", 1024});
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(in.status().message().find("small input"), std::string::npos);
}

TEST_F(OpenReadableTest, MissingFilesKeepOpenInputsError) {
  auto in = OpenReadable(Path("absent"), kBig);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message(), "no such file");
}

}  // namespace
}  // namespace mpo::io
