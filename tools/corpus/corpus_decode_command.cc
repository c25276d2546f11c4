#include "tools/corpus/corpus_decode_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "core/base/text_sink.h"
#include "core/corpus/decode.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

struct DecodeOptions {
  std::string file;
  bool batch = false;
  bool text = false;
  Verdicts verdicts = Verdicts::kStrict;
  memtrace::Limits limits;  // of a trace: the --max-* budgets
};

// The batch protocol's implementation side (core/corpus/batch_session.h): one path per
// line on stdin, each answered with its stream and an end line carrying the exit code a
// one-file run would have had. A file that cannot be decoded at all gets its message on
// stderr and exit 2 in its end line; the loop ends with stdin or a failed write.
constexpr std::size_t kMaxBatchPath = 1 << 16;

void RunDecodeBatch(const DecodeOptions& o) {
  FileTextSink out(stdout);
  std::string path;
  int c;
  while (true) {
    path.clear();
    bool too_long = false;
    while ((c = std::fgetc(stdin)) != EOF && c != '\n') {
      if (path.size() < kMaxBatchPath)
        path += static_cast<char>(c);
      else
        too_long = true;
    }
    if (c == EOF && path.empty()) break;
    int code = 0;
    if (too_long) {
      std::fprintf(stderr,
                   "memprof-oracle: corpus decode: a path on stdin is longer than %zu bytes\n",
                   kMaxBatchPath);
      std::printf("{\"kind\":\"batch_end\",\"exit\":2}\n");
      std::fflush(stdout);
      continue;
    }
    auto d = corpus::DecodeFile(path,
                                o.text ? corpus::DecodeForm::kText : corpus::DecodeForm::kJsonLines,
                                out, o.verdicts, o.limits);
    if (!d.ok()) {
      std::fprintf(stderr, "memprof-oracle: corpus decode %s: %s\n", path.c_str(),
                   d.status().ToString().c_str());
      code = 2;
    } else if (!d->ended_with.ok()) {
      code = 1;
    }
    std::printf("{\"kind\":\"batch_end\",\"exit\":%d}\n", code);
    std::fflush(stdout);
    if (StdoutFailed() || std::ferror(stdout)) return;
    if (c == EOF) break;
  }
}

void RunDecode(const DecodeOptions& o) {
  if (o.batch != o.file.empty())
    return ReportError("corpus decode",
                       Status(ErrorCode::kInvalidArgument,
                              o.batch ? "--batch reads the files' paths on stdin: give no FILE"
                                      : "a FILE to decode (or --batch) is required")
                           .WithField(o.batch ? "file" : "--batch"));
  if (o.batch) return RunDecodeBatch(o);
  // Streamed as it decodes, like `memtrace dump --json`: the same bytes, the same memory.
  FileTextSink out(stdout);
  auto d = corpus::DecodeFile(o.file,
                              o.text ? corpus::DecodeForm::kText : corpus::DecodeForm::kJsonLines,
                              out, o.verdicts, o.limits);
  if (!d.ok()) return ReportError("corpus decode " + o.file, d.status());
  std::fflush(stdout);
  // A rejected input is a complete stream (its end line says why) and exit code 1; a
  // failed write is reported once, by main's FinishStdout.
  if (!d->ended_with.ok() && !StdoutFailed()) ReportError("corpus decode " + o.file, d->ended_with);
}

}  // namespace

void AddCorpusDecodeCommand(CLI::App& corpus) {
  auto o = std::make_shared<DecodeOptions>();
  CLI::App* dec = corpus.add_subcommand(
      "decode",
      "Print the reference decode of a case file as schema 2 JSON Lines (SCHEMA.md): the "
      "same bytes as `memtrace dump --json` for a trace and `events dump --json` for a "
      "ring. A rejected input prints its stream, ending with the error, and exits 1. The "
      "file must be a regular file (rings and sampler requests: at most 1 GiB).");
  dec->add_option("file", o->file, "*.ctf, *.ocaml-5.N.events or *.sampler.json");
  dec->add_flag("--batch", o->batch,
                "read one path per line on stdin and print each file's stream followed by "
                "{\"kind\":\"batch_end\",\"exit\":N}, N the exit code of a one-file run "
                "(the batch protocol of corpus check --batch)");
  dec->add_flag("--text", o->text, "print the text form instead");
  AddVerdictsOption(dec, &o->verdicts);
  AddLimitOptions(dec, &o->limits);
  dec->callback([o] { RunDecode(*o); });
}

}  // namespace mpo::tools
