#include "core/export/fuchsia_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/producer.h"
#include "core/ring/ring_test_util.h"
#include "core/ring/view/event_decoder.h"

namespace mpo::exporter {
namespace {

using Kind = ring::view::EventKind;

// --- A reader of our own: walks every record, checks it, renders it as a text line ---

std::uint64_t Bits(std::uint64_t w, int lo, int hi) {
  return (w >> lo) & ((hi - lo == 63) ? ~0ull : ((1ull << (hi - lo + 1)) - 1));
}

struct Event {
  int type;
  std::uint64_t ts;
  std::uint64_t pid, tid;
  std::string cat, name;
  std::map<std::string, std::string> args;
};

struct Parsed {
  std::vector<std::string> lines;  // one per record
  std::vector<Event> events;
  std::map<std::uint64_t, std::string> thread_names;  // by koid
  std::size_t inline_threads = 0, inline_strings = 0;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}

  // Fails the test (and stops) at the first record that breaks the format.
  Parsed Read() {
    EXPECT_EQ(bytes_.size() % 8, 0u) << "not whole words";
    const std::size_t total = bytes_.size() / 8;
    EXPECT_GT(total, 0u);
    if (total == 0) return std::move(out_);
    EXPECT_EQ(WordAt(0), 0x0016547846040010u) << "no magic number record first";
    while (pos_ < total) {
      const std::uint64_t h = WordAt(pos_);
      const std::uint64_t size = Bits(h, 4, 15);
      if (size == 0 || pos_ + size > total) {
        ADD_FAILURE() << "record at word " << pos_ << " has size " << size << " of " << total;
        break;
      }
      end_ = pos_ + size;
      cur_ = pos_ + 1;
      const std::string line = Record(h);
      if (::testing::Test::HasFailure()) break;
      EXPECT_EQ(cur_, end_) << "record at word " << pos_ << " (" << line << ") used " << cur_ - pos_
                            << " of its " << size << " words";
      out_.lines.push_back("[" + std::to_string(size) + "w] " + line);
      pos_ = end_;
    }
    return std::move(out_);
  }

