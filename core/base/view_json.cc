#include "core/base/view_json.h"

namespace mpo::view_json {

void BeginHeader(JsonWriter& w, std::string_view format) {
  w.BeginObject();
  w.Key("schema");
  w.Int(kViewSchema);
  w.Key("format");
  w.Name(format);
}

void WriteError(JsonWriter& w, const Status& s) {
  w.BeginObject();
  w.Key("code");
  w.String(ErrorCodeName(s.code()));
  w.Key("check");
  w.String(s.field());
  w.Key("offset");
  if (s.byte_offset()) {
    w.Uint(*s.byte_offset());
  } else {
    w.Null();
  }
  if (s.bit_offset()) {
    w.Key("bit");
    w.Uint(*s.bit_offset());
  }
  w.EndObject();
}

void AppendError(std::string& out, const Status& s) {
  JsonWriter w(out);
  WriteError(w, s);
}

void WriteEndLine(JsonWriter& w, const Status& s, std::uint64_t records) {
  w.BeginObject();
  w.Key("kind");
  w.Name("end_of_stream");
  w.Key("error");
  if (s.ok()) {
    w.Null();
  } else {
    WriteError(w, s);
  }
  w.Key("records");
  w.Uint(records);
  w.EndObject();
  w.EndLine();
}

void AppendEndLine(std::string& out, const Status& s, std::uint64_t records) {
  JsonWriter w(out);
  WriteEndLine(w, s, records);
}

}  // namespace mpo::view_json
