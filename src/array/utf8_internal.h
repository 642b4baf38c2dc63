// What the UTF-8 tests reach beyond the public API (alkaid/utf8.h).
#pragma once

#include <cstdint>

#include "alkaid/visibility.h"

namespace alkaid::internal {

// The verdict of the wide (AVX2) path alone on any length: 1 valid, 0 malformed, -1 when
// this CPU or build has no wide path. Exported for the tests of shared builds.
ALKAID_EXPORT int WideUtf8VerdictForTesting(const uint8_t* bytes, int64_t length);

}  // namespace alkaid::internal
