// The kit against hostile corpora and hostile implementations: every case here once
// crashed, hung, leaked processes or memory, or gave a wrong verdict.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  const fs::path p = fs::path(t ? t : "/tmp") / ("hostile_" + name);
  fs::remove_all(p);
  fs::create_directories(p / "sampler");
  return p;
}

void Put(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string Get(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

constexpr const char* kRequest = R"({"seed":1,"lambda":0.5,"mode":"geometric","count":3})";

// A one-case corpus (a sampler request and its expected decode) with `manifest` as its
// MANIFEST.json ("" = the right one).
fs::path OneCaseCorpus(const std::string& name, const std::string& manifest = "",
                       const std::string& request = kRequest) {
  const fs::path dir = FreshDir(name);
  const fs::path file = dir / "sampler" / "a.sampler.json";
  Put(file, request);
  StringTextSink out;
  auto d = DecodeFile(file.string(), DecodeForm::kJsonLines, out);
  EXPECT_TRUE(d.ok());
  Put(file.string() + ".expected.jsonl", out.text);
  Put(dir / "MANIFEST.json",
      manifest.empty()
          ? R"({"schema":2,"cases":[{"name":"sampler/a","file":"sampler/a.sampler.json",)"
            R"("expected_jsonl":"sampler/a.sampler.json.expected.jsonl"}]})"
          : manifest);
  return dir;
}

Result<CheckSummary> CheckWith(const fs::path& dir, const std::string& impl, double timeout = 20) {
  CheckOptions o;
  o.impl = impl;
  o.timeout_seconds = timeout;
  return Check(dir.string(), o);
}

// True while `pid` names a live (not zombie) process.
bool Alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  const std::string stat = Get("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

pid_t PidIn(const fs::path& p) {
  for (int i = 0; i < 200 && Get(p).empty(); ++i) ::usleep(10000);
  const std::string s = Get(p);
  return s.empty() ? 0 : static_cast<pid_t>(std::stol(s));
}

// --- The manifest and the expected files: typed errors, never an exception. ---

TEST(HostileCorpus, ManifestFieldsOfTheWrongTypeAreTyped) {
  for (const char* m : {R"({"schema":"2","cases":[]})", R"({"schema":null,"cases":[]})",
                        R"({"schema":[2],"cases":[]})", R"({"schema":2.5,"cases":[]})",
                        R"({"schema":2,"cases":{}})", R"([1,2])", R"({"schema":2,"cases":[7]})",
                        R"({"schema":2,"cases":[{"name":1,"file":"x","expected_jsonl":"y"}]})",
                        R"({"schema":2,"cases":[{"name":"a","file":"sampler/a.sampler.json",)"
                        R"("expected_jsonl":{"x":1}}]})",
                        R"({"schema":2,"cases":[{"name":"a","file":"sampler/a.sampler.json",)"
                        R"("expected_json":"sampler/a.sampler.json.expected.jsonl"}]})",
                        "not json at all"}) {
    const fs::path dir = OneCaseCorpus("manifest", m);
    Result<CheckSummary> s = Status(ErrorCode::kInternal, "not run");
    ASSERT_NO_THROW(s = CheckWith(dir, "cat {file}.expected.jsonl")) << m;
    ASSERT_FALSE(s.ok()) << m;
    EXPECT_EQ(s.status().code(), ErrorCode::kCorrupt) << m;
    EXPECT_NE(s.status().field().find("MANIFEST.json"), std::string::npos)
        << m << ": " << s.status().ToString();
  }
}

TEST(HostileCorpus, OtherSchemasAreRefusedAndSchema1IsToldToRegenerate) {
  for (const char* m : {R"({"schema":1,"cases":[]})", R"({"cases":[]})"}) {
    auto s = CheckWith(OneCaseCorpus("schema1", m), "cat {file}.expected.jsonl");
    ASSERT_FALSE(s.ok()) << m;
    EXPECT_EQ(s.status().code(), ErrorCode::kUnsupportedVersion) << m;
    EXPECT_EQ(s.status().message(),
              "corpus schema 1: regenerate it with `memprof-oracle corpus gen DIR`")
        << m;
  }
  auto s = CheckWith(OneCaseCorpus("schema3", R"({"schema":3,"cases":[]})"), "cat {file}");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kUnsupportedVersion);
  EXPECT_EQ(s.status().message(), "schema 3 is not 2");
}

TEST(HostileCorpus, CasePathsOutsideTheCorpusAreRefused) {
  for (const char* file : {"/etc/passwd", "../outside.sampler.json", "sampler/../../x.ctf"}) {
    const std::string m = std::string(R"({"schema":2,"cases":[{"name":"a","file":")") + file +
                          R"(","expected_jsonl":"sampler/a.sampler.json.expected.jsonl"}]})";
    auto s = CheckWith(OneCaseCorpus("outside", m), "cat {file}.expected.jsonl");
    ASSERT_FALSE(s.ok()) << file;
    EXPECT_EQ(s.status().code(), ErrorCode::kCorrupt) << s.status().ToString();
  }
}

