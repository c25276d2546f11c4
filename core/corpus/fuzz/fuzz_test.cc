// The fuzzing loop against small shell "implementations" whose behaviour is known; the
// real decoder is run against it by tools/corpus/corpus_fuzz_cli_test.sh.
#include "core/corpus/fuzz/fuzz.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/corpus/fuzz/packet_walk.h"
#include "core/corpus/fuzz/seeds.h"

namespace mpo::corpus::fuzz {
namespace {

namespace fs = std::filesystem;

std::string TestDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Accepts everything with an empty stream: wrong on every input.
const std::string kEmptyStream =
    "printf '{\"schema\":2,\"format\":\"memtrace\",\"info\":null}\\n"
    "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":0}\\n'; "
    "echo 'I accept everything' >&2";
const std::string kAcceptsAll = kEmptyStream + " # {file}";
// The same, as a batch implementation (batch_session.h).
const std::string kAcceptsAllBatch = "while IFS= read -r p; do " + kEmptyStream +
                                     "; echo '{\"kind\":\"batch_end\",\"exit\":0}'; done";

FuzzOptions Options(const std::string& impl, const std::string& out) {
  FuzzOptions o;
  o.impl.command = impl;
  o.impl.timeout_seconds = 10;
  o.seed = 7;
  o.max_mutants = 12;
  o.max_seconds = 120;
  o.out_dir = out;
  o.max_minimize_tests = 40;
  return o;
}

TEST(Fuzz, CatchesMinimizesAndSavesAWrongImplementation) {
  const std::string out = TestDir("wrong");
  std::vector<std::string> found;
  auto s = Fuzz(Options(kAcceptsAll, out),
                {[&found](const DivergenceClass& d) { found.push_back(d.signature); }, {}});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->mutants, 12u);
  EXPECT_EQ(s->passed + s->failed + s->declared, 12u);
  EXPECT_GT(s->failed, 0u);
  EXPECT_EQ(s->declared, 0u);
  ASSERT_FALSE(s->classes.empty());
  EXPECT_EQ(found.size(), s->classes.size());
  const DivergenceClass& d = s->classes.front();
  EXPECT_NE(d.signature.find("oracle="), std::string::npos);
  EXPECT_LE(d.minimized_bytes, d.mutant_bytes);
  EXPECT_LE(d.changed_bytes, std::max(d.minimized_bytes, d.mutant_bytes));
  EXPECT_GT(d.minimize_tests, 0u);
  ASSERT_FALSE(d.saved.empty());
  EXPECT_TRUE(fs::exists(d.saved));
  EXPECT_EQ(fs::file_size(d.saved), d.minimized_bytes);
  std::ifstream txt(out + "/divergence-1.txt");
  std::stringstream text;
  text << txt.rdbuf();
  EXPECT_NE(text.str().find("signature: " + d.signature), std::string::npos);
  EXPECT_NE(text.str().find("run seed: 7"), std::string::npos);
  EXPECT_NE(text.str().find("mutator chain: "), std::string::npos);
  EXPECT_NE(text.str().find("first difference: "), std::string::npos);
  EXPECT_NE(text.str().find("replay: memprof-oracle corpus fuzz "), std::string::npos);
  EXPECT_NE(text.str().find("impl stderr:\n  I accept everything\n"), std::string::npos)
      << text.str();
}

