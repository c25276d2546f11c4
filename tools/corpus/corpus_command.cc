#include "tools/corpus/corpus_command.h"

#include "tools/corpus/corpus_add_command.h"
#include "tools/corpus/corpus_check_command.h"
#include "tools/corpus/corpus_decode_command.h"
#include "tools/corpus/corpus_fuzz_command.h"
#include "tools/corpus/corpus_gen_command.h"
#include "tools/corpus/corpus_matrix_command.h"

namespace mpo::tools {

void AddCorpusCommands(CLI::App& app) {
  CLI::App* c = app.add_subcommand(
      "corpus",
      "Conformance kit: generate the corpus, add your own files, check another decoder "
      "against it");
  c->require_subcommand(1);

  AddCorpusGenCommand(*c);
  AddCorpusAddCommand(*c);
  AddCorpusCheckCommand(*c);
  AddCorpusDecodeCommand(*c);
  AddCorpusFuzzCommand(c);
  AddCorpusMatrixCommand(*c);
}

}  // namespace mpo::tools
