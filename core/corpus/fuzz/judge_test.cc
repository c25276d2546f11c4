// Divergence signatures follow causes: one implementation bug met at different offsets of
// different inputs is one class, and another bug is another class.
#include "core/corpus/fuzz/judge.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/cases.h"
#include "core/corpus/decode.h"
#include "core/corpus/fuzz/packet_walk.h"
#include "core/memtrace/byte_io.h"

namespace mpo::corpus::fuzz {
namespace {

namespace fs = std::filesystem;

std::string TestDir(const std::string& name) {
  const fs::path dir = fs::path(std::getenv("TEST_TMPDIR")) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::uint8_t> CaseBytes(const std::string& name) {
  auto cases = MemtraceCases();
  EXPECT_TRUE(cases.ok());
  for (CaseInput& c : *cases)
    if (c.name == name) return std::move(c.bytes);
  ADD_FAILURE() << "no case " << name;
  return {};
}

std::vector<nlohmann::json> OracleLines(const std::vector<std::uint8_t>& bytes) {
  StringTextSink sink;
  auto source = memtrace::MemorySource(bytes);
  (void)DecodeMemtrace(*source, DecodeForm::kJsonLines, sink);
  std::vector<nlohmann::json> lines;
  std::istringstream in(sink.text);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// The "implementation" prints, for each input, a stream the test wrote next to it:
// the oracle's stream with one injected bug.
const std::string kPrintsItsStream = "cat {file}.out";

Judgement JudgeWith(const std::string& dir, const std::string& name,
                    const std::vector<std::uint8_t>& bytes,
                    const std::vector<nlohmann::json>& impl_lines) {
  const std::string path = dir + "/" + name + ".ctf";
  std::ofstream out(path + ".out");
  for (const nlohmann::json& l : impl_lines) out << l.dump() << "\n";
  out.close();
  ImplConfig impl;
  impl.command = kPrintsItsStream;
  impl.timeout_seconds = 10;
  ImplRunner runner(RunnerCommand(impl));
  auto j = Judge(bytes, path, FuzzFormat::kMemtrace, impl, runner);
  EXPECT_TRUE(j.ok()) << j.status().ToString();
  return j.ok() ? *j : Judgement{};
}

// A trace whose packet `k` has a broken magic: the oracle rejects it there.
std::vector<std::uint8_t> BadMagicAt(std::vector<std::uint8_t> bytes, std::size_t k) {
  const auto packets = WalkPackets(bytes);
  EXPECT_GT(packets.size(), k);
  if (packets.size() > k) bytes[packets[k].begin] ^= 0xff;
  return bytes;
}

TEST(Signature, OneRejectionBugAtTwoOffsetsIsOneClass) {
  const std::string dir = TestDir("reject");
  // The bug: the implementation rejects where the oracle does, with its own error class
  // and its own words, which name the byte offset.
  auto buggy = [](std::vector<nlohmann::json> lines) {
    nlohmann::json& end = lines.back();
    const std::string at = std::to_string(end["error"]["offset"].get<std::uint64_t>());
    end["error"] = {{"code", "invalid_argument"}, {"check", "bad magic at byte " + at}};
    return lines;
  };
  const auto base = CaseBytes("v2_backtrace_cache");
  ASSERT_GE(WalkPackets(base).size(), 3u);
  const auto early = BadMagicAt(base, 1), late = BadMagicAt(base, 2);
  const auto early_lines = buggy(OracleLines(early)), late_lines = buggy(OracleLines(late));
  // The implementation's words differ with the offset...
  EXPECT_NE(early_lines.back()["error"]["check"], late_lines.back()["error"]["check"]);
  const Judgement a = JudgeWith(dir, "early", early, early_lines);
  const Judgement b = JudgeWith(dir, "late", late, late_lines);
  ASSERT_FALSE(a.agree);
  ASSERT_FALSE(b.agree);
  EXPECT_EQ(a.signature, b.signature);  // ...the class does not
  EXPECT_EQ(a.signature, "oracle=reject(packet header: magic) impl=reject differs=/error/code");
}

TEST(Signature, OneRecordBugAtTwoRecordsIsOneClassAndAnotherBugAnother) {
  const std::string dir = TestDir("records");
  const auto bytes = CaseBytes("v2_event_forms");
  const auto lines = OracleLines(bytes);
  // The bug: an alloc's length off by one, met at two different records.
  auto length_off = [&](std::size_t nth) {
    std::vector<nlohmann::json> out = lines;
    std::size_t seen = 0;
    for (nlohmann::json& l : out)
      if (l.value("kind", "") == "alloc" && seen++ == nth) l["length"] = l["length"].get<int>() + 1;
    return out;
  };
  const Judgement a = JudgeWith(dir, "a", bytes, length_off(2));
  const Judgement b = JudgeWith(dir, "b", bytes, length_off(9));
  ASSERT_FALSE(a.agree);
  EXPECT_NE(a.difference, b.difference);
  EXPECT_EQ(a.signature, b.signature);
  EXPECT_EQ(a.signature, "oracle=accept impl=accept differs=/length");
  // Another bug (the pid printed wrong) is another class.
  std::vector<nlohmann::json> pid = lines;
  pid.front()["info"]["pid"] = 1;
  const Judgement c = JudgeWith(dir, "c", bytes, pid);
  EXPECT_EQ(c.signature, "oracle=accept impl=accept differs=/info/pid");
}

TEST(Signature, AnExitCodeFailureStillNamesTheFirstWrongRecord) {
  const std::string dir = TestDir("exit");
  const auto bytes = CaseBytes("v2_event_forms");
  auto lines = OracleLines(bytes);
  for (nlohmann::json& l : lines)
    if (l.value("kind", "") == "alloc") {
      l["length"] = 300;
      break;
    }
  lines.resize(lines.size() / 2);  // it gave up midway
  const std::string path = dir + "/x.ctf";
  std::ofstream out(path + ".out");
  for (const nlohmann::json& l : lines) out << l.dump() << "\n";
  out.close();
  ImplConfig impl;
  impl.command = "cat {file}.out; exit 3";
  ImplRunner runner(RunnerCommand(impl));
  auto j = Judge(bytes, path, FuzzFormat::kMemtrace, impl, runner);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->signature, "oracle=accept impl=exit-3");
  EXPECT_NE(j->difference.find("exit code 3; line "), std::string::npos) << j->difference;
  EXPECT_NE(j->difference.find("/length"), std::string::npos) << j->difference;
}

}  // namespace
}  // namespace mpo::corpus::fuzz
