// Loads the reference draws in testdata/sampler (produced by OCaml's own code path).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpo::sampler {

struct GeometricVector {
  std::uint64_t seed;
  std::string lambda_text;  // as written in the file, e.g. "1e-05"
  double lambda;
  std::vector<std::uint64_t> draws;  // by index
};

struct BinomialVector {
  std::uint64_t seed;
  std::string lambda_text;
  double lambda;
  std::vector<std::uint64_t> lengths;
  std::vector<std::uint64_t> samples;
};

// Grouped by (seed, lambda) in file order. Empty when the file cannot be read.
std::vector<GeometricVector> LoadGeometricVectors(const std::string& path);
std::vector<BinomialVector> LoadBinomialVectors(const std::string& path);

inline constexpr const char* kGeometricCsv = "testdata/sampler/geometric.csv";
inline constexpr const char* kBinomialCsv = "testdata/sampler/binomial.csv";

}  // namespace mpo::sampler
