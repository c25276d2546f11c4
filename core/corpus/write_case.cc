#include "core/corpus/write_case.h"

#include <vector>

#include "core/base/text_sink.h"
#include "core/corpus/decode.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/tags.h"
#include "core/io/output_file.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::string_view kUserPrefix = "user_";

// The reference decode of a case file in `form`, with `verdicts`' verdict.
Result<std::string> Decode(const fs::path& file, DecodeForm form,
                           Verdicts verdicts = Verdicts::kStrict) {
  StringTextSink out;
  auto decoded = DecodeFile(file.string(), form, out, verdicts);
  if (!decoded.ok()) return decoded.status();
  return std::move(out.text);
}

std::vector<std::string> Tags(const CaseToWrite& c, const std::string& rel,
                              const ExpectedStream& stream) {
  std::string_view name = c.name;
  if (c.user && name.substr(0, kUserPrefix.size()) == kUserPrefix)
    name.remove_prefix(kUserPrefix.size());
  std::vector<std::string> tags = DeriveTags(std::string(c.kind) + "/" + std::string(name), rel,
                                             stream.expects_error, !c.declared.empty());
  if (!c.user) return tags;
  // A recording's name does not say its version; its header does (when it could be read).
  if (c.kind == "memtrace" && VersionTag(tags).empty() && stream.size() != 0) {
    const json& header = stream.front();
    const auto info = header.find("info");
    if (info != header.end() && info->is_object()) {
      const auto v = info->find("version");
      if (v != info->end() && v->is_number_integer()) {
        const std::int64_t n = v->get<std::int64_t>();
        if (n >= 1 && n <= 3) tags.insert(tags.begin() + 1, "v" + std::to_string(n));
      }
    }
  }
  tags.emplace_back("user");
  return tags;
}

}  // namespace

Status MakeCorpusDirectory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const auto st = fs::symlink_status(dir, ec);
  if (ec || st.type() != fs::file_type::directory)
    return Status(ErrorCode::kIo, ec ? "cannot create: " + ec.message()
                                     : "is not a directory (a symlink is refused)")
        .WithField(dir.string());
  return Status::Ok();
}

Status WriteFileAtomically(const fs::path& path, std::string_view bytes) {
  auto out = io::AtomicOutput::Create(path.string());
  if (!out.ok()) return out.status();
  MPO_RETURN_IF_ERROR(out->Write(bytes));
  return out->Commit();
}

Result<json> WriteCase(const fs::path& root, const CaseToWrite& c, std::uint64_t& written) {
  const std::string kind(c.kind), name = kind + "/" + std::string(c.name);
  const fs::path file = root / kind / c.file_name;
  MPO_RETURN_IF_ERROR(WriteFileAtomically(file, c.bytes));
  auto jsonl = Decode(file, DecodeForm::kJsonLines);
  if (!jsonl.ok()) return Status(jsonl.status()).WithField("case " + name);
  // The corpus is only as good as its expectations: a reference stream that another
  // decoder could not be held against is a bug here, not a case.
  auto stream = ParseExpectedStream(*jsonl);
  if (!stream.ok())
    return Status(ErrorCode::kInternal,
                  "the reference decode is not a complete stream: " + stream.status().message())
        .WithField("case " + name);
  auto text = Decode(file, DecodeForm::kText);
  if (!text.ok()) return Status(text.status()).WithField("case " + name);
  MPO_RETURN_IF_ERROR(WriteFileAtomically(file.string() + ".expected.jsonl", *jsonl));
  MPO_RETURN_IF_ERROR(WriteFileAtomically(file.string() + ".expected.txt", *text));
  written += c.bytes.size() + jsonl->size() + text->size();
  const std::string rel = kind + "/" + std::string(c.file_name);
  json entry{{"name", name},
             {"kind", kind},
             {"file", rel},
             {"expected_jsonl", rel + ".expected.jsonl"},
             {"expected_text", rel + ".expected.txt"},
             {"expects_error", stream->expects_error},
             {"note", c.note},
             {"tags", Tags(c, rel, *stream)}};
  // Each reference mode's verdict, where it differs from the strict one.
  auto case_kind = KindOfPath(file.string());
  if (!case_kind.ok()) return Status(case_kind.status()).WithField("case " + name);
  json expected_as = json::object();
  for (Verdicts mode : AllVerdicts()) {
    if (mode == Verdicts::kStrict || !VerdictsJudge(mode, FormatOfKind(*case_kind))) continue;
    auto as = Decode(file, DecodeForm::kJsonLines, mode);
    if (!as.ok()) return Status(as.status()).WithField("case " + name);
    if (*as == *jsonl) continue;
    if (auto parsed = ParseExpectedStream(*as); !parsed.ok())
      return Status(ErrorCode::kInternal,
                    "the " + std::string(VerdictsName(mode)) +
                        " decode is not a complete stream: " + parsed.status().message())
          .WithField("case " + name);
    const std::string suffix = ".expected." + std::string(VerdictsName(mode)) + ".jsonl";
    MPO_RETURN_IF_ERROR(WriteFileAtomically(file.string() + suffix, *as));
    written += as->size();
    expected_as[std::string(VerdictsName(mode))] = rel + suffix;
  }
  if (!expected_as.empty()) entry["expected_as"] = std::move(expected_as);
  if (!c.declared.empty()) {
    json declared = json::object();
    for (const DeclaredDifference& d : c.declared)
      declared[std::string(VerdictsName(d.mode))] = {{"reference", d.reference}, {"why", d.why}};
    entry["declared"] = std::move(declared);
  }
  return entry;
}

}  // namespace mpo::corpus
