#include "core/memtrace/view/frame_render.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::memtrace::view {
namespace {

TEST(FrameRender, TextIsMemtracesLocationToString) {
  const Location l{"lib/a.ml", 42, 3, 17, "A.f"};
  std::string text;
  AppendFrameText(text, RefOf(l));
  EXPECT_EQ(text, "A.f@lib/a.ml:42:3-17");
  EXPECT_EQ(LocationToString(l), text);
  EXPECT_EQ(LocationToString(UnknownLocation()), "??@<unknown>:1:1-1");
}

TEST(FrameRender, CompactFramesRenderLikeMaterialisedOnes) {
  StringInterner strings;
  const CompactFrame f{strings.Intern("b.ml"), strings.Intern("B.g"), 7, 0, 1023};
  const Location l = Materialize(f, strings);
  std::string from_compact, from_location;
  AppendFrameText(from_compact, RefOf(f, strings));
  AppendFrameText(from_location, RefOf(l));
  EXPECT_EQ(from_compact, "B.g@b.ml:7:0-1023");
  EXPECT_EQ(from_compact, from_location);
  std::string json_compact, json_location;
  JsonWriter compact(json_compact);
  WriteFrameJson(compact, RefOf(f, strings));
  JsonWriter location(json_location);
  WriteFrameJson(location, RefOf(l));
  EXPECT_EQ(json_compact, json_location);
}

TEST(FrameRender, JsonMembersInSchemaOrder) {
  std::string json;
  JsonWriter w(json);
  WriteFrameJson(w, RefOf(Location{"a \"q\".ml", 1, 2, 3, "M.f\n"}));
  EXPECT_EQ(json,
            "{\"filename\":\"a \\\"q\\\".ml\",\"line\":1,\"start_char\":2,\"end_char\":3,"
            "\"defname\":\"M.f\\n\"}");
}

// A name that is not UTF-8 is marked and kept byte for byte, never re-encoded.
TEST(FrameRender, NonUtf8NamesAreHexObjects) {
  std::string json;
  JsonWriter w(json);
  WriteFrameJson(w, RefOf(Location{"caf\xe9.ml", 1, 0, 0, "\xff"}));
  EXPECT_EQ(json,
            "{\"filename\":{\"hex\":\"636166e92e6d6c\"},\"line\":1,\"start_char\":0,"
            "\"end_char\":0,\"defname\":{\"hex\":\"ff\"}}");
  std::string text;
  AppendFrameText(text, RefOf(Location{"caf\xe9.ml", 1, 0, 0, "f"}));
  EXPECT_EQ(text, "f@caf\xe9.ml:1:0-0");
}

}  // namespace
}  // namespace mpo::memtrace::view
