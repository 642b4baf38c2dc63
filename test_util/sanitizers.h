// Whether this test binary runs under a sanitizer: peak-memory and timing
// bounds measured on release builds mean nothing under ASan's shadow memory
// and quarantine (or TSan's), so such tests skip there and say why.
#pragma once

namespace alkaid::testing {

inline constexpr bool kSanitizedBuild =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#else
    false;
#endif

}  // namespace alkaid::testing
