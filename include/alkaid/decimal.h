/// @file
/// Text <-> integer conversion for Arrow decimals: a little-endian two's
/// complement integer of 4, 8, 16 or 32 bytes whose logical value is
/// integer * 10^-scale. Exact at every width (no floating point).
/// All functions are pure (no shared state) and may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "alkaid/visibility.h"
#include "alkaid/status.h"

namespace alkaid {

/// Exact decimal text, e.g. 12345 at scale 2 -> "123.45", 5 at scale 2 ->
/// "0.05", -5 at scale 0 -> "-5", 123 at scale -2 -> "12300".
/// byte_width must be 4, 8, 16 or 32.
/// @param le_bytes the unscaled integer, `byte_width` bytes, little-endian
/// @param byte_width 4, 8, 16 or 32
/// @param scale power of ten the integer is divided by (may be negative)
ALKAID_EXPORT std::string DecimalToString(const uint8_t* le_bytes, int byte_width, int32_t scale);

/// Parses text such as "-123.45", "+7", ".5", "1.2e3" or "1.5E-2" and writes the
/// integer for `scale` into out[0, byte_width). Fails (writing nothing) when
/// the text is malformed, when digits would be lost at this scale (e.g.
/// "1.234" at scale 2), or when the value does not fit byte_width bytes.
/// Precision is not checked here; compare DecimalDigitCount with the type's.
/// @param text the decimal text (no surrounding spaces)
/// @param byte_width 4, 8, 16 or 32
/// @param scale the target scale
/// @param out receives `byte_width` bytes, little-endian, on success
ALKAID_EXPORT Status DecimalFromString(std::string_view text, int byte_width, int32_t scale, uint8_t* out);

/// Number of significant decimal digits of the unscaled integer (0 has 1
/// digit; the sign is not counted); lets callers check a value against the
/// type's precision. `le_bytes` and `byte_width` as for DecimalToString.
ALKAID_EXPORT int DecimalDigitCount(const uint8_t* le_bytes, int byte_width);

}  // namespace alkaid
