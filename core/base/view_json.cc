#include "core/base/view_json.h"

#include "core/base/json_text.h"

namespace mpo::view_json {

void AppendError(std::string& out, const Status& s) {
  out += "{\"code\":";
  json_text::AppendString(out, ErrorCodeName(s.code()));
  out += ",\"check\":";
  json_text::AppendString(out, s.field());
  out += ",\"offset\":";
  if (s.byte_offset()) {
    json_text::AppendUint(out, *s.byte_offset());
  } else {
    out += "null";
  }
  if (s.bit_offset()) {
    out += ",\"bit\":";
    json_text::AppendUint(out, *s.bit_offset());
  }
  out += '}';
}

void AppendEndLine(std::string& out, const Status& s, std::uint64_t records) {
  out += "{\"kind\":\"end_of_stream\",\"error\":";
  if (s.ok()) {
    out += "null";
  } else {
    AppendError(out, s);
  }
  out += ",\"records\":";
  json_text::AppendUint(out, records);
  out += "}\n";
}

}  // namespace mpo::view_json
