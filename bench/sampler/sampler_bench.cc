// Cost of one geometric draw of the memprof sampler, beside two anchors measured in the
// same run: the textbook baseline (std::geometric_distribution over std::mt19937_64) and
// this project's own scalar form of the same bit-exact computation (one uniform, one
// log_approx, one draw at a time, as the C original computes each lane).
//
//   BM_Geometric        one Sampler::Geometric() per benchmark iteration
//   BM_Geometric_x1024  1024 draws per iteration: the per-draw cost without the
//                       benchmark loop's own overhead
//   BM_GeometricBatchOnly/<kernel>  generation alone, per draw, for each SIMD kernel
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

#include "bench/common/ratio_reporter.h"
#include "bench/sampler/ocaml_style_batch.h"
#include "core/sampler/sampler.h"

namespace {

using mpo::sampler::kLanes;
using mpo::sampler::Sampler;
using mpo::sampler::SamplingRate;

constexpr double kLambda = 1e-4;

void BM_Baseline_StdGeometric(benchmark::State& state) {
  std::mt19937_64 rng(42);
  std::geometric_distribution<std::uint64_t> dist(kLambda);
  for (auto _ : state) benchmark::DoNotOptimize(dist(rng));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Baseline_StdGeometric);

// OCaml's algorithm as OCaml builds it: the "original" anchor.
void BM_OCamlStyle(benchmark::State& state) {
  mpo::bench::OCamlStyleSampler s(42, SamplingRate::FromLambda(kLambda)->one_log1m_lambda());
  for (auto _ : state) benchmark::DoNotOptimize(s.Geometric());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OCamlStyle);

void BM_OCamlStyle_x1024(benchmark::State& state) {
  mpo::bench::OCamlStyleSampler s(42, SamplingRate::FromLambda(kLambda)->one_log1m_lambda());
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (int i = 0; i < 1024; ++i) sum += s.Geometric();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_OCamlStyle_x1024);

void BM_ScalarReference(benchmark::State& state) {
  auto lanes = mpo::sampler::XoshiroLanes::Seeded(42);
  const float k = static_cast<float>(SamplingRate::FromLambda(kLambda)->one_log1m_lambda());
  std::uint32_t u[kLanes];
  int pos = kLanes;
  for (auto _ : state) {
    if (pos == kLanes) {
      lanes.Step(u);
      pos = 0;
    }
    benchmark::DoNotOptimize(mpo::sampler::GeometricFromUniform(u[pos++], k));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ScalarReference);

void BM_Geometric(benchmark::State& state) {
  Sampler s(42);
  s.Start(*SamplingRate::FromLambda(kLambda));
  for (auto _ : state) benchmark::DoNotOptimize(s.Geometric());
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(mpo::sampler::GeometricBatchKernel());
}
BENCHMARK(BM_Geometric);

// 1024 draws per benchmark iteration, summed: the per-draw cost without the benchmark
// loop's own per-iteration overhead.
void BM_Geometric_x1024(benchmark::State& state) {
  Sampler s(42);
  s.Start(*SamplingRate::FromLambda(kLambda));
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (int i = 0; i < 1024; ++i) sum += s.Geometric();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_Geometric_x1024);

// The batch alone, for each kernel this CPU supports: 64 draws per call.
void BM_GeometricBatchOnly(benchmark::State& state, const char* kernel) {
  auto lanes = mpo::sampler::XoshiroLanes::Seeded(42);
  const float k = static_cast<float>(SamplingRate::FromLambda(kLambda)->one_log1m_lambda());
  alignas(64) std::uint64_t out[kLanes];
  for (auto _ : state) {
    mpo::sampler::GeometricBatchWith(kernel, lanes, k, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}
BENCHMARK_CAPTURE(BM_GeometricBatchOnly, sse2, "sse2");

// A block of 256 words per call: OCaml's path for major-heap and runtime allocations.
void BM_Binomial256(benchmark::State& state) {
  Sampler s(42);
  s.Start(*SamplingRate::FromLambda(kLambda));
  for (auto _ : state) benchmark::DoNotOptimize(s.Binomial(256));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Binomial256);

}  // namespace

int main(int argc, char** argv) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) {
    benchmark::RegisterBenchmark("BM_GeometricBatchOnly/avx2", BM_GeometricBatchOnly, "avx2");
  }
  if (__builtin_cpu_supports("avx512f")) {
    benchmark::RegisterBenchmark("BM_GeometricBatchOnly/avx512f", BM_GeometricBatchOnly, "avx512f");
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  return mpo::bench::RunWithRatios("BM_Baseline_StdGeometric");
}
