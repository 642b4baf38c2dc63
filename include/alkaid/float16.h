/// @file
/// IEEE 754 binary16 ("half float") <-> binary32 conversion. Arrow stores half
/// floats as their raw 16-bit patterns; printers, comparison and JSON convert
/// through float, which represents every half value exactly.
/// Both functions are pure and may be called from any thread.
#pragma once

#include <cstdint>

#include "alkaid/visibility.h"

namespace alkaid {

/// Exact widening of a half-float bit pattern (NaN payload sign is kept).
/// Subnormal halves become normal floats; infinities stay infinite.
ALKAID_EXPORT float HalfToFloat(uint16_t bits);

/// Narrowing with round-to-nearest-even; out-of-range values become +-inf and
/// NaN stays a (quiet) NaN. Returns the binary16 bit pattern.
ALKAID_EXPORT uint16_t FloatToHalf(float value);

}  // namespace alkaid
