#include "tools/sampler/sample_command.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/base/json_text.h"
#include "core/base/json_writer.h"
#include "core/sampler/geometric_listing.h"
#include "core/sampler/sampler.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {
namespace {

// Default work budget: draws of the geometric generator per run (a few seconds).
constexpr std::uint64_t kDefaultMaxDraws = 100'000'000;

struct SampleOptions {
  std::string kind = "geometric";
  double lambda = 1e-4;
  std::uint64_t seed = 0;
  std::uint64_t count = 10;
  std::uint64_t length = 256;
  std::uint64_t max_draws = kDefaultMaxDraws;
  bool json = false;
  bool as_profile = false;
};

// The geometric draws a run costs, about: one per geometric draw; a binomial draw of
// `length` words takes length * λ of them, except at λ = 1 (answered by a jump) and
// λ = 0 (draws nothing). Computed in double: only its order of magnitude matters.
double ExpectedDraws(const SampleOptions& o, bool binomial, const sampler::SamplingRate& rate) {
  const double count = static_cast<double>(o.count);
  if (!binomial) return count;
  if (rate.never_samples() || rate.one_log1m_lambda() == 0.0) return count;
  return count * (static_cast<double>(o.length) * o.lambda + 1.0);
}

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
  if (const double draws = ExpectedDraws(o, binomial, *rate);
      draws > static_cast<double>(o.max_draws)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", draws);
    ReportError("sample", Status(ErrorCode::kResourceExhausted,
                                 std::string("exceeds the work limit: about ") + text +
                                     " draws (--count x (--length x --lambda + 1) for binomial) "
                                     "against a budget of " +
                                     std::to_string(o.max_draws) + "; raise it with --max-draws")
                              .WithField("--max-draws"));
    return;
  }
  // Binomial draws carry the surplus Start set; geometric ones are listed in the view
  // asked for (core/sampler/geometric_listing.h).
  sampler::Sampler s(o.seed);
  s.Start(*rate);
  sampler::GeometricListing geometric(
      o.seed, *rate,
      o.as_profile ? sampler::GeometricView::kAsProfile : sampler::GeometricView::kFromSeed);
  // Written in chunks: --count may ask for 10^8 draws.
  std::string buf;
  JsonWriter w(buf);
  auto flush = [&buf] {
    std::fwrite(buf.data(), 1, buf.size(), stdout);
    buf.clear();
  };
  if (o.json) {
    w.BeginObject();
    w.Key("kind");
    w.Name(binomial ? "binomial" : "geometric");
    w.Key("lambda");
    w.Double(o.lambda);
    w.Key("seed");
    w.Uint(o.seed);
    if (binomial) {
      w.Key("length");
      w.Uint(o.length);
    }
    w.Key("draws");
    w.BeginArray();
  }
  for (std::uint64_t i = 0; i < o.count; ++i) {
    // Stop early when nobody can read the rest (main reports the failed write).
    if ((i & 0xffff) == 0) {
      flush();
      if (StdoutFailed()) return;
    }
    const std::uint64_t v = binomial ? s.Binomial(o.length) : geometric.Next();
    if (o.json) {
      w.Uint(v);
    } else {
      json_text::AppendUint(buf, v);
      buf += '\n';
    }
  }
  if (o.json) {
    w.EndArray();
    w.EndObject();
    w.EndLine();
  }
  flush();
}

}  // namespace

void AddSampleCommand(CLI::App& app) {
  auto opts = std::make_shared<SampleOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sample",
      "Print draws of the memprof sampler (bit-exact with OCaml 5's runtime). Work limit: "
      "about --count draws (binomial: --count x (--length x --lambda + 1)) at most "
      "--max-draws (default 10^8); beyond it the run is refused (exit 1). Geometric draws "
      "are listed as testdata/sampler/geometric.csv (and corpus decode) lists them: the first "
      "is the draw that starting a profile consumes; --as-profile lists only the draws after "
      "it, as a running profile sees them");
  cmd->add_option("kind", opts->kind, "geometric (words to the next sample) or binomial")
      ->check(CLI::IsMember({"geometric", "binomial"}));
  cmd->add_option("--lambda", opts->lambda, "sampling rate")->check(FiniteIn(0, 1));
  cmd->add_option("--seed", opts->seed, "PRNG seed (OCaml seeds with the domain id)")
      ->check(UnsignedIn());
  cmd->add_option("--count", opts->count, "number of draws")->check(UnsignedIn());
  cmd->add_option("--length", opts->length, "block length in words (binomial draws)")
      ->check(UnsignedIn(0, sampler::kMaxLong - 1));
  cmd->add_option("--max-draws", opts->max_draws, "work budget in generator draws (default 10^8)")
      ->check(UnsignedIn());
  cmd->add_flag("--as-profile", opts->as_profile,
                "geometric: omit the draw that starting the profile consumes (a running "
                "profile's view)");
  cmd->add_flag("--json", opts->json, "print one JSON object");
  cmd->callback([opts] { RunSample(*opts); });
}

}  // namespace mpo::tools