 private:
  std::uint64_t WordAt(std::size_t i) const {
    std::uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = (w << 8) | static_cast<unsigned char>(bytes_[i * 8 + b]);
    return w;
  }
  std::uint64_t Next() {
    if (cur_ >= end_) {
      ADD_FAILURE() << "read past the record at word " << pos_;
      return 0;
    }
    return WordAt(cur_++);
  }
  std::string InlineBytes(std::size_t len) {
    const std::size_t words = (len + 7) / 8;
    if (cur_ + words > end_) {
      ADD_FAILURE() << "inline bytes past the record at word " << pos_;
      return "";
    }
    std::string s = bytes_.substr(cur_ * 8, len);
    for (std::size_t i = len; i < words * 8; ++i) {
      EXPECT_EQ(bytes_[cur_ * 8 + i], '\0') << "padding not zero";
    }
    cur_ += words;
    return s;
  }
  std::string Str(std::uint64_t ref) {
    if (ref == 0) return "";
    if (ref & 0x8000) {
      ++out_.inline_strings;
      return InlineBytes(ref & 0x7fff);
    }
    const auto it = strings_.find(ref);
    if (it == strings_.end()) {
      ADD_FAILURE() << "string ref " << ref << " used before its string record";
      return "";
    }
    return it->second;
  }
  std::string Args(std::uint64_t n, std::map<std::string, std::string>& args) {
    std::string text;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::size_t base = cur_;
      const std::uint64_t h = Next();
      const std::uint64_t type = Bits(h, 0, 3), size = Bits(h, 4, 15);
      const std::string name = Str(Bits(h, 16, 31));
      std::string value;
      switch (type) {
        case 3: value = std::to_string(static_cast<std::int64_t>(Next())); break;
        case 8: value = "koid:" + std::to_string(Next()); break;
        case 6: value = "\"" + Str(Bits(h, 32, 47)) + "\""; break;
        default: ADD_FAILURE() << "argument type " << type;
      }
      EXPECT_EQ(cur_ - base, size) << "argument " << name << " size";
      args[name] = value;
      text += " " + name + "=" + value;
    }
    return text;
  }
  std::string Record(std::uint64_t h) {
    switch (Bits(h, 0, 3)) {
      case 0: {
        const std::uint64_t kind = Bits(h, 16, 19);
        if (kind == 4) return "magic";
        if (kind == 1) {
          return "provider_info id=" + std::to_string(Bits(h, 20, 51)) +
                 " name=" + InlineBytes(Bits(h, 52, 59));
        }
        if (kind == 2) {
          provider_ = true;
          return "provider_section id=" + std::to_string(Bits(h, 20, 51));
        }
        ADD_FAILURE() << "metadata type " << kind;
        return "";
      }
      case 1:
        EXPECT_TRUE(provider_) << "initialization before a provider section";
        ticks_ = true;
        return "initialization ticks_per_second=" + std::to_string(Next());
      case 2: {
        const std::uint64_t index = Bits(h, 16, 30);
        EXPECT_GT(index, 0u);
        EXPECT_FALSE(strings_.count(index)) << "string index " << index << " written twice";
        strings_[index] = InlineBytes(Bits(h, 32, 46));
        return "string " + std::to_string(index) + " \"" + strings_[index] + "\"";
      }
      case 3: {
        const std::uint64_t index = Bits(h, 16, 23);
        EXPECT_GT(index, 0u);
        const std::uint64_t pid = Next(), tid = Next();
        threads_[index] = {pid, tid};
        return "thread " + std::to_string(index) + " pid=" + std::to_string(pid) +
               " tid=" + std::to_string(tid);
      }
      case 7: {
        const std::uint64_t type = Bits(h, 16, 23);
        const std::uint64_t koid = Next();
        const std::string name = Str(Bits(h, 24, 39));
        std::map<std::string, std::string> args;
        const std::string a = Args(Bits(h, 40, 43), args);
        if (type == 2) out_.thread_names[koid] = name;
        return std::string(type == 1 ? "process" : "thread") + " koid=" + std::to_string(koid) +
               " name=\"" + name + "\"" + a;
      }
      case 4: {
        EXPECT_TRUE(provider_ && ticks_) << "event before provider section and initialization";
        Event e;
        e.type = static_cast<int>(Bits(h, 16, 19));
        const std::uint64_t nargs = Bits(h, 20, 23), thread = Bits(h, 24, 31);
        e.ts = Next();
        if (thread == 0) {
          ++out_.inline_threads;
          e.pid = Next();
          e.tid = Next();
        } else if (const auto it = threads_.find(thread); it != threads_.end()) {
          e.pid = it->second.first;
          e.tid = it->second.second;
        } else {
          ADD_FAILURE() << "thread ref " << thread << " used before its thread record";
        }
        e.cat = Str(Bits(h, 32, 47));
        e.name = Str(Bits(h, 48, 63));
        std::string text = Args(nargs, e.args);
        if (e.type == 1) text += " counter_id=" + std::to_string(Next());
        static const char* kTypes[] = {"instant", "counter", "begin", "end"};
        EXPECT_LT(e.type, 4) << "event type";
        const std::string line = std::string(e.type < 4 ? kTypes[e.type] : "?") +
                                 " ts=" + std::to_string(e.ts) + " tid=" + std::to_string(e.tid) +
                                 " cat=" + e.cat + " name=\"" + e.name + "\"" + text;
        out_.events.push_back(std::move(e));
        return line;
      }
      default: ADD_FAILURE() << "record type " << Bits(h, 0, 3); return "";
    }
  }

  const std::string& bytes_;
  std::size_t pos_ = 0, cur_ = 0, end_ = 0;
  bool provider_ = false, ticks_ = false;
  std::map<std::uint64_t, std::string> strings_;
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> threads_;
  Parsed out_;
};