TEST(HostileCorpus, ManifestThatIsADirectoryIsAnIoError) {
  const fs::path dir = FreshDir("manifest_dir");
  fs::create_directories(dir / "MANIFEST.json");
  auto s = CheckWith(dir, "cat {file}");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo);
  EXPECT_NE(s.status().ToString().find("directory"), std::string::npos) << s.status().ToString();
}

TEST(HostileCorpus, ExpectedFileThatIsADirectoryOrFifoIsAnIoError) {
  for (bool fifo : {false, true}) {
    const fs::path dir = OneCaseCorpus(fifo ? "expected_fifo" : "expected_dir");
    const fs::path expected = dir / "sampler" / "a.sampler.json.expected.jsonl";
    fs::remove(expected);
    if (fifo)
      ASSERT_EQ(::mkfifo(expected.c_str(), 0600), 0);
    else
      fs::create_directories(expected);
    auto s = CheckWith(dir, "cat {file}.expected.jsonl");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), ErrorCode::kIo) << s.status().ToString();
  }
}

TEST(HostileCorpus, CaseFileThatIsADirectoryOrFifoIsTypedInDecode) {
  const fs::path dir = FreshDir("case_file");
  fs::create_directories(dir / "x.ctf");
  StringTextSink out;
  auto d = DecodeFile((dir / "x.ctf").string(), DecodeForm::kJsonLines, out);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kIo);
  ASSERT_EQ(::mkfifo((dir / "y.ocaml-5.1.events").c_str(), 0600), 0);
  d = DecodeFile((dir / "y.ocaml-5.1.events").string(), DecodeForm::kJsonLines, out);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kIo);
  d = DecodeFile((dir / "missing.sampler.json").string(), DecodeForm::kJsonLines, out);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kIo);
  EXPECT_EQ(out.text, "");
}

TEST(HostileCorpus, ReadErrorsAreTyped) {
  // /proc/self/mem is a regular file whose read at offset 0 fails with EIO.
  const fs::path dir = OneCaseCorpus("eio");
  fs::create_symlink("/proc/self/mem", dir / "eio.ocaml-5.3.events");
  StringTextSink out;
  auto d = DecodeFile((dir / "eio.ocaml-5.3.events").string(), DecodeForm::kJsonLines, out);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kIo);
  EXPECT_NE(d.status().message().find("Input/output error"), std::string::npos)
      << d.status().ToString();
  // A trace is streamed from the file: the failed read ends its stream.
  fs::create_symlink("/proc/self/mem", dir / "eio.ctf");
  d = DecodeFile((dir / "eio.ctf").string(), DecodeForm::kText, out);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->ended_with.code(), ErrorCode::kIo);
  EXPECT_NE(d->ended_with.message().find("Input/output error"), std::string::npos)
      << d->ended_with.ToString();
  const fs::path expected = dir / "sampler" / "a.sampler.json.expected.jsonl";
  fs::remove(expected);
  fs::create_symlink("/proc/self/mem", expected);
  auto s = CheckWith(dir, "cat {file}");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo);
}

TEST(HostileCorpus, CaseFileThatIsADirectoryIsAnIoErrorInCheck) {
  const fs::path dir = OneCaseCorpus("case_dir");
  fs::remove(dir / "sampler" / "a.sampler.json");
  fs::create_directories(dir / "sampler" / "a.sampler.json");
  auto s = CheckWith(dir, "cat {file}.expected.jsonl");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo) << s.status().ToString();
}

// --- Deep documents: a FAIL with a reason, never a stack overflow. ---

std::string Nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(HostileImpl, DeeplyNestedOutputFailsWithAReason) {
  const fs::path dir = OneCaseCorpus("deep_out");
  Put(dir / "deep.json", Nested(100000));
  auto s = CheckWith(dir, "cat " + ShellQuote((dir / "deep.json").string()) + " # {file}");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_FALSE(s->cases[0].passed);
  EXPECT_NE(s->cases[0].reason.find("nested deeper than"), std::string::npos) << s->cases[0].reason;
}

TEST(HostileCorpus, DeeplyNestedExpectedFileFailsWithAReason) {
  const fs::path dir = OneCaseCorpus("deep_expected");
  const std::string deep = Nested(100000);
  Put(dir / "sampler" / "a.sampler.json.expected.jsonl", deep);
  auto s = CheckWith(dir, "cat {file}.expected.jsonl");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_FALSE(s->cases[0].passed);
  EXPECT_NE(s->cases[0].reason.find("nested deeper than"), std::string::npos) << s->cases[0].reason;
}