TEST(Fuzz, BatchModeFindsWhatOneProcessPerMutantFinds) {
  auto one = Fuzz(Options(kAcceptsAll, ""));
  FuzzOptions o = Options(kAcceptsAllBatch, "");
  o.impl.batch = true;
  auto batch = Fuzz(o);
  ASSERT_TRUE(one.ok() && batch.ok()) << batch.status().ToString();
  EXPECT_EQ(batch->failed, one->failed);
  ASSERT_EQ(batch->classes.size(), one->classes.size());
  for (std::size_t i = 0; i < one->classes.size(); ++i)
    EXPECT_EQ(batch->classes[i].signature, one->classes[i].signature);
  o.impl.command = kAcceptsAll;  // a {file} in a batch command is a usage error
  EXPECT_EQ(Fuzz(o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(Fuzz, TheSameSeedFindsTheSameClasses) {
  auto a = Fuzz(Options(kAcceptsAll, ""));
  auto b = Fuzz(Options(kAcceptsAll, ""));
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->classes.size(), b->classes.size());
  for (std::size_t k = 0; k < a->classes.size(); ++k) {
    EXPECT_EQ(a->classes[k].signature, b->classes[k].signature);
    EXPECT_EQ(a->classes[k].first_index, b->classes[k].first_index);
    EXPECT_EQ(a->classes[k].chain, b->classes[k].chain);
  }
  EXPECT_EQ(a->failed, b->failed);
}

TEST(Fuzz, DeclaredClassesDoNotFail) {
  FuzzOptions o = Options(kAcceptsAll, "");
  o.declared = ParseDeclared("oracle=* impl=accept*   # this impl accepts everything\n");
  auto s = Fuzz(o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->failed, 0u);
  EXPECT_GT(s->declared, 0u);
  for (const DivergenceClass& d : s->classes) {
    EXPECT_TRUE(d.declared);
    EXPECT_EQ(d.why, "this impl accepts everything");
    EXPECT_TRUE(d.saved.empty());
  }
}

TEST(Fuzz, ClassifiesCrashesAndTimeouts) {
  FuzzOptions o = Options("kill -SEGV $$ # {file}", "");
  o.max_mutants = 3;
  auto s = Fuzz(o);
  ASSERT_TRUE(s.ok());
  ASSERT_FALSE(s->classes.empty());
  EXPECT_NE(s->classes[0].signature.find("impl=signal-11"), std::string::npos);
  o.impl.command = "exit 139 # {file}";  // how a shell reports its child's SIGSEGV
  auto shell = Fuzz(o);
  ASSERT_TRUE(shell.ok());
  ASSERT_FALSE(shell->classes.empty());
  EXPECT_NE(shell->classes[0].signature.find("impl=signal-11"), std::string::npos);
  o.impl.command = "sleep 5 # {file}";
  o.impl.timeout_seconds = 0.2;
  o.max_mutants = 1;
  o.max_minimize_tests = 2;
  auto t = Fuzz(o);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->classes.size(), 1u);
  EXPECT_NE(t->classes[0].signature.find("impl=timeout"), std::string::npos);
}

TEST(Fuzz, RefusesBadOptions) {
  FuzzOptions o = Options("cat", "");
  EXPECT_EQ(Fuzz(o).status().field(), "--impl");
  o = Options(kAcceptsAll, "");
  o.impl.verdicts = Verdicts::kOcaml53;  // judges rings only
  EXPECT_EQ(Fuzz(o).status().field(), "--as");
  o = Options(kAcceptsAll, "");
  o.seed_paths = {"/nonexistent/seeds"};
  EXPECT_EQ(Fuzz(o).status().code(), ErrorCode::kIo);
}

TEST(Seeds, CasesThenFilesOfTheFormatAndTheModesRange) {
  const std::string dir = TestDir("seeds");
  const std::string scratch = TestDir("seeds_scratch");
  std::ofstream(dir + "/b.ctf") << "not really a trace";
  std::ofstream(dir + "/a.ctf") << "another";
  std::ofstream(dir + "/notes.txt") << "ignored";
  std::ofstream(dir + "/r.ocaml-5.0.events") << "a ring of another release";
  auto cases = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch);
  auto with_files = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {dir}, scratch);
  ASSERT_TRUE(cases.ok() && with_files.ok());
  ASSERT_EQ(with_files->seeds.size(), cases->seeds.size() + 2);
  EXPECT_EQ(with_files->seeds[cases->seeds.size()].name, dir + "/a.ctf");  // sorted, after
  EXPECT_EQ(with_files->seeds.back().suffix, ".ctf");
  EXPECT_EQ(with_files->left_out, 0u);
  // memtrace 0.2.3 reads v1 and v2 only: no v3 seed is kept.
  auto v2 = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kMemtrace023, {}, scratch);
  ASSERT_TRUE(v2.ok());
  EXPECT_LT(v2->seeds.size(), cases->seeds.size());
  for (const SeedInput& s : v2->seeds) {
    const auto packets = WalkPackets(s.bytes);
    if (!packets.empty()) {
      EXPECT_LE(packets.front().version, 2) << s.name;
    }
  }
  // OCaml 5.3's consumer: rings named for 5.3 only.
  auto rings = LoadSeeds(FuzzFormat::kRing, Verdicts::kOcaml53, {dir}, scratch);
  ASSERT_TRUE(rings.ok());
  for (const SeedInput& s : rings->seeds) EXPECT_EQ(s.suffix, ".ocaml-5.3.events") << s.name;
}