// The rules every export keeps: per thread, time order and balanced, nested durations;
// each counter name on one thread; every thread named "domain N".
void ExpectTimelineRules(const Parsed& p) {
  std::map<std::uint64_t, std::vector<std::string>> open;
  std::map<std::uint64_t, std::uint64_t> last;
  std::map<std::string, std::uint64_t> counter_tid;
  for (const Event& e : p.events) {
    EXPECT_EQ(p.thread_names.count(e.tid), 1u) << "thread " << e.tid << " not named";
    if (last.count(e.tid)) {
      EXPECT_GE(e.ts, last[e.tid]) << e.name;
    }
    last[e.tid] = e.ts;
    if (e.type == 2) open[e.tid].push_back(e.name);
    if (e.type == 3) {
      ASSERT_FALSE(open[e.tid].empty()) << "end without begin at " << e.ts;
      EXPECT_EQ(open[e.tid].back(), e.name);
      open[e.tid].pop_back();
    }
    if (e.type == 1) {
      EXPECT_TRUE(e.name.ends_with(" (domain " + std::to_string(e.tid) + ")")) << e.name;
      EXPECT_EQ(counter_tid.try_emplace(e.name, e.tid).first->second, e.tid);
    }
  }
  for (const auto& [tid, stack] : open) EXPECT_TRUE(stack.empty()) << "thread " << tid;
  for (const auto& [tid, name] : p.thread_names) EXPECT_EQ(name, "domain " + std::to_string(tid));
}

// --- Writing rings ---

std::string Export(const std::vector<RingEvent>& events, std::int64_t pid) {
  std::string out;
  FuchsiaTraceWriter w(pid, [&](std::string_view s) { out += s; });
  for (const RingEvent& e : events) w.Add(e);
  w.Finish();
  return out;
}

std::string ExportCursor(ring::Cursor& c, std::int64_t pid) {
  std::string out;
  FuchsiaTraceWriter w(pid, [&](std::string_view s) { out += s; });
  ring::view::EventCollector collector(ring::kDefaultOcamlVersion,
                                       [&](const RingEvent& e) { w.Add(e); });
  while (true) {
    auto n = c.ReadPoll(collector);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok() || *n == 0) break;
  }
  w.Finish();
  return out;
}

// A tiny two-domain ring from the project's producer with a clock that ticks 100 ns a
// call: the same bytes on every run.
std::string TinyRingExport() {
  ring::ProducerOptions o;
  o.dir = ring::testutil::FreshDir("fuchsia_tiny");
  o.max_domains = 2;
  o.ring_log2_words = 10;
  o.pid = 77;
  std::uint64_t now = 1000;
  o.clock = [&now] { return now += 100; };
  ring::RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  auto cursor = ring::Cursor::OpenCurrent(ev.path());
  EXPECT_TRUE(cursor.ok());
  const unsigned span = *ev.RegisterUserEvent("tiny.span");
  const unsigned number = *ev.RegisterUserEvent("tiny.int");
  const unsigned custom = *ev.RegisterUserEvent("tiny.custom");
  const std::byte bytes[] = {std::byte{'h'}, std::byte{'i'}, std::byte{0xff}};
  std::array<std::uint64_t, ring::kAllocBuckets> buckets{};
  buckets[0] = 3;
  buckets[2] = 1;
  EXPECT_TRUE(ev.End(1, 11).ok());  // an end without its begin
  EXPECT_TRUE(ev.Begin(0, 11).ok());
  EXPECT_TRUE(ev.Counter(0, 4, 12).ok());
  EXPECT_TRUE(ev.Counter(1, 4, 34).ok());
  EXPECT_TRUE(ev.UserSpan(1, span, true).ok());
  EXPECT_TRUE(ev.UserInt(1, number, -5).ok());
  EXPECT_TRUE(ev.UserCustom(1, custom, bytes).ok());
  EXPECT_TRUE(ev.Alloc(0, buckets).ok());
  EXPECT_TRUE(ev.End(0, 11).ok());
  EXPECT_TRUE(ev.UserSpan(1, span, false).ok());
  EXPECT_TRUE(ev.Begin(0, 12).ok());  // still open at the end
  return ExportCursor(*cursor, 77);
}

