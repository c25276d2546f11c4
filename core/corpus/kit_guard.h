// The kit's boundary for exceptions. nlohmann::json throws on misuse and on memory
// exhaustion, and std containers throw std::bad_alloc; neither may leave the kit, so each
// entry point (and each worker thread, where an exception would end the process) runs its
// body through GuardKit.
//
//   return GuardKit("corpus check", [&] { return CheckUnguarded(dir, options); });
#pragma once

#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/base/status.h"

namespace mpo::corpus {

// Calls `body` (returning a Result<T> or a Status) and turns those two exceptions into an
// error of the same type whose field is `where`.
template <typename Body>
auto GuardKit(const char* where, Body&& body) -> decltype(std::forward<Body>(body)()) {
  try {
    return std::forward<Body>(body)();
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField(where);
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField(where);
  }
}

}  // namespace mpo::corpus
