#include "core/sampler/vectors.h"

#include <fstream>
#include <sstream>

namespace mpo::sampler {
namespace {

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

}  // namespace

std::vector<GeometricVector> LoadGeometricVectors(const std::string& path) {
  std::vector<GeometricVector> out;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header: seed,lambda,index,geometric
  while (std::getline(in, line)) {
    const auto f = SplitCsv(line);
    if (f.size() != 4) continue;
    const std::uint64_t seed = std::stoull(f[0]);
    if (out.empty() || out.back().seed != seed || out.back().lambda_text != f[1]) {
      out.push_back({seed, f[1], std::stod(f[1]), {}});
    }
    out.back().draws.push_back(std::stoull(f[3]));
  }
  return out;
}

std::vector<BinomialVector> LoadBinomialVectors(const std::string& path) {
  std::vector<BinomialVector> out;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header: seed,lambda,index,length,samples
  while (std::getline(in, line)) {
    const auto f = SplitCsv(line);
    if (f.size() != 5) continue;
    const std::uint64_t seed = std::stoull(f[0]);
    if (out.empty() || out.back().seed != seed || out.back().lambda_text != f[1]) {
      out.push_back({seed, f[1], std::stod(f[1]), {}, {}});
    }
    out.back().lengths.push_back(std::stoull(f[3]));
    out.back().samples.push_back(std::stoull(f[4]));
  }
  return out;
}

}  // namespace mpo::sampler
