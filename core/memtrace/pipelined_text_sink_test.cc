#include "core/memtrace/pipelined_text_sink.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace mpo::memtrace {
namespace {

// Random mixes of copied and stable pieces (some longer than a batch): the inner sink
// receives exactly their concatenation, for 1 and 2 threads.
TEST(PipelinedTextSink, SameBytesInOrder) {
  std::mt19937_64 rng(14);
  std::vector<std::string> stable;
  for (int i = 0; i < 64; ++i)
    stable.push_back(std::string(rng() % 200, static_cast<char>('a' + i % 26)));
  stable.push_back(std::string(PipelinedTextSink::kBatchBytes + 3, 'Z'));
  for (unsigned threads : {1u, 2u}) {
    for (int round = 0; round < 3; ++round) {
      StringTextSink inner;
      std::string want;
      {
        PipelinedTextSink sink(inner, threads);
        for (int i = 0; i < 40000; ++i) {
          if (rng() % 2) {
            const std::string s = std::to_string(rng()) + (i % 7 ? "" : "\n");
            sink.Write(s);
            want += s;
          } else {
            const std::string& s = stable[rng() % (round == 2 ? stable.size() : stable.size() - 1)];
            sink.WriteStable(s);
            want += s;
          }
        }
        sink.Finish();
        EXPECT_EQ(inner.text.size(), want.size()) << threads;
        sink.Write("after");  // after Finish: straight through
        want += "after";
      }
      EXPECT_TRUE(inner.text == want) << "threads " << threads << " round " << round;
    }
  }
}

TEST(PipelinedTextSink, NothingWritten) {
  for (unsigned threads : {1u, 2u}) {
    StringTextSink inner;
    { PipelinedTextSink sink(inner, threads); }
    EXPECT_TRUE(inner.text.empty());
  }
}

}  // namespace
}  // namespace mpo::memtrace
