#include "core/sampler/geometric_batch.h"

#include <bit>
#include <cfloat>
#include <cstring>

#if defined(__FAST_MATH__)
#error "the sampler must be bit-exact: do not build it with -ffast-math"
#endif
static_assert(FLT_EVAL_METHOD == 0, "float arithmetic must be evaluated in float");

namespace mpo::sampler {
namespace {

// Coefficients of OCaml's fitted cubic (see memprof.c, log_approx), as float literals.
constexpr float kC0 = -111.70172433407f;
constexpr float kC1 = 2.104659476859f;
constexpr float kC2 = -0.720478916626f;
constexpr float kC3 = 0.107132064797f;
constexpr float kLn2 = 0.6931471805f;

// Forces `v` to be materialised, rounded to its type, before later use: the compiler
// cannot see through the asm, so it cannot fuse the product into a following sum.
template <class V>
[[gnu::always_inline]] inline V Rounded(V v) {
  asm("" : "+x"(v));
  return v;
}

// 2^62 as a float: OCaml compares the draw (widened to double) with Max_long + 1.
constexpr float kTwoPow62 = 4611686018427387904.0f;

std::uint64_t Clip(float b) {
  // b >= 1 always; the comparison is exact because 2^62 is a power of two.
  return b >= kTwoPow62 ? kMaxLong : static_cast<std::uint64_t>(b);
}

// ---- The vector kernel, instantiated for SSE2 (4 lanes) and AVX2 (8 lanes). ----

typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));
typedef std::uint32_t U4 __attribute__((vector_size(16)));
typedef float F8 __attribute__((vector_size(32)));
typedef std::int32_t I8 __attribute__((vector_size(32)));
typedef std::uint32_t U8 __attribute__((vector_size(32)));

template <int W>
struct V;
template <>
struct V<4> {
  using F = F4;
  using I = I4;
  using U = U4;
};
template <>
struct V<8> {
  using F = F8;
  using I = I8;
  using U = U8;
};

template <int W>
[[gnu::always_inline]] inline void BatchKernel(XoshiroLanes& lanes, float k, std::uint64_t* out) {
  using F = typename V<W>::F;
  using I = typename V<W>::I;
  using U = typename V<W>::U;
  const F kv = F{} + k;
  for (int i = 0; i < kLanes; i += W) {
    // xoshiro128+ step on W lanes (integer only: exact whatever the flags).
    U s0, s1, s2, s3;
    std::memcpy(&s0, &lanes.words[0][i], sizeof s0);
    std::memcpy(&s1, &lanes.words[1][i], sizeof s1);
    std::memcpy(&s2, &lanes.words[2][i], sizeof s2);
    std::memcpy(&s3, &lanes.words[3][i], sizeof s3);
    const U y = s0 + s3;
    const U t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >> 21);
    std::memcpy(&lanes.words[0][i], &s0, sizeof s0);
    std::memcpy(&lanes.words[1][i], &s1, sizeof s1);
    std::memcpy(&lanes.words[2][i], &s2, sizeof s2);
    std::memcpy(&lanes.words[3][i], &s3, sizeof s3);

    // log_approx: split y + 0.5 into exponent and mantissa by reinterpreting its bits.
    const F f = __builtin_convertvector(y, F) + 0.5f;
    I bits;
    std::memcpy(&bits, &f, sizeof bits);
    const F e = __builtin_convertvector(bits >> 23, F);
    const I mbits = (bits & 0x7FFFFF) | 0x3F800000;
    F x;
    std::memcpy(&x, &mbits, sizeof x);
    F p = kC2 + Rounded(x * kC3);
    p = kC1 + Rounded(x * p);
    p = kC0 + Rounded(x * p);
    const F log = p + Rounded(kLn2 * e);
    const F b = 1.0f + Rounded(log * kv);

    // floor and clip. Draws below 2^31 (almost all, for useful λ) convert in vector.
    float lanes_b[W];
    std::memcpy(lanes_b, &b, sizeof lanes_b);
    const I small = b < 2147483648.0f;
    bool all_small = true;
    for (int j = 0; j < W; ++j) all_small &= small[j] != 0;
    if (all_small) {
      const I n = __builtin_convertvector(b, I);
      for (int j = 0; j < W; ++j) out[i + j] = static_cast<std::uint32_t>(n[j]);
    } else {
      for (int j = 0; j < W; ++j) out[i + j] = Clip(lanes_b[j]);
    }
  }
}

void BatchSse2(XoshiroLanes& lanes, float k, std::uint64_t* out) { BatchKernel<4>(lanes, k, out); }

[[gnu::target("avx2")]] void BatchAvx2(XoshiroLanes& lanes, float k, std::uint64_t* out) {
  BatchKernel<8>(lanes, k, out);
}

using BatchFn = void (*)(XoshiroLanes&, float, std::uint64_t*);

BatchFn PickBatch() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? &BatchAvx2 : &BatchSse2;
}

BatchFn Batch() {
  static const BatchFn fn = PickBatch();
  return fn;
}

}  // namespace

float LogApprox(std::uint32_t y) {
  const float f = static_cast<float>(y) + 0.5f;
  const std::int32_t bits = std::bit_cast<std::int32_t>(f);
  const float e = static_cast<float>(bits >> 23);
  const float x = std::bit_cast<float>((bits & 0x7FFFFF) | 0x3F800000);
  float p = kC2 + Rounded(x * kC3);
  p = kC1 + Rounded(x * p);
  p = kC0 + Rounded(x * p);
  return p + Rounded(kLn2 * e);
}

std::uint64_t GeometricFromUniform(std::uint32_t u, float one_log1m_lambda) {
  return Clip(1.0f + Rounded(LogApprox(u) * one_log1m_lambda));
}

void GeometricBatch(XoshiroLanes& lanes, float one_log1m_lambda, std::uint64_t* out) {
  Batch()(lanes, one_log1m_lambda, out);
}

const char* GeometricBatchKernel() { return Batch() == &BatchAvx2 ? "avx2" : "sse2"; }

}  // namespace mpo::sampler
