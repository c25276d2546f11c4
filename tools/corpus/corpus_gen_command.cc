#include "tools/corpus/corpus_gen_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "core/corpus/corpus.h"
#include "tools/exit_code.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

struct GenOptions {
  std::string dir;
};

void RunGen(const GenOptions& o) {
  Progress progress("corpus gen", "cases", 0);
  auto s = corpus::Generate(o.dir, [&](std::size_t n) { progress.Update(n, true); });
  if (!s.ok()) return ReportError("corpus gen " + o.dir, s.status());
  std::printf("corpus written to %s: %zu cases (%zu memtrace, %zu ring, %zu sampler), %llu bytes\n",
              o.dir.c_str(), s->memtrace + s->ring + s->sampler, s->memtrace, s->ring, s->sampler,
              static_cast<unsigned long long>(s->bytes));
}

}  // namespace

void AddCorpusGenCommand(CLI::App& corpus) {
  auto o = std::make_shared<GenOptions>();
  CLI::App* gen = corpus.add_subcommand(
      "gen",
      "Write the conformance corpus (deterministic). Each file is written beside its "
      "target and renamed into place; a symlink in the corpus is replaced, never followed.");
  gen->add_option("dir", o->dir, "output directory")->required();
  gen->callback([o] { RunGen(*o); });
}

}  // namespace mpo::tools
