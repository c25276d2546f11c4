// Ring cases: the one ring view (what `events dump --json` prints) or OCaml's golden
// consumer lines, each from one poll of a fresh cursor: the file has no live producer.
#include "core/corpus/decode.h"
#include "core/ring/cursor.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/json_view.h"

namespace mpo::corpus {
namespace {

Status GoldenText(std::span<const std::byte> file, ring::OcamlVersion version,
                  const ring::CursorOptions& options, TextSink& out) {
  auto cursor = ring::Cursor::FromBytes(file, options);
  if (!cursor.ok()) return cursor.status();
  ring::GoldenLineWriter text(version);
  auto polled = cursor->ReadPoll(text);
  out.Write(text.TakeText());
  if (!polled.ok()) return polled.status();
  return text.error();
}

}  // namespace

Status DecodeRing(std::span<const std::uint8_t> bytes, ring::OcamlVersion version, DecodeForm form,
                  TextSink& out, Verdicts verdicts) {
  const auto file = std::as_bytes(bytes);
  ring::CursorOptions options;
  options.rules = RulesOf(verdicts).ring;
  if (form == DecodeForm::kJsonLines) return ring::view::WriteJsonView(file, version, out, options);
  Status s = GoldenText(file, version, options, out);
  if (!s.ok()) out.Write("error: " + s.ToString() + "\n");
  return s;
}

}  // namespace mpo::corpus
