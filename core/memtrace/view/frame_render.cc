#include "core/memtrace/view/frame_render.h"

#include "core/base/json_text.h"

namespace mpo::memtrace::view {

FrameRef RefOf(const Location& l) {
  return FrameRef{l.filename, l.defname, l.line, l.start_char, l.end_char};
}

FrameRef RefOf(const CompactFrame& f, const StringInterner& strings) {
  return FrameRef{strings.Get(f.filename), strings.Get(f.defname), f.line, f.start_char,
                  f.end_char};
}

void AppendFrameText(std::string& out, const FrameRef& f) {
  AppendLocationText(out, f.defname, f.filename, f.line, f.start_char, f.end_char);
}

void AppendFrameJson(std::string& out, const FrameRef& f) {
  out += "{\"filename\":";
  json_text::AppendString(out, f.filename);
  out += ",\"line\":";
  json_text::AppendInt(out, f.line);
  out += ",\"start_char\":";
  json_text::AppendInt(out, f.start_char);
  out += ",\"end_char\":";
  json_text::AppendInt(out, f.end_char);
  out += ",\"defname\":";
  json_text::AppendString(out, f.defname);
  out += '}';
}

}  // namespace mpo::memtrace::view
