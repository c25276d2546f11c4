#include "core/memtrace/view/frame_render.h"

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

void WriteFrameJson(JsonWriter& w, const FrameRef& f) {
  w.BeginObject();
  w.Key("filename");
  w.String(f.filename);
  w.Key("line");
  w.Int(f.line);
  w.Key("start_char");
  w.Int(f.start_char);
  w.Key("end_char");
  w.Int(f.end_char);
  w.Key("defname");
  w.String(f.defname);
  w.EndObject();
}

}  // namespace mpo::memtrace::view