// The seeds selected as corpus check selects cases: a v1/v2 reader's fuzzing gets no v3
// seed, --only/--skip take names and tags, and a real trace's version comes from its
// first packet.
TEST(Seeds, SelectedAsCheckSelectsCases) {
  const std::string scratch = TestDir("select_scratch");
  auto all = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch);
  ASSERT_TRUE(all.ok());
  SeedSelection old_readers;
  old_readers.supports = {"memtrace-v1", "memtrace-v2"};
  auto v12 = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch, old_readers);
  ASSERT_TRUE(v12.ok()) << v12.status().ToString();
  EXPECT_GT(v12->left_out, 0u);
  EXPECT_EQ(v12->seeds.size() + v12->left_out, all->seeds.size());
  for (const SeedInput& s : v12->seeds) EXPECT_NE(s.name.substr(0, 3), "v3_") << s.name;

  SeedSelection hits;
  hits.only = {"tag:backtrace"};
  hits.skip = {"tag:rejected", "v3_"};
  auto bt = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch, hits);
  ASSERT_TRUE(bt.ok()) << bt.status().ToString();
  std::set<std::string> names;
  for (const SeedInput& s : bt->seeds) names.insert(s.name);
  EXPECT_EQ(names.count("v1_backtrace_cache"), 1u);
  EXPECT_EQ(names.count("v2_truncated_prefix"), 1u);        // accepted
  EXPECT_EQ(names.count("v3_backtrace_cache"), 0u);         // skipped by name
  EXPECT_EQ(names.count("v1_bad_cache_verification"), 0u);  // rejected
  EXPECT_EQ(names.count("v1_event_forms"), 0u);             // no backtrace tag

  // A real trace named without its version: the version tag comes from its first packet.
  const std::string dir = TestDir("select_files");
  for (const SeedInput& s : all->seeds) {
    if (s.name == "v3_event_forms" || s.name == "v1_event_forms") {
      std::ofstream(dir + "/recording-" + s.name.substr(0, 2) + ".ctf", std::ios::binary)
          .write(reinterpret_cast<const char*>(s.bytes.data()),
                 static_cast<std::streamsize>(s.bytes.size()));
    }
  }
  SeedSelection files_v1;
  files_v1.only = {"recording-"};
  files_v1.supports = {"memtrace-v1"};
  auto f = LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {dir}, scratch, files_v1);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_EQ(f->seeds.size(), 1u);
  EXPECT_EQ(f->seeds[0].name, dir + "/recording-v1.ctf");

  // A tag no seed has, a bad --supports item and an empty selection are refused.
  SeedSelection typo;
  typo.only = {"tag:backtrac"};
  EXPECT_EQ(LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch, typo).status().field(),
            "--only");
  SeedSelection bad;
  bad.supports = {"memtrace-v9"};
  EXPECT_EQ(LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch, bad).status().code(),
            ErrorCode::kInvalidArgument);
  SeedSelection none;
  none.supports = {"ring"};
  EXPECT_EQ(LoadSeeds(FuzzFormat::kMemtrace, Verdicts::kStrict, {}, scratch, none).status().field(),
            "--seeds");
}

// A fuzz run over selected seeds counts the left-out ones and replays with the same
// selection.
TEST(Fuzz, SelectionNarrowsTheSeedsAndIsInTheReplay) {
  const std::string out = TestDir("selected");
  FuzzOptions o = Options(kAcceptsAll, out);
  o.max_mutants = 3;
  o.selection.only = {"tag:pid"};
  o.selection.supports = {"memtrace-v1", "memtrace-v2"};
  auto s = Fuzz(o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->seeds, 4u);  // v1 and v2 pid_change and pid_change_writer_stops
  EXPECT_GT(s->seeds_left_out, 100u);
  ASSERT_FALSE(s->classes.empty());
  std::ifstream txt(out + "/divergence-1.txt");
  std::stringstream text;
  text << txt.rdbuf();
  EXPECT_NE(text.str().find("--only 'tag:pid' --supports 'memtrace-v1' --supports 'memtrace-v2'"),
            std::string::npos)
      << text.str();
}

}  // namespace
}  // namespace mpo::corpus::fuzz
