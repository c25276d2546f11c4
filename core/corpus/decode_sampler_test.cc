// The sampler view against the published vectors (testdata/sampler), and its stream on
// requests it rejects.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "core/corpus/decode.h"
#include "core/corpus/jsonl_diff.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

// key "seed,lambda" -> the listed column, rows in index order.
std::map<std::string, std::vector<std::string>> Vectors(const std::string& path, int key_cols,
                                                        int value_col) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::map<std::string, std::vector<std::string>> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cols.push_back(c);
    std::string key;
    for (int i = 0; i < key_cols; ++i) key += (i ? "," : "") + cols[i];
    out[key].push_back(cols[value_col]);
  }
  return out;
}

struct Stream {
  Status status;
  std::string text;
  std::vector<json> lines;
};

Stream Decode(const std::string& request, DecodeForm form = DecodeForm::kJsonLines) {
  StringTextSink out;
  Stream s;
  s.status = DecodeSampler(request, form, out);
  s.text = out.text;
  if (form == DecodeForm::kJsonLines) {
    auto parsed = ParseExpectedStream(out.text);
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString() << "\n" << out.text;
    if (parsed.ok())
      for (std::size_t k = 0; k < parsed->size(); ++k) s.lines.push_back(parsed->line(k));
  }
  return s;
}

TEST(SamplerView, GeometricDrawsAreTheVectorFilesFromIndexZero) {
  const auto vectors = Vectors("testdata/sampler/geometric.csv", 2, 3);
  ASSERT_GE(vectors.size(), 6u);
  for (const auto& [key, draws] : vectors) {
    const std::string seed = key.substr(0, key.find(',')), lambda = key.substr(key.find(',') + 1);
    const Stream s = Decode(R"({"seed":)" + seed + R"(,"lambda":)" + lambda +
                            R"(,"mode":"geometric","count":)" + std::to_string(draws.size()) + "}");
    ASSERT_TRUE(s.status.ok()) << key;
    ASSERT_EQ(s.lines.size(), draws.size() + 2) << key;
    for (std::size_t i = 0; i < draws.size(); ++i)
      ASSERT_EQ(s.lines[i + 1].dump(), R"({"kind":"draw","value":)" + draws[i] + "}")
          << key << " index " << i;
  }
}

TEST(SamplerView, BinomialDrawsAreTheVectorFiles) {
  const auto lengths = Vectors("testdata/sampler/binomial.csv", 2, 3);
  const auto samples = Vectors("testdata/sampler/binomial.csv", 2, 4);
  ASSERT_FALSE(lengths.empty());
  for (const auto& [key, lens] : lengths) {
    const std::string seed = key.substr(0, key.find(',')), lambda = key.substr(key.find(',') + 1);
    std::string list;
    for (const std::string& l : lens) list += (list.empty() ? "" : ",") + l;
    const Stream s = Decode(R"({"seed":)" + seed + R"(,"lambda":)" + lambda +
                            R"(,"mode":"binomial","lengths":[)" + list + "]}");
    ASSERT_TRUE(s.status.ok()) << key;
    ASSERT_EQ(s.lines.size(), lens.size() + 2) << key;
    for (std::size_t i = 0; i < lens.size(); ++i)
      ASSERT_EQ(s.lines[i + 1]["value"].dump(), samples.at(key)[i]) << key << " index " << i;
  }
}

TEST(SamplerView, HeaderRecordsAndEndLineAreSchema2) {
  const Stream s = Decode(R"({"seed":18446744073709551615,"lambda":1e-05,"mode":"geometric",)"
                          R"("count":2})");
  ASSERT_TRUE(s.status.ok());
  const std::string header = s.text.substr(0, s.text.find('\n') + 1);
  EXPECT_EQ(header,
            R"({"schema":2,"format":"sampler","mode":"geometric","seed":18446744073709551615,)"
            R"("lambda":1e-05})"
            "\n");
  EXPECT_EQ(s.text.substr(s.text.rfind('{')),
            "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":2}\n");
  // The text form: the same draws, one per line.
  const Stream t = Decode(R"({"seed":18446744073709551615,"lambda":1e-05,"mode":"geometric",)"
                          R"("count":2})",
                          DecodeForm::kText);
  EXPECT_EQ(t.text, s.lines[1]["value"].dump() + "\n" + s.lines[2]["value"].dump() + "\n");
}

