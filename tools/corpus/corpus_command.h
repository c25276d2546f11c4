// `memprof-oracle corpus ...`, the conformance kit. One file per subcommand:
//   corpus gen DIR                         corpus_gen_command.h
//   corpus add DIR FILES...                corpus_add_command.h
//   corpus check DIR --impl 'CMD {file}'   corpus_check_command.h
//   corpus decode FILE                     corpus_decode_command.h (the reference decoder,
//                                          usable as an --impl)
//   corpus fuzz                            corpus_fuzz_command.h
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddCorpusCommands(CLI::App& app);

}  // namespace mpo::tools
