// UTF-8 helpers beyond the public API (alkaid/utf8.h): what the tests reach, and the encoder
// that the readers and writers which build text from code points share.
#pragma once

#include <cstdint>
#include <string>

#include "alkaid/visibility.h"

namespace alkaid::internal {

// The verdict of the wide (AVX2) path alone on any length: 1 valid, 0 malformed, -1 when
// this CPU or build has no wide path. Exported for the tests of shared builds.
ALKAID_EXPORT int WideUtf8VerdictForTesting(const uint8_t* bytes, int64_t length);

// Appends code point `cp` (at most U+10FFFF; the caller has checked) as 1 to 4 UTF-8 bytes.
inline void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace alkaid::internal