TEST(SamplerView, RejectedRequestsAreStreamsEndingWithTheError) {
  struct Bad {
    const char* request;
    const char* check;
    const char* header;  // the members that could be read
  };
  for (const Bad& b : {
           Bad{"not json", "sampler request",
               R"({"schema":2,"format":"sampler","mode":null,"seed":null,"lambda":null})"},
           Bad{R"({"seed":-1,"lambda":0.5,"mode":"geometric","count":1})", "sampler request: seed",
               R"({"schema":2,"format":"sampler","mode":"geometric","seed":null,"lambda":0.5})"},
           Bad{R"({"seed":1,"lambda":2,"mode":"geometric","count":1})", "sampler request: lambda",
               R"({"schema":2,"format":"sampler","mode":"geometric","seed":1,"lambda":2})"},
           Bad{R"({"seed":1,"lambda":0.5,"mode":"poisson"})", "sampler request: mode",
               R"({"schema":2,"format":"sampler","mode":null,"seed":1,"lambda":0.5})"},
           Bad{R"({"seed":1,"lambda":0.5,"mode":"geometric","count":1000001})",
               "sampler request: count",
               R"({"schema":2,"format":"sampler","mode":"geometric","seed":1,"lambda":0.5})"},
           Bad{R"({"seed":1,"lambda":0.5,"mode":"binomial","lengths":[1,"2"]})",
               "sampler request: lengths",
               R"({"schema":2,"format":"sampler","mode":"binomial","seed":1,"lambda":0.5})"},
           Bad{R"({"seed":1,"lambda":0.5,"mode":"binomial","lengths":[300000000]})",
               "sampler request: lengths",
               R"({"schema":2,"format":"sampler","mode":"binomial","seed":1,"lambda":0.5})"},
           Bad{R"({"seed":1,"lambda":1,"mode":"binomial","lengths":[18446744073709551615]})",
               "sampler request: lengths",
               R"({"schema":2,"format":"sampler","mode":"binomial","seed":1,"lambda":1})"},
       }) {
    const Stream s = Decode(b.request);
    EXPECT_FALSE(s.status.ok()) << b.request;
    // Bad input (exit 1), never mistaken for a usage error.
    EXPECT_NE(s.status.code(), ErrorCode::kInvalidArgument) << b.request;
    EXPECT_EQ(s.status.field(), b.check) << b.request;
    ASSERT_EQ(s.lines.size(), 2u) << b.request;
    EXPECT_EQ(s.text.substr(0, s.text.find('\n')), b.header) << b.request;
    EXPECT_EQ(s.lines[1]["error"]["check"], b.check) << b.request;
    EXPECT_EQ(s.lines[1]["records"], 0) << b.request;
    const Stream t = Decode(b.request, DecodeForm::kText);
    EXPECT_EQ(t.text, "error: " + t.status.ToString() + "\n") << b.request;
  }
}

TEST(DecodeFile, NamesOfNoKindOrReleaseWriteNothing) {
  StringTextSink out;
  EXPECT_EQ(DecodeFile("x.bin", DecodeForm::kJsonLines, out).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(DecodeFile("x.events", DecodeForm::kJsonLines, out).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(DecodeFile("x.ocaml-5.9.events", DecodeForm::kJsonLines, out).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(DecodeFile("/nonexistent/x.sampler.json", DecodeForm::kJsonLines, out).status().code(),
            ErrorCode::kIo);
  EXPECT_EQ(out.text, "");
  EXPECT_EQ(*KindOfPath("a/b.ocaml-5.2.events"), CaseKind::kRing);
  EXPECT_EQ(*KindOfPath("b.ctf"), CaseKind::kMemtrace);
  EXPECT_EQ(*KindOfPath("c.sampler.json"), CaseKind::kSampler);
}

}  // namespace
}  // namespace mpo::corpus
