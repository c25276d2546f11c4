// The identity copy's write-ahead (trace_copy.cc): an input of 64 KiB or more is written
// on a second thread while it is checked, and taken back when the check fails. Whatever
// the timing, the output is the reference's: in memory, through real files (FileSource
// and AtomicFileSink, as `memtrace copy` runs), and on the serial ways taken by a sink
// that cannot restart or a source that cannot be read from two threads.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/copy_test_writer.h"
#include "core/memtrace/trace_copy.h"
#include "testing/scratch_dir.h"

namespace mpo::memtrace {
namespace {

// 20000 allocs (over 64 KiB) as the writer writes them; with `flush_near_end`, an explicit
// flush ten allocs before the end: a packet cut the copy would not make, found only there.
std::vector<std::uint8_t> Trace(int version, bool flush_near_end) {
  VectorSink sink;
  const auto w = copy_test::TestWriter(sink, version);
  if (w == nullptr) return {};
  for (int i = 0; i < 20000; ++i) {
    const std::vector<OcamlInt> bt = {100 + i % 7, 101, 102 + i % 3};
    EXPECT_TRUE(w->PutAlloc(0, copy_test::kStartTime + i, 3, 1, AllocationSource::kMinor, bt,
                            copy_test::kFrames)
                    .ok());
    if (flush_near_end && i == 19990) {
      EXPECT_TRUE(w->Flush().ok());
    }
  }
  EXPECT_TRUE(w->Flush().ok());
  EXPECT_GT(sink.data.size(), std::size_t{64} << 10);
  return sink.data;
}

// 500 allocs: under 64 KiB, checked and then written, on one thread.
std::vector<std::uint8_t> ShortTrace(int version) {
  VectorSink sink;
  const auto w = copy_test::TestWriter(sink, version);
  if (w == nullptr) return {};
  for (int i = 0; i < 500; ++i) {
    const std::vector<OcamlInt> bt = {100 + i % 7, 101};
    EXPECT_TRUE(w->PutAlloc(0, copy_test::kStartTime + i, 3, 1, AllocationSource::kMinor, bt,
                            copy_test::kFrames)
                    .ok());
  }
  EXPECT_TRUE(w->Flush().ok());
  EXPECT_LT(sink.data.size(), std::size_t{64} << 10);
  return sink.data;
}

// A sink that cannot restart.
class PlainSink : public ByteSink {
 public:
  Status Write(std::span<const std::uint8_t> bytes) override { return inner.Write(bytes); }
  VectorSink inner;
};

// A source whose reads must not overlap (ConcurrentReads() false).
class SerialSource : public ByteSource {
 public:
  explicit SerialSource(const std::vector<std::uint8_t>& b) : b_(b) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    EXPECT_FALSE(busy_.exchange(true)) << "overlapping reads";
    auto n = MemorySource(b_)->ReadAt(offset, out);
    busy_ = false;
    return n;
  }
  std::uint64_t size() const override { return b_.size(); }

 private:
  const std::vector<std::uint8_t>& b_;
  std::atomic<bool> busy_{false};
};

// A file changed in place during the copy, as the write-ahead thread and the check see it:
// a read on any thread but the one that made the source gets one byte changed, so the
// bytes written ahead are not the bytes checked (the change made before the thread reads
// them, undone before the check does). Or, with `serial`, every read of the byte after
// the first sees the change (the serial way: checked, then written).
class TwoFacedSource : public ByteSource {
 public:
  TwoFacedSource(const std::vector<std::uint8_t>& b, std::uint64_t at, bool serial = false)
      : b_(b), at_(at), serial_(serial) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    auto n = MemorySource(b_)->ReadAt(offset, out);
    if (!n.ok() || at_ < offset || at_ >= offset + *n) return n;
    const bool changed = serial_ ? reads_.fetch_add(1) >= 1 : std::this_thread::get_id() != owner_;
    if (changed) out[at_ - offset] ^= 0x5a;
    return n;
  }
  std::uint64_t size() const override { return b_.size(); }
  bool ConcurrentReads() const override { return true; }

 private:
  const std::vector<std::uint8_t>& b_;
  std::uint64_t at_;
  bool serial_;
  std::atomic<int> reads_{0};  // of the byte at `at_`
  std::thread::id owner_ = std::this_thread::get_id();
};

