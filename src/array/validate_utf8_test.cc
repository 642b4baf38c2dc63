// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8: UTF-8 validation.
//
// Pattern: build a valid array by hand from buffers, check that it passes both
// levels, then break exactly one thing and check the level that must catch it,
// the Invalid code, and the rule and location named in the message.
// Buffers are exact-size heap allocations (no padding), so a sanitizer build
// sees any read past the end.

#include "src/array/validate_test_helpers.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace alkaid {
namespace {

using namespace validate_test;  // NOLINT

// ---------------------------------------------------------------------------
// UTF-8

bool Utf8(std::string_view s) {
  return ValidateUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

int64_t FirstBad(std::string_view s) {
  return FindInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()),
                         static_cast<int64_t>(s.size()));
}

TEST(ValidateUtf8Test, AcceptsAsciiAndMultiByte) {
  EXPECT_TRUE(Utf8(""));
  EXPECT_TRUE(Utf8("hello, world, this is a longer ASCII run of text!"));
  EXPECT_TRUE(Utf8("caf\xC3\xA9"));            // U+00E9
  EXPECT_TRUE(Utf8("\xE2\x82\xAC 5"));         // U+20AC euro
  EXPECT_TRUE(Utf8("\xF0\x9D\x84\x9E clef"));  // U+1D11E
  EXPECT_TRUE(Utf8("\xF4\x8F\xBF\xBF"));       // U+10FFFF, the last code point
  EXPECT_TRUE(Utf8("\xED\x9F\xBF"));           // U+D7FF, just below surrogates
  EXPECT_TRUE(Utf8("\xEE\x80\x80"));           // U+E000, just above surrogates
  EXPECT_TRUE(Utf8(std::string(1000, 'a') + "\xE4\xB8\xAD" + std::string(37, 'b')));
  EXPECT_TRUE(ValidateUtf8(nullptr, 0));
  EXPECT_FALSE(ValidateUtf8(nullptr, -1));
}

TEST(ValidateUtf8Test, RejectsMalformedSequences) {
  EXPECT_FALSE(Utf8("\x80"));              // lone continuation byte
  EXPECT_FALSE(Utf8("\xC0\x80"));          // overlong NUL
  EXPECT_FALSE(Utf8("\xC1\xBF"));          // overlong 2-byte
  EXPECT_FALSE(Utf8("\xE0\x80\x80"));      // overlong 3-byte
  EXPECT_FALSE(Utf8("\xE0\x9F\xBF"));      // overlong 3-byte (U+07FF)
  EXPECT_FALSE(Utf8("\xF0\x80\x80\x80"));  // overlong 4-byte
  EXPECT_FALSE(Utf8("\xF0\x8F\xBF\xBF"));  // overlong 4-byte (U+FFFF)
  EXPECT_FALSE(Utf8("\xED\xA0\x80"));      // U+D800 surrogate
  EXPECT_FALSE(Utf8("\xED\xBF\xBF"));      // U+DFFF surrogate
  EXPECT_FALSE(Utf8("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(Utf8("\xF5\x80\x80\x80"));  // lead byte never valid
  EXPECT_FALSE(Utf8("\xFF"));
  EXPECT_FALSE(Utf8("\xE2\x82"));      // truncated at the end
  EXPECT_FALSE(Utf8("\xF0\x9D\x84"));  // truncated 4-byte
  EXPECT_FALSE(Utf8("\xC3"));
  EXPECT_FALSE(Utf8("\xC3 x"));  // continuation missing mid-text
  EXPECT_FALSE(Utf8("\xE2\x28\xA1"));
}

TEST(ValidateUtf8Test, ReportsPositionOfFirstBadSequence) {
  EXPECT_EQ(FirstBad("abc"), -1);
  EXPECT_EQ(FirstBad(std::string(100, 'x') + "\xC3\xA9\xFFzz"), 102);
  EXPECT_EQ(FirstBad(std::string(21, 'x') + "\x80"), 21);  // past a 16+ byte word run
  EXPECT_EQ(FirstBad("\xE2\x82\xAC\xE2\x82"), 3);
}

TEST(ValidateUtf8Test, ReportsWhetherInputWasAsciiOnly) {
  bool ascii_only = false;
  std::string text(40, 'a');
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text.data()), 40, &ascii_only), -1);
  EXPECT_TRUE(ascii_only);
  text[33] = '\xC3';
  text[34] = '\xA9';
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text.data()), 40, &ascii_only), -1);
  EXPECT_FALSE(ascii_only);
}

// Reference decoder by code point arithmetic, to cross-check the fast one.
bool ReferenceUtf8(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = s[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      len = 1;
      cp = c;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else
      return false;
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

TEST(ValidateUtf8Test, MatchesReferenceOnAllTwoByteInputsAndRandomLongerOnes) {
  uint8_t buf[2];
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      buf[0] = static_cast<uint8_t>(a);
      buf[1] = static_cast<uint8_t>(b);
      ASSERT_EQ(ValidateUtf8(buf, 2), ReferenceUtf8(buf, 2)) << a << " " << b;
    }
  }
  std::mt19937 rng(42);
  // Bias bytes toward the interesting lead and continuation ranges.
  const uint8_t kPool[] = {'a',  0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2,
                           0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xC0, 0xFF};
  for (int iter = 0; iter < 200000; ++iter) {
    uint8_t s[20];
    size_t n = rng() % 20;
    for (size_t k = 0; k < n; ++k) s[k] = kPool[rng() % sizeof(kPool)];
    ASSERT_EQ(ValidateUtf8(s, static_cast<int64_t>(n)), ReferenceUtf8(s, n));
  }
}

}  // namespace
}  // namespace alkaid
