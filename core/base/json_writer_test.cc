#include "core/base/json_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace mpo {
namespace {

TEST(JsonWriter, PlacesCommasInObjectsAndArrays) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("a");
  w.Uint(1);
  w.Key("b");
  w.BeginArray();
  w.Int(-2);
  w.BeginObject();
  w.EndObject();
  w.BeginArray();
  w.EndArray();
  w.Null();
  w.EndArray();
  w.Key("c");
  w.Bool(true);
  w.Key("d");
  w.Bool(false);
  w.EndObject();
  EXPECT_EQ(out, R"({"a":1,"b":[-2,{},[],null],"c":true,"d":false})");
}

TEST(JsonWriter, LinesStartWithoutComma) {
  std::string out;
  JsonWriter w(out);
  for (int i = 0; i < 2; ++i) {
    w.BeginObject();
    w.Key("kind");
    w.Name("draw");
    w.Key("value");
    w.Int(i);
    w.EndObject();
    w.EndLine();
  }
  EXPECT_EQ(out, "{\"kind\":\"draw\",\"value\":0}\n{\"kind\":\"draw\",\"value\":1}\n");
}

TEST(JsonWriter, ValuesFollowJsonText) {
  std::string out;
  JsonWriter w(out);
  w.BeginArray();
  w.String("a\"b\\c\n");
  w.String("caf\xe9");  // not UTF-8: marked hex
  w.Uint(std::numeric_limits<std::uint64_t>::max());
  w.Int(std::numeric_limits<std::int64_t>::min());
  w.Double(0.1);
  w.Double(std::numeric_limits<double>::infinity());
  w.HexCode(0x1f);
  w.HexString("\x01\xff");
  w.EndArray();
  EXPECT_EQ(out, R"(["a\"b\\c\n",{"hex":"636166e9"},18446744073709551615,-9223372036854775808,)"
                 R"(0.1,null,"1f","01ff"])");
}

TEST(JsonWriter, AppendsToWhatIsThere) {
  std::string out = "prefix ";
  JsonWriter w(out);
  w.BeginObject();
  w.Key("k");
  w.String("");
  w.EndObject();
  EXPECT_EQ(out, R"(prefix {"k":""})");
  EXPECT_EQ(&w.buffer(), &out);
}

TEST(JsonWriter, RawValuesTakeTheirComma) {
  std::string out;
  JsonWriter w(out);
  w.BeginArray();
  w.Raw("");  // nothing, and no comma for it
  w.Raw(R"("a","b")");
  w.Raw(R"("c")");
  w.EndArray();
  EXPECT_EQ(out, R"(["a","b","c"])");
}

// Names from data are escaped as strings are, and take their comma like Key's.
TEST(JsonWriter, DataKeysAreEscaped) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.DataKey("minor");
  w.Uint(1);
  w.DataKey("a\"b");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  EXPECT_EQ(out, R"({"minor":1,"a\"b":{}})");
}

TEST(JsonWriter, ContinuesAList) {
  std::string list = R"("1","2")";
  JsonWriter more(list, /*after_value=*/true);
  more.HexCode(3);
  EXPECT_EQ(list, R"("1","2","3")");
  std::string empty;
  JsonWriter first(empty, /*after_value=*/false);
  first.HexCode(3);
  EXPECT_EQ(empty, R"("3")");
}

}  // namespace
}  // namespace mpo