// The copy writes exactly the bytes it checked: an input changed under it is encoded again
// from what is read, never written as the write-ahead saw it.
TEST(WriteAhead, AnInputChangedDuringTheCopyIsNeverWrittenAsItWasHalfSeen) {
  for (int version : {2, 3}) {
    const std::vector<std::uint8_t> in = Trace(version, false);
    for (const std::uint64_t at : {std::uint64_t{100}, in.size() / 2, in.size() - 3}) {
      const std::string tag = " v" + std::to_string(version) + " at " + std::to_string(at);
      TwoFacedSource source(in, at);
      VectorSink out;
      CopyStats stats;
      ASSERT_TRUE(CopyTrace(source, out, version, &stats).ok()) << tag;
      // The check's thread saw the canonical trace and encodes it again: the same bytes.
      EXPECT_TRUE(out.data == in) << tag;
      EXPECT_FALSE(stats.unchanged) << tag;  // not the identity copy's write
    }
    // Serial (an input under 64 KiB is checked, then written): the write's read differs.
    const std::vector<std::uint8_t> short_trace = ShortTrace(version);
    for (const std::uint64_t at : {std::uint64_t{200}, short_trace.size() / 2}) {
      TwoFacedSource source(short_trace, at, true);
      VectorSink out;
      CopyStats stats;
      const Status s = CopyTrace(source, out, version, &stats);
      // Encoded again from what was read then (a valid trace), or refused; never the
      // identity copy of bytes that were not the ones checked.
      if (s.ok()) {
        EXPECT_FALSE(stats.unchanged) << at;
        VectorSink again;
        EXPECT_TRUE(CopyTrace(*MemorySource(out.data), again, version).ok()) << at;
      }
    }
  }
}

class WriteAheadTest : public testing::ScratchDirTest {
 protected:
  WriteAheadTest() : ScratchDirTest("trace_copy_threads_test") {}
};

TEST_F(WriteAheadTest, EveryWayGivesTheReferenceBytes) {
  for (int version : {2, 3}) {
    for (bool flush_near_end : {false, true}) {
      const std::string tag =
          " v" + std::to_string(version) + (flush_near_end ? " flushed" : " canonical");
      const std::vector<std::uint8_t> in = Trace(version, flush_near_end);
      VectorSink reference;
      ASSERT_TRUE(
          CopyTrace(*MemorySource(in), reference, version, nullptr, {}, {}, CopyMode::kReference)
              .ok());
      EXPECT_EQ(reference.data == in, !flush_near_end) << tag;

      // In memory, written ahead (and taken back when flushed).
      VectorSink memory;
      CopyStats stats;
      ASSERT_TRUE(CopyTrace(*MemorySource(in), memory, version, &stats).ok()) << tag;
      EXPECT_TRUE(memory.data == reference.data) << tag;
      EXPECT_EQ(stats.unchanged, !flush_near_end) << tag;

      // Files, as `memtrace copy` runs: written ahead, synced, committed.
      const std::string in_path = Path("in.ctf"), out_path = Path("out.ctf");
      WriteFile(in_path, std::string(in.begin(), in.end()));
      WriteFile(out_path, "an older output");
      auto source = OpenFileSource(in_path);
      ASSERT_TRUE(source.ok());
      auto sink = AtomicFileSink::Create(out_path);
      ASSERT_TRUE(sink.ok());
      ASSERT_TRUE(CopyTrace(**source, **sink, version).ok()) << tag;
      EXPECT_EQ(ReadFile(out_path), "an older output");  // nothing final before the commit
      ASSERT_TRUE((*sink)->Commit().ok());
      EXPECT_TRUE(ReadFile(out_path) == std::string(reference.data.begin(), reference.data.end()))
          << tag;
      EXPECT_EQ(EntriesInDir(), 2) << tag;  // in and out: no temporary left

      // The serial ways.
      PlainSink plain;
      ASSERT_TRUE(CopyTrace(*MemorySource(in), plain, version).ok());
      EXPECT_TRUE(plain.inner.data == reference.data) << tag;
      VectorSink serial;
      SerialSource serial_source(in);
      ASSERT_TRUE(CopyTrace(serial_source, serial, version).ok());
      EXPECT_TRUE(serial.data == reference.data) << tag;
    }
  }
}

}  // namespace
}  // namespace mpo::memtrace