TEST(HostileImpl, DeepButAllowedDocumentsStillCompare) {
  const fs::path dir = OneCaseCorpus("deep_ok");
  const std::string end = R"({"kind":"end_of_stream","error":null,"records":0})";
  auto deep = [](const char* leaf) {
    return std::string(200, '[') + leaf + std::string(200, ']') + "\n";
  };
  Put(dir / "sampler" / "a.sampler.json.expected.jsonl", deep("2") + end + "\n");
  Put(dir / "got.json", deep("1") + end + "\n");
  auto s = CheckWith(dir, "cat " + ShellQuote((dir / "got.json").string()) + " # {file}");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->cases.size(), 1u);
  EXPECT_EQ(s->cases[0].reason.rfind("line 1: at /0/0/0/", 0), 0u) << s->cases[0].reason;
  EXPECT_EQ(s->cases[0].reason.substr(s->cases[0].reason.find(": expected")),
            ": expected 2, got 1");
}

// --- Too much output: stopped at the cap, reported unparsed. ---

TEST(HostileImpl, OutputPastTheCapIsReportedUnparsed) {
  const fs::path dir = OneCaseCorpus("big_output");
  CheckOptions o;
  o.max_output_bytes = std::size_t{1} << 20;
  for (const char* impl : {"head -c 5000000 /dev/zero # {file}", "yes '[' # {file}"}) {
    o.impl = impl;
    const auto start = std::chrono::steady_clock::now();
    auto s = Check(dir.string(), o);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->cases[0].reason,
              "output exceeds the 1 MiB limit (--max-output-mib raises it); "
              "not parsed")
        << impl;
    EXPECT_LT(took, 10.0) << impl << ": the command was not stopped at the cap";
  }
}

TEST(HostileImpl, OutputJustUnderTheCapIsParsed) {
  const fs::path dir = OneCaseCorpus("cap_edge");
  CheckOptions o;
  o.impl = "cat {file}.expected.jsonl";
  o.max_output_bytes = Get(dir / "sampler" / "a.sampler.json.expected.jsonl").size();
  auto s = Check(dir.string(), o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  o.max_output_bytes -= 1;
  s = Check(dir.string(), o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("output exceeds the", 0), 0u) << s->cases[0].reason;
}

TEST(HostileImpl, OutputWithFarMoreValuesThanExpectedIsNotBuilt) {
  const fs::path dir = OneCaseCorpus("many_values");
  // 4.5 million zeros in 9 MB on one line: a DOM of them would take ~200 MB.
  auto s = CheckWith(
      dir, "{ printf '['; yes '0,' | tr -d '\\n' | head -c 9000000; printf '0]'; } # {file}");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->cases[0].reason,
            "output holds more than 1048576 JSON values (4 times the expected stream's, at "
            "least 2^20); not compared");
}

// --- Processes the implementation leaves behind. ---

TEST(HostileImpl, BackgroundChildIsKilledWhenTheImplExits) {
  const fs::path dir = OneCaseCorpus("background");
  const fs::path pidfile = dir / "pid";
  auto s = CheckWith(dir, "sleep 300 </dev/null >/dev/null 2>&1 & echo $! > " +
                              ShellQuote(pidfile.string()) + "; cat {file}.expected.jsonl");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  const pid_t child = PidIn(pidfile);
  ASSERT_GT(child, 0);
  const bool alive = Alive(child);
  if (alive) ::kill(child, SIGKILL);
  EXPECT_FALSE(alive) << "the impl's background child outlived the check";
}

TEST(HostileImpl, SetsidChildIsKilledToo) {
  const fs::path dir = OneCaseCorpus("setsid");
  const fs::path pidfile = dir / "pid";
  // The grandchild starts its own session, escaping the impl's process group.
  auto s = CheckWith(dir, "setsid sh -c 'echo $$ > " + pidfile.string() +
                              "; exec sleep 300' </dev/null >/dev/null 2>&1 & "
                              // Answer only once the grandchild is running: else the kit
                              // may kill it before it records its pid.
                              "while [ ! -s " +
                              pidfile.string() +
                              " ]; do sleep 0.01; done; "
                              "cat {file}.expected.jsonl");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  const pid_t child = PidIn(pidfile);
  ASSERT_GT(child, 0);
  for (int i = 0; i < 100 && Alive(child); ++i) ::usleep(10000);
  const bool alive = Alive(child);
  if (alive) ::kill(child, SIGKILL);
  EXPECT_FALSE(alive) << "the impl's setsid grandchild outlived the check";
}

