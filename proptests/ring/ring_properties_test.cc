// Properties of the ring protocol and of the producer/consumer pair, against a model:
// whatever the sequence of writes and polls (random sizes, ring sizes, budgets, batch
// sizes), a poll reports exactly the words overwritten since the cursor's position,
// then delivers exactly the surviving messages in order, intact, within its budget.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "core/base/ocaml_quoted.h"
#include "core/ring/cursor.h"
#include "core/ring/mapped_ring.h"
#include "core/ring/producer.h"
#include "core/ring/ring_protocol.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/json_view.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {
namespace {

struct Written {
  std::uint64_t start;
  std::uint64_t length;
  unsigned seq;
};

struct Sink {
  std::vector<unsigned> seqs;
  std::vector<std::uint64_t> lost;
  bool intact = true;
  bool Lost(std::uint64_t w) {
    lost.push_back(w);
    return true;
  }
  SinkAction Message(std::uint64_t, std::span<const std::uint64_t> w) {
    const unsigned seq = header::Id(w[0]);
    if (w[1] != seq * 11u) intact = false;
    for (std::size_t j = 2; j < w.size(); ++j) {
      if (w[j] != seq * 1000u + j) intact = false;
    }
    seqs.push_back(seq);
    return SinkAction::kContinue;
  }
};

RC_GTEST_PROP(RingProtocol, PollsMatchTheModel, ()) {
  const unsigned log2 = *rc::gen::inRange(4u, 8u);
  const std::uint64_t size = std::uint64_t{1} << log2;
  std::vector<std::uint64_t> header(10, 0), data(size, 0);
  MappedRing ring(header.data(), data.data(), size);
  std::vector<std::uint64_t> buffer(4 * kMaxMessageWords);
  std::vector<Written> written;
  std::uint64_t pos = 0;
  unsigned seq = 0;
  const int steps = *rc::gen::inRange(1, 80);
  for (int step = 0; step < steps; ++step) {
    if (*rc::gen::inRange(0, 3) != 0) {
      const std::uint64_t payload_words = *rc::gen::inRange<std::uint64_t>(0, size / 2 - 1);
      std::vector<std::uint64_t> payload(payload_words);
      for (std::size_t j = 0; j < payload_words; ++j) payload[j] = seq * 1000u + j + 2;
      const std::uint64_t tail_before = ring.LoadTail(sync::MemoryOrder::kRelaxed);
      const auto out =
          WriteEvent<sync::StdPlatform>(ring, false, 4, seq % 8192, seq * 11u, payload);
      RC_ASSERT(out == WriteOutcome::kWritten);
      const std::uint64_t tail = ring.LoadTail(sync::MemoryOrder::kRelaxed);
      const std::uint64_t head = ring.LoadHead(sync::MemoryOrder::kRelaxed);
      written.push_back(Written{tail - (payload_words + 2), payload_words + 2, seq});
      RC_ASSERT(tail - tail_before < payload_words + 2 + size / 2);  // padding < length
      RC_ASSERT(tail - head < size);                                 // never full
      RC_ASSERT((written.back().start & (size - 1)) + payload_words + 2 <= size);  // no straddle
      ++seq;
    } else {
      const std::uint64_t max_events = *rc::gen::inRange<std::uint64_t>(0, 6);
      const std::size_t batch = *rc::gen::inRange<std::size_t>(1, 20);
      const std::uint64_t head = ring.LoadHead(sync::MemoryOrder::kRelaxed);
      // The model's answer.
      std::vector<std::uint64_t> want_lost;
      std::uint64_t from = pos;
      if (head > pos) {
        want_lost.push_back(head - pos);
        from = head;
      }
      std::vector<unsigned> want;
      for (const Written& w : written) {
        if (w.start >= from && (max_events == 0 || want.size() < max_events)) want.push_back(w.seq);
      }
      Sink sink;
      const ReadResult r =
          ReadRing<sync::StdPlatform>(ring, &pos, sink, max_events, ReadBuffer{buffer, batch});
      RC_ASSERT(r.status != ReadStatus::kCorrupt);
      RC_ASSERT(sink.intact);
      RC_ASSERT(sink.lost == want_lost);
      RC_ASSERT(sink.seqs == want);
      RC_ASSERT(r.consumed == want.size());
    }
  }
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// Producer -> file -> cursor: random user events read back as the golden text and the
// schema 2 JSON view expect.
RC_GTEST_PROP(ProducerCursor, UserEventsRoundTrip, ()) {
  const char* t = std::getenv("TEST_TMPDIR");
  ProducerOptions o;
  o.dir = t ? t : "/tmp";
  o.max_domains = 2;
  o.ring_log2_words = 12;  // room for every event below: no overwrite
  o.pid = 700000 + *rc::gen::inRange(0, 1000);
  std::uint64_t now = 1000;
  o.clock = [&now] { return now += 3; };
  RuntimeEvents ev(o);
  const unsigned id_a = *ev.RegisterUserEvent("prop.a");
  RC_ASSERT(ev.Start(0).ok());
  const unsigned id_b = *ev.RegisterUserEvent("prop.b");  // registered while running
  std::string want[2];
  std::string want_json[2];
  want[0] = "0 1003 lifecycle ring_start #0 " + std::to_string(o.pid) + "\n";
  want_json[0] = R"({"kind":"lifecycle","ring":0,"ts":1003,"id":0,"name":"ring_start","data":)" +
                 std::to_string(o.pid) + "}\n";
  const int n = *rc::gen::inRange(0, 40);
  for (int i = 0; i < n; ++i) {
    const std::uint32_t d = *rc::gen::inRange(0u, 2u);
    const unsigned id = *rc::gen::element(id_a, id_b);
    const std::string name = id == id_a ? "prop.a" : "prop.b";
    const std::string prefix = std::to_string(d) + " " + std::to_string(now + 3) + " ";
    const std::string json_rest = R"(","ring":)" + std::to_string(d) + R"(,"ts":)" +
                                  std::to_string(now + 3) + R"(,"id":)" + std::to_string(id) +
                                  R"(,"name":")" + name + '"';
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        RC_ASSERT(ev.UserUnit(d, id).ok());
        want[d] += prefix + "user_unit " + name + " UNK\n";
        want_json[d] += R"({"kind":"user_unit)" + json_rest + "}\n";
        break;
      case 1: {
        const std::int64_t v =
            *rc::gen::inRange<std::int64_t>(-(std::int64_t{1} << 61), std::int64_t{1} << 61);
        RC_ASSERT(ev.UserInt(d, id, v).ok());
        want[d] += prefix + "user_int " + name + " UNK " + std::to_string(v) + "\n";
        want_json[d] +=
            R"({"kind":"user_int)" + json_rest + R"(,"value":)" + std::to_string(v) + "}\n";
        break;
      }
      case 2: {
        const bool begin = *rc::gen::arbitrary<bool>();
        RC_ASSERT(ev.UserSpan(d, id, begin).ok());
        want[d] += prefix + "user_span " + name + " UNK " + (begin ? "begin" : "end") + "\n";
        want_json[d] +=
            std::string(R"({"kind":"user_span_)") + (begin ? "begin" : "end") + json_rest + "}\n";
        break;
      }
      default: {
        const auto bytes = *rc::gen::container<std::string>(*rc::gen::inRange<std::size_t>(0, 200),
                                                            rc::gen::arbitrary<char>());
        RC_ASSERT(ev.UserCustom(d, id, std::as_bytes(std::span(bytes.data(), bytes.size()))).ok());
        want[d] += prefix + "user_custom " + name + " UNK " + OcamlQuoted(bytes) + "\n";
        want_json[d] +=
            R"({"kind":"user_custom)" + json_rest + R"(,"payload_hex":")" + Hex(bytes) + "\"}\n";
        break;
      }
    }
  }
  auto c = Cursor::OpenCurrent(ev.path());
  RC_ASSERT(c.ok());
  GoldenLineWriter w(OcamlVersion::k5_3);
  auto r = c->ReadPoll(w);
  RC_ASSERT(r.ok());
  RC_ASSERT(w.TakeText() == want[0] + want[1]);
  auto again = Cursor::OpenCurrent(ev.path());
  StringTextSink json;
  RC_ASSERT(view::WriteJsonView(again, OcamlVersion::k5_3, json).ok());
  const std::size_t records =
      static_cast<std::size_t>(std::count(want_json[0].begin(), want_json[0].end(), '\n') +
                               std::count(want_json[1].begin(), want_json[1].end(), '\n'));
  RC_ASSERT(json.text == R"({"schema":2,"format":"ring","ocaml_version":"5.3"})"
                         "\n" +
                             want_json[0] + want_json[1] +
                             R"({"kind":"end_of_stream","error":null,"records":)" +
                             std::to_string(records) + "}\n");
}

}  // namespace
}  // namespace mpo::ring
