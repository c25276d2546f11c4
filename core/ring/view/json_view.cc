#include "core/ring/view/json_view.h"

namespace mpo::ring::view {

Status WriteJsonView(std::span<const std::byte>, OcamlVersion, TextSink&) {
  return Status(ErrorCode::kInternal, "ring JSON view: not implemented yet");
}

}  // namespace mpo::ring::view
