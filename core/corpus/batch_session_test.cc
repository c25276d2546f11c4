// The batch protocol from the kit's side, against small shell implementations that keep
// to it or break it in each way batch_session.h names; and the supervisor's own death.
#include "core/corpus/batch_session.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "core/corpus/impl_runner.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {
namespace {

constexpr const char* kEnd0 = R"({"kind":"batch_end","exit":0})";

// A batch implementation that echoes each path as a record, then its end line.
std::string Echo(int exit_code) {
  return "while IFS= read -r p; do printf '{\"path\":\"%s\"}\\n' \"$p\"; "
         "echo '{\"kind\":\"batch_end\",\"exit\":" +
         std::to_string(exit_code) + "}'; done";
}

TEST(ParseBatchEnd, RecognisesOnlyTheEndLine) {
  EXPECT_FALSE(ParseBatchEnd(R"({"kind":"alloc","name":"batch_end"})").has_value());
  EXPECT_FALSE(ParseBatchEnd(R"({"kind":"end_of_stream","error":null,"records":3})").has_value());
  EXPECT_FALSE(ParseBatchEnd("\"batch_end\" not json").has_value());
  auto end = ParseBatchEnd(kEnd0);
  ASSERT_TRUE(end.has_value());
  ASSERT_TRUE(end->ok());
  EXPECT_EQ(**end, 0);
  end = ParseBatchEnd(R"({"exit":1,"kind":"batch_end"})");
  ASSERT_TRUE(end.has_value() && end->ok());
  EXPECT_EQ(**end, 1);
  for (const char* bad : {R"({"kind":"batch_end"})", R"({"kind":"batch_end","exit":"0"})",
                          R"({"kind":"batch_end","exit":256})", R"({"kind":"batch_end","exit":-1})",
                          R"({"kind":"batch_end","exit":0,"more":1})"}) {
    end = ParseBatchEnd(bad);
    ASSERT_TRUE(end.has_value()) << bad;
    EXPECT_FALSE(end->ok()) << bad;
  }
}

TEST(BatchSession, OneProcessServesEveryInput) {
  BatchSession s(Echo(1));
  for (const char* f : {"/a", "/b/c", "/d"}) {
    auto r = s.Run(f, 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->out, std::string("{\"path\":\"") + f + "\"}\n");
    EXPECT_EQ(r->exit_code, 1);
    EXPECT_TRUE(r->protocol_error.empty()) << r->protocol_error;
  }
  EXPECT_EQ(s.starts(), 1u);
}

TEST(BatchSession, RelativePathsAreSentAbsolute) {
  BatchSession s(Echo(0));
  auto r = s.Run("x/../y.ctf", 10, 1 << 20);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out.find("{\"path\":\"/"), 0u) << r->out;
  EXPECT_NE(r->out.find("/y.ctf\""), std::string::npos) << r->out;
}

TEST(BatchSession, AHangFailsOneInputAndTheNextGetsAFreshProcess) {
  BatchSession s(
      "while IFS= read -r p; do case \"$p\" in *hang*) sleep 100;; esac; echo rec; "
      "echo '" +
      std::string(kEnd0) + "'; done");
  auto r = s.Run("/hang", 0.3, 1 << 20);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  r = s.Run("/fine", 10, 1 << 20);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->out, "rec\n");
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(s.starts(), 2u);
}

TEST(BatchSession, AProcessPerInputStillWorks) {
  // It answers one path and exits: each later input finds it gone and starts another.
  BatchSession s("IFS= read -r p; echo \"$p\"; echo '" + std::string(kEnd0) + "'");
  for (const char* f : {"/a", "/b", "/c"}) {
    auto r = s.Run(f, 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->out, std::string(f) + "\n");
    EXPECT_TRUE(r->protocol_error.empty()) << r->protocol_error;
  }
  EXPECT_EQ(s.starts(), 3u);
}

