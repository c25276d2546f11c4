// corpus add: a fresh corpus, an existing one, replacing its own case, refusals that
// leave everything as it was.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/manifest.h"
#include "gtest/gtest.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path TmpDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  const fs::path p = fs::path(t ? t : "/tmp") / ("corpus_add_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void Put(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string Request(int count) {
  return R"({"seed":7,"lambda":0.25,"mode":"geometric","count":)" + std::to_string(count) + "}";
}

std::string Reference(const fs::path& file) {
  StringTextSink out;
  EXPECT_TRUE(DecodeFile(file.string(), DecodeForm::kJsonLines, out).ok()) << file;
  return out.text;
}

const ManifestCase* Find(const std::vector<ManifestCase>& cases, const std::string& name) {
  for (const ManifestCase& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

bool HasTag(const ManifestCase& c, const std::string& tag) {
  return std::find(c.tags.begin(), c.tags.end(), tag) != c.tags.end();
}

TEST(CorpusAdd, CreatesACorpusWithExpectedStreamsAndUserTags) {
  const fs::path in = TmpDir("fresh_in"), dir = TmpDir("fresh") / "corpus";
  Put(in / "draws.sampler.json", Request(4));
  Put(in / "broken_trace.ctf", "not a trace at all");
  auto added =
      Add(dir.string(), {(in / "draws.sampler.json").string(), (in / "broken_trace.ctf").string()});
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  ASSERT_EQ(added->size(), 2u);
  EXPECT_EQ((*added)[0].name, "sampler/user_draws");
  EXPECT_FALSE((*added)[0].replaced);
  EXPECT_FALSE((*added)[0].expects_error);
  EXPECT_EQ((*added)[1].name, "memtrace/user_broken_trace");
  EXPECT_TRUE((*added)[1].expects_error);  // a rejected file is a case too

  auto cases = ParseManifest(Slurp(dir / "MANIFEST.json"));
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();
  ASSERT_EQ(cases->size(), 2u);
  const ManifestCase* s = Find(*cases, "sampler/user_draws");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->file, "sampler/user_draws.sampler.json");
  EXPECT_EQ(Slurp(dir / s->file), Request(4));
  EXPECT_EQ(Slurp(dir / s->expected_jsonl), Reference(dir / s->file));
  EXPECT_TRUE(fs::is_regular_file(dir / (s->file + ".expected.txt")));
  EXPECT_EQ(s->tags.front(), "sampler");
  EXPECT_TRUE(HasTag(*s, "accepted"));
  EXPECT_TRUE(HasTag(*s, "user"));
  const ManifestCase* m = Find(*cases, "memtrace/user_broken_trace");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(HasTag(*m, "rejected"));
  EXPECT_TRUE(HasTag(*m, "user"));
  const std::string stream = Slurp(dir / m->expected_jsonl);
  EXPECT_NE(stream.find("\"kind\":\"end_of_stream\",\"error\":{"), std::string::npos) << stream;
}

TEST(CorpusAdd, KeepsTheCasesOfAnExistingCorpusAndReplacesOnlyItsOwn) {
  const fs::path in = TmpDir("existing_in"), dir = TmpDir("existing");
  const json generated{{"name", "sampler/gen_draws"},
                       {"kind", "sampler"},
                       {"file", "sampler/gen_draws.sampler.json"},
                       {"expected_jsonl", "sampler/gen_draws.sampler.json.expected.jsonl"},
                       {"tags", {"sampler", "accepted"}}};
  Put(dir / "MANIFEST.json",
      json{{"schema", 2}, {"generator", "memprof-oracle corpus gen"}, {"cases", {generated}}}
          .dump());
  Put(in / "draws.sampler.json", Request(2));
  auto first = Add(dir.string(), {(in / "draws.sampler.json").string()});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_FALSE((*first)[0].replaced);

  Put(in / "draws.sampler.json", Request(5));
  auto again = Add(dir.string(), {(in / "draws.sampler.json").string()});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ASSERT_EQ(again->size(), 1u);
  EXPECT_TRUE((*again)[0].replaced);

  const json m = json::parse(Slurp(dir / "MANIFEST.json"));
  EXPECT_EQ(m["generator"], "memprof-oracle corpus gen");
  ASSERT_EQ(m["cases"].size(), 2u);
  EXPECT_EQ(m["cases"][0], generated);  // untouched, in its place
  EXPECT_EQ(m["cases"][1]["name"], "sampler/user_draws");
  EXPECT_EQ(Slurp(dir / "sampler/user_draws.sampler.json"), Request(5));
  EXPECT_EQ(Slurp(dir / "sampler/user_draws.sampler.json.expected.jsonl"),
            Reference(dir / "sampler/user_draws.sampler.json"));
}

TEST(CorpusAdd, RefusesBadFilesAndWritesNothing) {
  const fs::path in = TmpDir("refuse_in"), dir = TmpDir("refuse");
  Put(in / "good.sampler.json", Request(1));
  ASSERT_TRUE(Add(dir.string(), {(in / "good.sampler.json").string()}).ok());
  const std::string before = Slurp(dir / "MANIFEST.json");
  Put(in / "notes.txt", "hello");
  Put(in / "ring.events", std::string(64, '\0'));
  Put(in / "ring.ocaml-9.9.events", std::string(64, '\0'));
  fs::create_directories(in / "folder.ctf");
  Put(in / "other.sampler.json", Request(3));
  struct Bad {
    std::string file;
    ErrorCode code;
  };
  for (const Bad& b : std::vector<Bad>{{"notes.txt", ErrorCode::kInvalidArgument},
                                       {"ring.events", ErrorCode::kInvalidArgument},
                                       {"ring.ocaml-9.9.events", ErrorCode::kInvalidArgument},
                                       {"folder.ctf", ErrorCode::kIo},
                                       {"missing.ctf", ErrorCode::kIo}}) {
    // The good file comes first: all or nothing, so it is not added either.
    auto r = Add(dir.string(), {(in / "other.sampler.json").string(), (in / b.file).string()});
    ASSERT_FALSE(r.ok()) << b.file;
    EXPECT_EQ(r.status().code(), b.code) << b.file << ": " << r.status().ToString();
    EXPECT_NE(r.status().ToString().find(b.file), std::string::npos) << r.status().ToString();
    EXPECT_EQ(Slurp(dir / "MANIFEST.json"), before) << b.file;
    EXPECT_FALSE(fs::exists(dir / "sampler/user_other.sampler.json")) << b.file;
  }
  // A case of that name that corpus add did not make is never replaced.
  json m = json::parse(before);
  m["cases"][0]["tags"] = {"sampler", "accepted"};
  Put(dir / "MANIFEST.json", m.dump());
  auto r = Add(dir.string(), {(in / "good.sampler.json").string()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(Slurp(dir / "MANIFEST.json"), m.dump());
  // Nor is a malformed manifest overwritten.
  Put(dir / "MANIFEST.json", "{\"schema\":2,\"cases\":{}}");
  EXPECT_EQ(Add(dir.string(), {(in / "good.sampler.json").string()}).status().code(),
            ErrorCode::kCorrupt);
  EXPECT_EQ(Slurp(dir / "MANIFEST.json"), "{\"schema\":2,\"cases\":{}}");
}

}  // namespace
}  // namespace mpo::corpus