TEST(HostileImpl, SetsidChildIsKilledOnTimeout) {
  const fs::path dir = OneCaseCorpus("setsid_timeout");
  const fs::path pidfile = dir / "pid";
  auto s = CheckWith(dir,
                     "setsid sh -c 'echo $$ > " + pidfile.string() +
                         "; exec sleep 300' </dev/null >/dev/null 2>&1 & sleep 300 # {file}",
                     0.5);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->cases[0].reason.rfind("timed out", 0), 0u) << s->cases[0].reason;
  const pid_t child = PidIn(pidfile);
  ASSERT_GT(child, 0);
  for (int i = 0; i < 100 && Alive(child); ++i) ::usleep(10000);
  const bool alive = Alive(child);
  if (alive) ::kill(child, SIGKILL);
  EXPECT_FALSE(alive) << "the setsid grandchild survived the time-out";
}

TEST(HostileImpl, ChildHoldingStdoutDoesNotTurnAPassIntoATimeout) {
  const fs::path dir = OneCaseCorpus("holds_stdout");
  const auto start = std::chrono::steady_clock::now();
  auto s = CheckWith(dir, "sleep 300 & cat {file}.expected.jsonl", 10);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  EXPECT_LT(took, 5.0);
}

TEST(HostileImpl, CorrectOutputWithANonZeroExitFails) {
  const fs::path dir = OneCaseCorpus("exit_code");
  auto s = CheckWith(dir, "cat {file}.expected.jsonl; exit 4");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason,
            "exit code 4 where the input is accepted; the stream printed matches");
}

TEST(HostileImpl, ExitOnePassesOnlyWhereTheInputIsRejected) {
  auto s = CheckWith(OneCaseCorpus("exit_one"), "cat {file}.expected.jsonl; exit 1");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason,
            "exit code 1 where the input is accepted; the stream printed matches");
  // lambda 1 needs no work budget; the third length is past rand_binom's domain, so the
  // stream has two draws, then the error.
  const fs::path dir = OneCaseCorpus(
      "rejected", "",
      R"({"seed":1,"lambda":1,"mode":"binomial","lengths":[1,2,18446744073709551615]})");
  const std::string expected = Get(dir / "sampler" / "a.sampler.json.expected.jsonl");
  ASSERT_NE(expected.find(R"("records":2})"), std::string::npos) << expected;
  ASSERT_EQ(expected.find(R"("error":null)"), std::string::npos) << expected;
  s = CheckWith(dir, "cat {file}.expected.jsonl; exit 1");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  // A decoder that stops earlier (header, one draw, the end line) still passes: only the
  // header and the error are compared.
  s = CheckWith(dir, "{ head -n 2 {file}.expected.jsonl; tail -n 1 {file}.expected.jsonl; }");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->passed, 1u) << s->cases[0].reason;
  // Another error class does not, nor exit codes other than 0 and 1.
  s = CheckWith(dir,
                "sed 's/\"code\":\"[^\"]*\"/\"code\":\"no such code\"/' {file}.expected.jsonl");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason.rfind("line 4: at /error/code: expected ", 0), 0u)
      << s->cases[0].reason;
  s = CheckWith(dir, "cat {file}.expected.jsonl; exit 2");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->cases[0].reason,
            "exit code 2 where the input is rejected (0 or 1 allowed); the stream printed matches");
}

// --- gen never writes through a planted symlink. ---

TEST(HostileCorpus, GenReplacesPlantedSymlinksInsteadOfFollowingThem) {
  const fs::path dir = FreshDir("gen_symlink");
  const fs::path victim = dir.parent_path() / "hostile_gen_victim";
  Put(victim, "precious");
  fs::create_symlink(victim, dir / "sampler" / "geometric_seed0_lambda1e-6.sampler.json");
  fs::create_symlink(victim, dir / "MANIFEST.json");
  auto g = Generate(dir.string());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_TRUE(Get(victim) == "precious") << "gen wrote through a planted symlink";
  EXPECT_FALSE(fs::is_symlink(dir / "MANIFEST.json"));
  EXPECT_FALSE(fs::is_symlink(dir / "sampler" / "geometric_seed0_lambda1e-6.sampler.json"));
}

TEST(HostileCorpus, GenRefusesASymlinkedSubdirectory) {
  const fs::path dir = FreshDir("gen_symlink_dir");
  const fs::path elsewhere = dir.parent_path() / "hostile_gen_elsewhere";
  fs::remove_all(elsewhere);
  fs::create_directories(elsewhere);
  fs::create_symlink(elsewhere, dir / "ring");
  auto g = Generate(dir.string());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kIo);
  EXPECT_TRUE(fs::is_empty(elsewhere));
}

}  // namespace
}  // namespace mpo::corpus
