// Turning std::bad_alloc into a Status at the public API's edge, for code
// whose standard containers are sized by its input (the C Data bridge, the
// text readers): no exception leaves the library, and none ends a thread.
//
// Thread safety: a plain function; safe from any thread.
#pragma once

#include <new>

#include "alkaid/status.h"

namespace alkaid::internal {

/// Runs `f` (returning Status or a Result); std::bad_alloc thrown inside
/// comes back as OutOfMemory "<what>: out of memory".
template <typename F>
auto CatchOutOfMemory(const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory(what, ": out of memory");
  }
}

}  // namespace alkaid::internal
