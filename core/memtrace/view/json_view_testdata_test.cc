// The JSON view of every real trace in ../shared/testdata/memtrace (v1, v2 and v3,
// written by OCaml 4.13/5.3 and memtrace 0.2.3/HEAD): every line is JSON; the header
// carries the trace's version; each location record comes once, just before the first
// event that uses its code, so every backtrace resolves from what was already read; the
// events are the reader's; the trailer counts the records and carries the reader's error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/json_view.h"
#include "testing/shared_testdata.h"

namespace mpo::memtrace::view {
namespace {

using nlohmann::json;

std::string Hex(OcamlInt code) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(OcamlUnsigned(code)));
  return buf;
}

void CheckTrace(const std::string& path, std::set<int>* versions) {
  SCOPED_TRACE(path);
  auto file = OpenFileSource(path);
  ASSERT_TRUE(file.ok());
  StringTextSink out;
  const Status status = WriteJsonView(**file, out);

  // The reader's own account of the trace.
  auto reader = TraceReader::OpenFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<std::vector<std::string>> backtraces;
  while (const Event* e = (*reader)->NextEvent()) {
    backtraces.emplace_back();
    for (OcamlInt code : e->backtrace) backtraces.back().push_back(Hex(code));
  }
  versions->insert((*reader)->version());

  std::vector<json> lines;
  std::istringstream in(out.text);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(j.is_discarded()) << line;
    lines.push_back(std::move(j));
  }
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0]["schema"], 2);
  EXPECT_EQ(lines[0]["format"], "memtrace");
  EXPECT_EQ(lines[0]["info"]["version"], (*reader)->version());
  const json& end = lines.back();
  EXPECT_EQ(end["kind"], "end_of_stream");
  EXPECT_EQ(end["records"], lines.size() - 2);
  if ((*reader)->status().ok()) {
    EXPECT_TRUE(status.ok()) << status.ToString();
    EXPECT_TRUE(end["error"].is_null());
  } else {
    EXPECT_EQ(end["error"]["check"], (*reader)->status().field());
  }

  std::set<std::string> defined;
  std::vector<std::string> pending;  // location records not yet followed by their event
  std::size_t events = 0;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    const json& r = lines[i];
    const std::string kind = r["kind"];
    if (kind == "location") {
      EXPECT_TRUE(defined.insert(r["code"]).second) << "location twice: " << r["code"];
      pending.push_back(r["code"]);
      continue;
    }
    if (kind == "skipped_packet") continue;
    ASSERT_LT(events, backtraces.size());
    const std::vector<std::string>& want = backtraces[events++];
    if (kind != "alloc") {
      EXPECT_TRUE(pending.empty());
      continue;
    }
    EXPECT_EQ(r["backtrace"].get<std::vector<std::string>>(), want);
    for (const std::string& code : want) EXPECT_TRUE(defined.contains(code)) << code;
    // Each pending code is used by this event (it is its first use).
    for (const std::string& code : pending)
      EXPECT_NE(std::find(want.begin(), want.end(), code), want.end()) << code;
    pending.clear();
  }
  EXPECT_EQ(events, backtraces.size());
}

TEST(JsonViewTestdata, EveryRealTrace) {
  MPO_REQUIRE_SHARED_TESTDATA(dir);
  std::set<int> versions;
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/memtrace")) {
    if (entry.path().extension() != ".ctf") continue;
    // The 2 MB trace (180 k records) would take minutes in an unoptimised build; its
    // version (v1) is covered by examples-lists_and_sets.
    if (entry.file_size() > (1u << 20)) continue;
    CheckTrace(entry.path().string(), &versions);
    ++traces;
  }
  EXPECT_GE(traces, 10);
  EXPECT_EQ(versions, (std::set<int>{1, 2, 3}));
}

}  // namespace
}  // namespace mpo::memtrace::view