TEST(FuchsiaTrace, TinyRingMatchesTheGolden) {
  const std::string fxt = TinyRingExport();
  const Parsed p = Reader(fxt).Read();
  ExpectTimelineRules(p);
  std::string text;
  for (const std::string& l : p.lines) text += l + "\n";
  // MPO_UPDATE_GOLDEN=PATH (bazel test --test_env) writes the rendering there instead.
  if (const char* update = std::getenv("MPO_UPDATE_GOLDEN")) {
    ASSERT_TRUE(ring::testutil::WriteBytes(update, text));
    return;
  }
  EXPECT_EQ(text, ring::testutil::ReadText("core/export/testdata/fuchsia_tiny.txt"));
  // The same bytes again: nothing depends on addresses or the run.
  EXPECT_EQ(TinyRingExport(), fxt);
}

TEST(FuchsiaTrace, WrappedMultiDomainRingKeepsTheRules) {
  ring::ProducerOptions o;
  o.dir = ring::testutil::FreshDir("fuchsia_wrapped");
  o.max_domains = 3;
  o.ring_log2_words = 8;
  o.pid = 4242;
  ring::RuntimeEvents ev(o);
  ASSERT_TRUE(ev.Start().ok());
  auto cursor = ring::Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(cursor.ok());
  for (std::uint32_t d = 0; d < 3; ++d) {
    ASSERT_TRUE(ev.Begin(d, 1).ok());
    for (unsigned i = 0; i < 100; ++i) {
      ASSERT_TRUE(ev.Begin(d, 11).ok());
      ASSERT_TRUE(ev.Counter(d, 4, i).ok());
      ASSERT_TRUE(ev.End(d, 11).ok());
    }
    ASSERT_TRUE(ev.End(d, 1).ok());
  }
  const Parsed p = Reader(ExportCursor(*cursor, 4242)).Read();
  ExpectTimelineRules(p);
  EXPECT_EQ(p.thread_names.size(), 3u);
  std::size_t lost = 0, orphans = 0;
  for (const Event& e : p.events) {
    if (e.name == "lost_events") {
      ++lost;
      EXPECT_GT(e.ts, 0u);  // a time of its domain, never 0
    }
    orphans += e.type == 0 && e.args.count("note") > 0;
  }
  EXPECT_EQ(lost, 3u);
  EXPECT_GE(orphans, 3u);  // phase 1's end, per domain
}

TEST(FuchsiaTrace, ManyDomainsAndNamesFallBackToInlineForms) {
  // Rings past 254 have no thread index; past 32767 strings, the table is full.
  std::vector<std::string> names;
  for (int i = 0; i < 33000; ++i) names.push_back("user." + std::to_string(i));
  std::vector<RingEvent> events;
  for (std::uint32_t ring : {0u, 300u}) {
    for (int i = 0; i < 33000; ++i) {
      RingEvent e;
      e.kind = Kind::kUserUnit;
      e.ring = ring;
      e.ts = 10 + static_cast<std::uint64_t>(i);
      e.name = names[static_cast<std::size_t>(i)];
      events.push_back(e);
    }
  }
  const Parsed p = Reader(Export(events, 9)).Read();
  ExpectTimelineRules(p);
  EXPECT_EQ(p.events.size(), events.size());
  EXPECT_EQ(p.inline_threads, 33000u);
  EXPECT_GT(p.inline_strings, 0u);
  EXPECT_EQ(p.events.back().name, "user.32999");
  EXPECT_EQ(p.thread_names.at(300), "domain 300");
}

TEST(FuchsiaTrace, WritesInBoundedPieces) {
  std::vector<RingEvent> events(200000);
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].kind = Kind::kCounter;
    events[i].ts = i;
    events[i].name = "c";
  }
  std::size_t largest = 0, total = 0;
  FuchsiaTraceWriter w(1, [&](std::string_view s) {
    largest = std::max(largest, s.size());
    total += s.size();
  });
  for (const RingEvent& e : events) w.Add(e);
  w.Finish();
  EXPECT_GT(total, 200000u * 32);
  EXPECT_LT(largest, std::size_t{1} << 19);  // flushed as it goes, not held
}

}  // namespace
}  // namespace mpo::exporter
