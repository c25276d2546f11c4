#include "tools/export/folded_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "core/export/folded.h"
#include "core/memtrace/byte_io.h"
#include "tools/exit_code.h"

namespace mpo::tools {
namespace {

struct FoldedOptions {
  std::string file;
  std::string by = "samples";
};

void RunFolded(const FoldedOptions& o) {
  auto src = memtrace::OpenFileSource(o.file);
  if (!src.ok()) return ReportError("memtrace folded", src.status());
  const auto weight =
      o.by == "words" ? exporter::FoldedWeight::kWords : exporter::FoldedWeight::kSamples;
  auto text = exporter::FoldedStacks(std::move(*src), weight);
  if (!text.ok()) return ReportError("memtrace folded " + o.file, text.status());
  std::fwrite(text->data(), 1, text->size(), stdout);
}

}  // namespace

void AddMemtraceFoldedCommand(CLI::App& app) {
  CLI::App* mt = app.get_subcommand("memtrace");  // throws if the group is missing
  auto o = std::make_shared<FoldedOptions>();
  CLI::App* f =
      mt->add_subcommand("folded", "Folded stacks (caller first) for flamegraph.pl and speedscope");
  f->add_option("file", o->file, "trace file")->required();
  f->add_option("--by", o->by, "count samples (default) or sampled words")
      ->check(CLI::IsMember({"samples", "words"}));
  f->callback([o] { RunFolded(*o); });
}

}  // namespace mpo::tools
