#include "tools/corpus/corpus_add_command.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/corpus/corpus.h"
#include "tools/exit_code.h"

namespace mpo::tools {
namespace {

struct AddOptions {
  std::string dir;
  std::vector<std::string> files;
};

void RunAdd(const AddOptions& o) {
  auto added = corpus::Add(o.dir, o.files);
  if (!added.ok()) {
    ReportError("corpus add " + o.dir, added.status());
    // A file refused (too large included) is a usage problem: nothing was added.
    if (added.status().code() == ErrorCode::kResourceExhausted) SetExitCode(kExitUsage);
    return;
  }
  std::size_t replaced = 0;
  for (const corpus::AddedCase& a : *added) {
    replaced += a.replaced ? 1 : 0;
    std::printf("%s %s (%s)\n", a.replaced ? "replaced" : "added", a.name.c_str(),
                a.expects_error ? "rejected by the oracle" : "accepted");
  }
  std::printf(
      "%zu cases added to %s (%zu replacing their earlier add); select them with "
      "--only tag:user\n",
      added->size(), o.dir.c_str(), replaced);
}

}  // namespace

void AddCorpusAddCommand(CLI::App& corpus) {
  auto o = std::make_shared<AddOptions>();
  CLI::App* add = corpus.add_subcommand(
      "add",
      "Add your own files to a corpus (created if DIR does not exist): each is copied to "
      "DIR/<kind>/user_<name> beside the oracle's expected streams, written as corpus gen "
      "writes a case (a file the oracle rejects is a case too), and listed in MANIFEST.json "
      "with its tags and the tag user. A ring must be named NAME.ocaml-5.N.events. Adding "
      "a file of the same name again replaces the case it made, never a generated one. All "
      "or nothing: a file that is not a regular file, unreadable, over 1 GiB or of an "
      "unknown kind is refused (exit 2) and nothing is added.");
  add->add_option("dir", o->dir, "corpus directory")->required();
  add->add_option("files", o->files, "*.ctf, *.ocaml-5.N.events or *.sampler.json files")
      ->required();
  add->callback([o] { RunAdd(*o); });
}

}  // namespace mpo::tools
