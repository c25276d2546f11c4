#include "core/ring/view/json_view.h"

#include "core/base/json_writer.h"
#include "core/base/view_json.h"
#include "core/ring/view/event_decoder.h"

namespace mpo::ring::view {
namespace {

// Lines are gathered and handed to the sink in chunks of about this size: one virtual
// call and one fwrite per chunk instead of per event.
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

// Opens a record: {"kind":"K","ring":R then, for every kind with one, ,"ts":NS.
void WritePrefix(JsonWriter& w, const RingEvent& e) {
  w.BeginObject();
  w.Key("kind");
  w.Name(KindName(e.kind));
  w.Key("ring");
  w.Uint(e.ring);
  if (e.kind == EventKind::kLostEvents) return;
  w.Key("ts");
  w.Uint(e.ts);
}

void WriteIdAndName(JsonWriter& w, const RingEvent& e) {
  w.Key("id");
  w.Uint(e.id);
  w.Key("name");
  w.String(e.name);
}

class JsonLinesWriter final : public EventDecoder {
 public:
  JsonLinesWriter(OcamlVersion version, TextSink& out)
      : EventDecoder(version, OnMalformedPayload::kStop), out_(out) {
    AppendJsonHeader(buffer_, version);
  }

  // The trailer, then everything still buffered.
  void Finish(const Status& status) {
    JsonWriter w(buffer_);
    view_json::WriteEndLine(w, status, delivered());
    Flush();
  }

 private:
  bool OnEvent(const RingEvent& e) override {
    AppendJsonRecord(buffer_, e);
    if (buffer_.size() >= kFlushBytes) Flush();
    return true;
  }
  void Flush() {
    out_.Write(buffer_);
    buffer_.clear();
  }
  TextSink& out_;
  std::string buffer_;
};

// Polls until a poll delivers nothing: one poll reads a file with no live producer
// entirely, so for a file this is one poll and a second that finds nothing.
Status PollAll(Cursor& cursor, JsonLinesWriter& writer) {
  while (true) {
    const std::uint64_t before = writer.delivered();
    auto polled = cursor.ReadPoll(writer);
    if (!polled.ok()) return polled.status();
    if (!writer.error().ok()) return writer.error();
    if (writer.delivered() == before) return Status::Ok();
  }
}

}  // namespace

void AppendJsonHeader(std::string& out, OcamlVersion version) {
  JsonWriter w(out);
  view_json::BeginHeader(w, "ring");
  w.Key("ocaml_version");
  w.String(OcamlVersionName(version));
  w.EndObject();
  w.EndLine();
}

void AppendJsonRecord(std::string& out, const RingEvent& e) {
  JsonWriter w(out);
  WritePrefix(w, e);
  switch (e.kind) {
    case EventKind::kBegin:
    case EventKind::kEnd:
    case EventKind::kUserUnit:
    case EventKind::kUserSpanBegin:
    case EventKind::kUserSpanEnd: WriteIdAndName(w, e); break;
    case EventKind::kCounter:
      WriteIdAndName(w, e);
      w.Key("value");
      w.Uint(e.value);
      break;
    case EventKind::kAlloc:
      w.Key("buckets");
      w.BeginArray();
      for (const std::uint64_t b : e.buckets) w.Uint(b);
      w.EndArray();
      break;
    case EventKind::kLifecycle:
      WriteIdAndName(w, e);
      w.Key("data");
      w.Int(e.data);
      break;
    case EventKind::kLostEvents:
      // Signed: OCaml 5.3 reports lost words through a C int (CursorOptions::verdicts).
      w.Key("words");
      w.Int(static_cast<std::int64_t>(e.value));
      break;
    case EventKind::kUserInt:
      WriteIdAndName(w, e);
      w.Key("value");
      w.Int(e.OcamlInt());
      break;
    case EventKind::kUserCustom:
      WriteIdAndName(w, e);
      w.Key("payload_hex");
      w.HexString(e.payload);
      break;
  }
  w.EndObject();
  w.EndLine();
}

Status WriteJsonView(Result<Cursor>& opened, OcamlVersion version, TextSink& out) {
  JsonLinesWriter writer(version, out);
  Status status = opened.ok() ? PollAll(*opened, writer) : opened.status();
  writer.Finish(status);
  return status;
}

Status WriteJsonView(std::span<const std::byte> file, OcamlVersion version, TextSink& out,
                     const CursorOptions& options) {
  auto cursor = Cursor::FromBytes(file, options);
  return WriteJsonView(cursor, version, out);
}

}  // namespace mpo::ring::view
