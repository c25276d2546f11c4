// Sampler cases: requests (seed, λ, count or lengths) whose draws the decoder computes.
#include <nlohmann/json.hpp>

#include "core/corpus/cases.h"

namespace mpo::corpus {

std::vector<CaseInput> SamplerCases() {
  std::vector<CaseInput> cases;
  auto add = [&](const std::string& name, std::string note, const nlohmann::json& req) {
    const std::string s = req.dump(1) + "\n";
    cases.push_back(CaseInput{name,
                              name + ".sampler.json",
                              std::move(note),
                              std::vector<std::uint8_t>(s.begin(), s.end()),
                              {}});
  };
  const double lambdas[] = {0.0, 1e-6, 1e-4, 0.01, 0.5, 1.0};
  const char* lambda_names[] = {"0", "1e-6", "1e-4", "0.01", "0.5", "1"};
  for (std::uint64_t seed : {0ull, 1ull, 7ull, 0xffffffffffffffffull}) {
    for (int i = 0; i < 6; ++i) {
      const std::string tag = "seed" + std::to_string(seed % 1000) + "_lambda" + lambda_names[i];
      add("geometric_" + tag, "geometric draws, more than one 64-draw batch",
          {{"seed", seed}, {"lambda", lambdas[i]}, {"mode", "geometric"}, {"count", 200}});
      nlohmann::json lengths = nlohmann::json::array();
      for (std::uint64_t n : {1, 2, 3, 16, 17, 256, 1000, 4097, 100000, 1, 0, 5000000})
        lengths.push_back(n);
      add("binomial_" + tag, "binomial draws carrying the surplus between blocks",
          {{"seed", seed}, {"lambda", lambdas[i]}, {"mode", "binomial"}, {"lengths", lengths}});
    }
  }
  return cases;
}

}  // namespace mpo::corpus