TEST(BatchSession, BrokenProtocolsFailTheirInputWithAReason) {
  {
    BatchSession s("while read -r p; do echo '{\"kind\":\"batch_end\",\"exit\":\"no\"}'; done");
    auto r = s.Run("/a", 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_NE(r->protocol_error.find("an end line must be"), std::string::npos);
  }
  {
    BatchSession s("read -r p; echo partial; exit 4");
    auto r = s.Run("/a", 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->exit_code, 4);
    EXPECT_EQ(r->out, "partial\n");
    EXPECT_EQ(r->protocol_error, "the command exited before its end line");
  }
  {
    BatchSession s("exec >&-; sleep 100");
    auto r = s.Run("/a", 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->protocol_error, "the command closed its stdout before its end line");
  }
  {
    // Output after the end line, before the next path, fails the next input.
    BatchSession s("while IFS= read -r p; do echo '" + std::string(kEnd0) + "'; echo stray; done");
    auto r = s.Run("/a", 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->protocol_error.empty()) << r->protocol_error;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    r = s.Run("/b", 10, 1 << 20);
    ASSERT_TRUE(r.ok());
    // "stray" may have come with the end line or after it: with it, /b fails; after it, it
    // is the first line of /b's stream.
    EXPECT_TRUE(r->protocol_error.find("printed after its end line") != std::string::npos ||
                r->out.rfind("stray\n", 0) == 0)
        << r->protocol_error << r->out;
  }
  {
    BatchSession s("yes '{}'");
    auto r = s.Run("/a", 10, 1 << 16);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->out_truncated);
    EXPECT_LE(r->out.size(), std::size_t{1} << 16);
  }
}

TEST(BatchSession, StderrOfTheInputIsKept) {
  BatchSession s("while IFS= read -r p; do echo \"reading $p\" >&2; echo '" + std::string(kEnd0) +
                 "'; done");
  auto r = s.Run("/x", 10, 1 << 20);
  ASSERT_TRUE(r.ok());
  r = s.Run("/y", 10, 1 << 20);
  ASSERT_TRUE(r.ok());
  // Sent before its end line, it may arrive just after it: never another input's.
  EXPECT_EQ(r->err.find("reading /x"), std::string::npos) << r->err;
}

bool Alive(const std::string& pid_file) {
  std::ifstream in(pid_file);
  pid_t pid = 0;
  if (!(in >> pid) || pid <= 0) return false;
  return ::kill(pid, 0) == 0;
}

// The command kills its parent, or the supervisor above it: its input fails, nothing of
// it lives on, and the kit (this process) goes on.
TEST(Supervisor, KillingItsParentOrTheSupervisorFailsTheInputAndKillsEverything) {
  const std::string pid_file = ::testing::TempDir() + "/batch_session_test.pid";
  const std::string start = "(setsid sleep 100 & echo $! > " + pid_file + "; wait) & sleep 0.2; ";
  const std::string supervisor = "$(awk '{print $4}' /proc/$PPID/stat)";
  for (const bool batch : {false, true}) {
    for (const bool whole_supervisor : {false, true}) {
      std::remove(pid_file.c_str());
      const std::string body =
          start + "kill -9 " + (whole_supervisor ? supervisor : "$PPID") + "; sleep 100";
      ImplRunner runner({batch ? body : body + " # {file}", batch, 10, 1 << 20});
      auto r = runner.Run("/a");
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_FALSE(r->timed_out);
      if (whole_supervisor) {
        EXPECT_TRUE(r->supervisor_died) << batch;
        EXPECT_NE(DescribeBrokenRun(*r, runner.command()).find("supervisor"), std::string::npos);
      } else {
        // Its parent is the process that ends as the command does.
        EXPECT_EQ(r->signal, SIGKILL) << batch;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      EXPECT_FALSE(Alive(pid_file)) << "a process that left the group outlived the clean-up";
    }
  }
}

TEST(ImplRunner, CommandsAreCheckedForTheirMode) {
  EXPECT_FALSE(ValidateImplCommand({"decoder", false, 1, 1}).ok());
  EXPECT_TRUE(ValidateImplCommand({"decoder {file}", false, 1, 1}).ok());
  EXPECT_FALSE(ValidateImplCommand({"decoder {file}", true, 1, 1}).ok());
  EXPECT_TRUE(ValidateImplCommand({"decoder --batch", true, 1, 1}).ok());
  EXPECT_FALSE(ValidateImplCommand({"decoder --batch", true, 1, 0}).ok());
}

}  // namespace
}  // namespace mpo::corpus
