#include "tools/sampler/sample_command.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/sampler/sampler.h"
#include "tools/exit_code.h"

namespace mpo::tools {
namespace {

struct SampleOptions {
  std::string kind = "geometric";
  double lambda = 1e-4;
  std::uint64_t seed = 0;
  std::uint64_t count = 10;
  std::uint64_t length = 256;
  bool json = false;
};

// Text: one draw per line. JSON: {"kind":..,"lambda":..,"seed":..,"length":..,"draws":[..]}.
void RunSample(const SampleOptions& o) {
  auto rate = sampler::SamplingRate::FromLambda(o.lambda);
  if (!rate.ok()) {
    ReportError("sample", rate.status());
    return;
  }
  const bool binomial = o.kind == "binomial";
  if (binomial && o.length >= sampler::kMaxLong) {
    ReportError(
        "sample",
        Status(ErrorCode::kInvalidArgument, "must be below 2^62 - 1").WithField("--length"));
    return;
  }
  sampler::Sampler s(o.seed);
  s.Start(*rate);
  if (o.json) {
    std::printf("{\"kind\":\"%s\",\"lambda\":%.17g,\"seed\":%llu,", o.kind.c_str(), o.lambda,
                static_cast<unsigned long long>(o.seed));
    if (binomial) std::printf("\"length\":%llu,", static_cast<unsigned long long>(o.length));
    std::printf("\"draws\":[");
  }
  for (std::uint64_t i = 0; i < o.count; ++i) {
    // Geometric draws follow the initial surplus draw, as OCaml's first sample does.
    const std::uint64_t v = binomial ? s.Binomial(o.length) : s.Geometric();
    if (o.json) {
      std::printf("%s%llu", i == 0 ? "" : ",", static_cast<unsigned long long>(v));
    } else {
      std::printf("%llu\n", static_cast<unsigned long long>(v));
    }
  }
  if (o.json) std::printf("]}\n");
}

}  // namespace

void AddSampleCommand(CLI::App& app) {
  auto opts = std::make_shared<SampleOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sample", "Print draws of the memprof sampler (bit-exact with OCaml 5's runtime)");
  cmd->add_option("kind", opts->kind, "geometric (words to the next sample) or binomial")
      ->check(CLI::IsMember({"geometric", "binomial"}));
  cmd->add_option("--lambda", opts->lambda, "sampling rate, in [0, 1]");
  cmd->add_option("--seed", opts->seed, "PRNG seed (OCaml seeds with the domain id)");
  cmd->add_option("--count", opts->count, "number of draws");
  cmd->add_option("--length", opts->length, "block length in words (binomial draws)");
  cmd->add_flag("--json", opts->json, "print one JSON object");
  cmd->callback([opts] { RunSample(*opts); });
}

}  // namespace mpo::tools
