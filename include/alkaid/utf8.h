/// @file
/// UTF-8 well-formedness checks used by validation and by readers of string data.
///
/// Well-formed means the Unicode definition: no overlong encodings, no UTF-16
/// surrogate code points (U+D800..U+DFFF), nothing above U+10FFFF, and no
/// sequence cut short by the end of the input.
///
/// Every function here is pure and may be called from any number of threads.
#pragma once

#include <cstdint>

#include "alkaid/visibility.h"

namespace alkaid {

/// Position of the first byte of the first malformed sequence in
/// bytes[0, length), or -1 when the whole range is well-formed. Checks 32
/// bytes at a time with AVX2 when the build and the CPU support it.
ALKAID_EXPORT int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length);

/// Same, and tells whether every byte was ASCII (set only when the result is
/// -1; `ascii_only` must not be null). Lets callers skip checks that only
/// matter for multi-byte characters.
ALKAID_EXPORT int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length, bool* ascii_only);

/// Whether bytes[0, length) is entirely well-formed UTF-8 (an empty range is).
inline bool IsValidUtf8(const uint8_t* bytes, int64_t length) {
  return FindInvalidUtf8(bytes, length) < 0;
}

/// True for bytes 0x80..0xBF, which never begin a character.
inline bool IsUtf8ContinuationByte(uint8_t byte) { return (byte & 0xC0) == 0x80; }

}  // namespace alkaid
