#include "core/sampler/sampling_rate.h"

#include <cmath>
#include <limits>

namespace mpo::sampler {

Result<SamplingRate> SamplingRate::FromLambda(double lambda) {
  // Written so that NaN fails the test, as OCaml's check does.
  if (!(lambda >= 0.0 && lambda <= 1.0)) {
    return Status(ErrorCode::kInvalidArgument, "Gc.Memprof.start").WithField("lambda");
  }
  double k = lambda == 1.0 ? 0.0 : 1.0 / std::log1p(-lambda);
  // Catches NaN, +infinity and positive values alike.
  if (!(k <= 0.0)) k = -std::numeric_limits<double>::infinity();
  return SamplingRate(lambda, k);
}

bool SamplingRate::never_samples() const {
  return one_log1m_lambda_ == -std::numeric_limits<double>::infinity();
}

}  // namespace mpo::sampler
