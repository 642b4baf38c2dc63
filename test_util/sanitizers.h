// Whether this test binary runs under a sanitizer: peak-memory and timing
// bounds measured on release builds mean nothing under ASan's shadow memory
// and quarantine (or TSan's), so such tests skip there and say why.
#pragma once

#include "src/util/sanitizers.h"

namespace alkaid::testing {

inline constexpr bool kSanitizedBuild =
#if ALKAID_ADDRESS_SANITIZER || ALKAID_THREAD_SANITIZER
    true;
#else
    false;
#endif

}  // namespace alkaid::testing
