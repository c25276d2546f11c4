#include "core/io/file_budget.h"

namespace mpo::io {

Status OverBudget(const FileBudget& budget, const std::string& path) {
  return Status(ErrorCode::kResourceExhausted, std::string(budget.kind) +
                                                   " is larger than the limit of " +
                                                   std::to_string(budget.max_bytes) + " bytes")
      .WithField(path);
}

}  // namespace mpo::io
