#include "core/ring/view/json_view.h"

#include "core/base/json_text.h"
#include "core/base/view_json.h"
#include "core/ring/view/event_decoder.h"

namespace mpo::ring::view {
namespace {

// Lines are gathered and handed to the sink in chunks of about this size: one virtual
// call and one fwrite per chunk instead of per event.
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

// Opens a record: {"kind":"K","ring":R then, for every kind with one, ,"ts":NS.
void AppendPrefix(std::string& out, const RingEvent& e) {
  out += R"({"kind":")";
  out += KindName(e.kind);
  out += R"(","ring":)";
  json_text::AppendUint(out, e.ring);
  if (e.kind == EventKind::kLostEvents) return;
  out += R"(,"ts":)";
  json_text::AppendUint(out, e.ts);
}

void AppendIdAndName(std::string& out, const RingEvent& e) {
  out += R"(,"id":)";
  json_text::AppendUint(out, e.id);
  out += R"(,"name":)";
  json_text::AppendString(out, e.name);
}

class JsonLinesWriter final : public EventDecoder {
 public:
  JsonLinesWriter(OcamlVersion version, TextSink& out)
      : EventDecoder(version, OnMalformedPayload::kStop), out_(out) {
    AppendJsonHeader(buffer_, version);
  }

  // The trailer, then everything still buffered.
  void Finish(const Status& status) {
    view_json::AppendEndLine(buffer_, status, delivered());
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
  out += R"({"schema":2,"format":"ring","ocaml_version":)";
  json_text::AppendString(out, OcamlVersionName(version));
  out += "}\n";
}

void AppendJsonRecord(std::string& out, const RingEvent& e) {
  AppendPrefix(out, e);
  switch (e.kind) {
    case EventKind::kBegin:
    case EventKind::kEnd:
    case EventKind::kUserUnit:
    case EventKind::kUserSpanBegin:
    case EventKind::kUserSpanEnd: AppendIdAndName(out, e); break;
    case EventKind::kCounter:
      AppendIdAndName(out, e);
      out += R"(,"value":)";
      json_text::AppendUint(out, e.value);
      break;
    case EventKind::kAlloc: {
      out += R"(,"buckets":[)";
      bool first = true;
      for (const std::uint64_t b : e.buckets) {
        if (!first) out += ',';
        first = false;
        json_text::AppendUint(out, b);
      }
      out += ']';
      break;
    }
    case EventKind::kLifecycle:
      AppendIdAndName(out, e);
      out += R"(,"data":)";
      json_text::AppendInt(out, e.data);
      break;
    case EventKind::kLostEvents:
      // Signed: OCaml 5.3 reports lost words through a C int (CursorOptions::verdicts).
      out += R"(,"words":)";
      json_text::AppendInt(out, static_cast<std::int64_t>(e.value));
      break;
    case EventKind::kUserInt:
      AppendIdAndName(out, e);
      out += R"(,"value":)";
      json_text::AppendInt(out, e.OcamlInt());
      break;
    case EventKind::kUserCustom:
      AppendIdAndName(out, e);
      out += R"(,"payload_hex":")";
      json_text::AppendHexBytes(out, e.payload);
      out += '"';
      break;
  }
  out += "}\n";
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
