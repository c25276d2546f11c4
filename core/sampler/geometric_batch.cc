#include "core/sampler/geometric_batch.h"

#include <bit>
#include <cfloat>
#include <cstring>
#include <string_view>

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
// (clang's `#pragma clang fp contract(off)` is not enough: -ffp-contract=fast overrides
// it.) clang rejects vector-register operands wider than the enclosing template allows,
// so under clang the value goes through memory: slower, but clang builds are for
// sanitizers and fuzzing.
template <class V>
[[gnu::always_inline]] inline V Rounded(V v) {
#if defined(__clang__)
  asm("" : "+m"(v));
#else
  asm("" : "+x"(v));
#endif
  return v;
}

// 2^62 as a float: OCaml compares the draw (widened to double) with Max_long + 1.
constexpr float kTwoPow62 = 4611686018427387904.0f;

std::uint64_t Clip(float b) {
  // b >= 1 or NaN; the comparison is exact because 2^62 is a power of two. NaN comes from
  // 0 * -inf when a tiny λ makes the float 1/log(1-λ) -inf (OCaml's "sampling off") and
  // log_approx returns 0: its conversion is undefined in OCaml's C, so here it is the
  // longest draw, Max_long, which keeps sampling off as OCaml intends for such λ.
  return !(b < kTwoPow62) ? kMaxLong : static_cast<std::uint64_t>(b);
}

// ---- The vector kernel, instantiated for SSE2 (4 lanes), AVX2 (8) and AVX-512 (16). ----

using F4 = float __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));
using U4 = std::uint32_t __attribute__((vector_size(16)));
using F8 = float __attribute__((vector_size(32)));
using I8 = std::int32_t __attribute__((vector_size(32)));
using U8 = std::uint32_t __attribute__((vector_size(32)));
using F16 = float __attribute__((vector_size(64)));
using I16 = std::int32_t __attribute__((vector_size(64)));
using U16 = std::uint32_t __attribute__((vector_size(64)));

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
template <>
struct V<16> {
  using F = F16;
  using I = I16;
  using U = U16;
};

// As Rounded, for whole vectors; 512-bit vectors live in EVEX registers ("v").
template <int W, class T>
[[gnu::always_inline]] inline T RoundedV(T v) {
#if defined(__clang__)
  asm("" : "+m"(v));
#else
  if constexpr (W == 16) {
    asm("" : "+v"(v));
  } else {
    asm("" : "+x"(v));
  }
#endif
  return v;
}

template <class T>
[[gnu::always_inline]] inline T Load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
[[gnu::always_inline]] inline void Store(void* p, const T& v) {
  std::memcpy(p, &v, sizeof v);
}

template <int W>
[[gnu::always_inline]] inline void BatchKernel(XoshiroLanes& lanes, float k, std::uint64_t* out) {
  using F = typename V<W>::F;
  using I = typename V<W>::I;
  using U = typename V<W>::U;
  const F kv = F{} + k;
  alignas(64) float draws[kLanes];
  alignas(64) std::int32_t floors[kLanes];
  I any_large{};
  for (int i = 0; i < kLanes; i += W) {
    // xoshiro128+ step on W lanes (integer only: exact whatever the flags).
    U s0 = Load<U>(&lanes.words[0][i]), s1 = Load<U>(&lanes.words[1][i]);
    U s2 = Load<U>(&lanes.words[2][i]), s3 = Load<U>(&lanes.words[3][i]);
    const U y = s0 + s3;
    const U t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >> 21);
    Store(&lanes.words[0][i], s0);
    Store(&lanes.words[1][i], s1);
    Store(&lanes.words[2][i], s2);
    Store(&lanes.words[3][i], s3);

    // (float)y, correctly rounded, from two exact halves: hi * 2^16 is exact, so the sum
    // is the only rounding (and a fused multiply-add would round the same exact value).
    const F hi = __builtin_convertvector((I)(y >> 16), F);
    const F lo = __builtin_convertvector((I)(y & 0xFFFF), F);
    const F f = RoundedV<W>(hi * 65536.0f + lo) + 0.5f;

    // log_approx: split y + 0.5 into exponent and mantissa by reinterpreting its bits.
    const I bits = Load<I>(&f);
    const F e = __builtin_convertvector(bits >> 23, F);
    const I mantissa_bits = (bits & 0x7FFFFF) | 0x3F800000;
    const F x = Load<F>(&mantissa_bits);
    F p = kC2 + RoundedV<W>(x * kC3);
    p = kC1 + RoundedV<W>(x * p);
    p = kC0 + RoundedV<W>(x * p);
    const F log = p + RoundedV<W>(kLn2 * e);
    const F b = 1.0f + RoundedV<W>(log * kv);

    // floor: draws below 2^31 (almost all, for useful λ) convert in vector; a larger one
    // converts to INT32_MIN, whose sign bit flags the batch for the scalar clip below.
    Store(&draws[i], b);
    const I n = __builtin_convertvector(b, I);
    any_large |= n;
    Store(&floors[i], n);
  }
  // Widening in a plain loop lets the compiler pick its best zero-extending stores.
  for (int i = 0; i < kLanes; ++i) out[i] = static_cast<std::uint32_t>(floors[i]);
  std::uint64_t sign_bits[W / 2];
  std::memcpy(sign_bits, &any_large, sizeof sign_bits);
  std::uint64_t large = 0;
  for (int j = 0; j < W / 2; ++j) large |= sign_bits[j];
  if ((large & 0x8000000080000000ull) != 0) {
    for (int i = 0; i < kLanes; ++i) out[i] = Clip(draws[i]);
  }
}

void BatchSse2(XoshiroLanes& lanes, float k, std::uint64_t* out) { BatchKernel<4>(lanes, k, out); }

[[gnu::target("avx2")]] void BatchAvx2(XoshiroLanes& lanes, float k, std::uint64_t* out) {
  BatchKernel<8>(lanes, k, out);
}

[[gnu::target("avx512f")]] void BatchAvx512(XoshiroLanes& lanes, float k, std::uint64_t* out) {
  BatchKernel<16>(lanes, k, out);
}

using BatchFn = void (*)(XoshiroLanes&, float, std::uint64_t*);

BatchFn PickBatch() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &BatchAvx512;
  if (__builtin_cpu_supports("avx2")) return &BatchAvx2;
  return &BatchSse2;
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

const char* GeometricBatchKernel() {
  const BatchFn fn = Batch();
  return fn == &BatchAvx512 ? "avx512f" : fn == &BatchAvx2 ? "avx2" : "sse2";
}

void GeometricBatchWith(const char* kernel, XoshiroLanes& lanes, float one_log1m_lambda,
                        std::uint64_t* out) {
  const std::string_view name(kernel);
  const BatchFn fn = name == "avx512f" ? &BatchAvx512 : name == "avx2" ? &BatchAvx2 : &BatchSse2;
  fn(lanes, one_log1m_lambda, out);
}

}  // namespace mpo::sampler
