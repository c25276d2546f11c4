#include "tools/export/folded_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "core/export/folded.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/text_dump.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"

namespace mpo::tools {
namespace {

struct FoldedOptions {
  std::string file;
  std::string by = "samples";
  memtrace::Limits limits;
};

void RunFolded(const FoldedOptions& o) {
  auto src = memtrace::OpenFileSource(o.file);
  if (!src.ok()) return ReportError("memtrace folded", src.status());
  const auto weight =
      o.by == "words" ? exporter::FoldedWeight::kWords : exporter::FoldedWeight::kSamples;
  memtrace::FileTextSink out(stdout);
  const Status s = exporter::WriteFoldedStacks(**src, weight, out, o.limits);
  if (!s.ok()) return ReportError("memtrace folded " + o.file, s);
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
  AddLimitOptions(f, &o->limits);
  f->callback([o] { RunFolded(*o); });
}

}  // namespace mpo::tools
