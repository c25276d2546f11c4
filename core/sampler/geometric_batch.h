// The batched geometric draw of memprof.c's rand_batch: 64 xoshiro128+ lanes each give
// one 32-bit uniform u, and each u becomes
//
//     g = floor(1 + log_approx(u) * one_log1m_lambda)   clipped to [1, kMaxLong]
//
// computed in single precision exactly as OCaml computes it for x86-64: every product
// rounded to float before the following sum (no fused multiply-add), float operands,
// the polynomial evaluated in OCaml's order. Bit-exactness is enforced in code, not left
// to compiler flags: each product passes through an empty asm that forces its rounding,
// so no -ffp-contract, -mfma or -march setting can fuse it, and -ffast-math is refused.
#pragma once

#include <cstdint>

#include "core/sampler/xoshiro_lanes.h"

namespace mpo::sampler {

// OCaml's Max_long on 64-bit platforms: the largest geometric draw.
inline constexpr std::uint64_t kMaxLong = (std::uint64_t{1} << 62) - 1;

// log((y + 0.5) / 2^32), approximately and always negative (memprof.c's log_approx).
float LogApprox(std::uint32_t y);

// The geometric draw for one uniform, given (float)one_log1m_lambda. Reference scalar
// form of the batch below.
std::uint64_t GeometricFromUniform(std::uint32_t u, float one_log1m_lambda);

// Steps every lane once and writes the 64 geometric draws to `out`. Uses AVX-512 or
// AVX2 when the CPU has it, SSE2 otherwise; all give the same bits as the scalar form.
void GeometricBatch(XoshiroLanes& lanes, float one_log1m_lambda, std::uint64_t* out);

// Which kernel GeometricBatch uses on this CPU ("avx512f", "avx2" or "sse2").
const char* GeometricBatchKernel();

// GeometricBatch with a named kernel, public to let tests compare every kernel the CPU
// supports. Precondition: the CPU supports `kernel`.
void GeometricBatchWith(const char* kernel, XoshiroLanes& lanes, float one_log1m_lambda,
                        std::uint64_t* out);

}  // namespace mpo::sampler
