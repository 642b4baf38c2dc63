// UTF-8 validation against an independent decoder: every two-byte pair, the
// interesting three- and four-byte sequences, and random mutations of valid
// text, each placed where it straddles the 32-byte blocks of the wide path.
#include "alkaid/utf8.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/array/utf8_internal.h"

namespace alkaid {
namespace {

// Decodes code points and judges them by value (the Unicode definition),
// unlike the library, which judges by byte ranges. Returns the position of
// the first byte that does not start a well-formed character, or -1.
int64_t OracleFirstInvalid(const std::vector<uint8_t>& s) {
  size_t i = 0;
  while (i < s.size()) {
    const uint8_t b = s[i];
    int extra;
    uint32_t cp;
    uint32_t min;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC0 && b < 0xE0) {
      extra = 1, cp = b & 0x1Fu, min = 0x80;
    } else if (b >= 0xE0 && b < 0xF0) {
      extra = 2, cp = b & 0x0Fu, min = 0x800;
    } else if (b >= 0xF0 && b < 0xF8) {
      extra = 3, cp = b & 0x07u, min = 0x10000;
    } else {
      return static_cast<int64_t>(i);
    }
    if (i + static_cast<size_t>(extra) >= s.size()) return static_cast<int64_t>(i);  // cut short
    for (int k = 1; k <= extra; ++k) {
      const uint8_t c = s[i + static_cast<size_t>(k)];
      if ((c & 0xC0) != 0x80) return static_cast<int64_t>(i);
      cp = (cp << 6) | (c & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return static_cast<int64_t>(i);
    i += static_cast<size_t>(extra) + 1;
  }
  return -1;
}

bool AllAscii(const std::vector<uint8_t>& s) {
  for (uint8_t b : s) {
    if (b >= 0x80) return false;
  }
  return true;
}

bool WidePathAvailable() {
  const uint8_t probe[1] = {'a'};
  return internal::WideUtf8VerdictForTesting(probe, 1) >= 0;
}

// Checks the public function (position and ASCII flag) and, where the CPU
// has it, the verdict of the wide path on its own.
void ExpectAgreesWithOracle(const std::vector<uint8_t>& s) {
  const int64_t expected = OracleFirstInvalid(s);
  bool ascii_only = false;
  const int64_t got = FindInvalidUtf8(s.data(), static_cast<int64_t>(s.size()), &ascii_only);
  ASSERT_EQ(got, expected) << "input of " << s.size() << " bytes";
  if (got < 0) {
    EXPECT_EQ(ascii_only, AllAscii(s));
  }
  const int wide = internal::WideUtf8VerdictForTesting(s.data(), static_cast<int64_t>(s.size()));
  if (wide >= 0) {
    ASSERT_EQ(wide == 1, expected < 0) << "wide path disagrees on " << s.size() << " bytes";
  }
}

// `sequence` inside ASCII text, starting at `at`.
std::vector<uint8_t> Embed(const std::vector<uint8_t>& sequence, size_t at, size_t total) {
  std::vector<uint8_t> out(std::max(total, at + sequence.size()), 'x');
  for (size_t k = 0; k < sequence.size(); ++k) out[at + k] = sequence[k];
  return out;
}

// Offsets that put the sequence at the start, across the first block
// boundary, at the very end of a block and at the end of the input.
const size_t kPlacements[] = {0, 30, 31, 62};

TEST(Utf8Test, EveryTwoBytePairInEveryPlacement) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::vector<uint8_t> pair = {static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
      for (size_t at : kPlacements) {
        ExpectAgreesWithOracle(Embed(pair, at, 64));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(Utf8Test, ThreeByteSequencesWithEverySecondByte) {
  const uint8_t thirds[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC2, 0xFF};
  for (int lead = 0xC0; lead < 0x100; ++lead) {
    for (int second = 0; second < 256; ++second) {
      for (uint8_t third : thirds) {
        const std::vector<uint8_t> seq = {static_cast<uint8_t>(lead), static_cast<uint8_t>(second),
                                          third};
        for (size_t at : {size_t{29}, size_t{30}, size_t{61}}) {
          ExpectAgreesWithOracle(Embed(seq, at, 64));
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(Utf8Test, FourByteSequences) {
  const uint8_t later[] = {0x41, 0x80, 0x8F, 0x90, 0xBF, 0xC0};
  for (int lead = 0xF0; lead < 0x100; ++lead) {
    for (int second = 0x70; second < 0xD0; ++second) {
      for (uint8_t third : later) {
        for (uint8_t fourth : later) {
          const std::vector<uint8_t> seq = {static_cast<uint8_t>(lead), static_cast<uint8_t>(second),
                                            third, fourth};
          for (size_t at : {size_t{28}, size_t{29}, size_t{31}, size_t{60}}) {
            ExpectAgreesWithOracle(Embed(seq, at, 64));
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

TEST(Utf8Test, CharactersCutOffByTheEndOfTheInput) {
  // The input ends inside a character exactly at, just before and just
  // after a 32-byte block boundary.
  const std::vector<std::vector<uint8_t>> openings = {
      {0xC3}, {0xE2}, {0xE2, 0x82}, {0xF0}, {0xF0, 0x9F}, {0xF0, 0x9F, 0x98}};
  for (const auto& open : openings) {
    for (size_t total : {size_t{32}, size_t{63}, size_t{64}, size_t{65}, size_t{96}}) {
      auto s = Embed(open, total - open.size(), total);
      ExpectAgreesWithOracle(s);
      EXPECT_EQ(FindInvalidUtf8(s.data(), static_cast<int64_t>(s.size())),
                static_cast<int64_t>(total - open.size()));
    }
  }
}

// Random text of ASCII and 2-, 3- and 4-byte characters.
std::vector<uint8_t> RandomText(std::mt19937_64& rng, size_t chars) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < chars; ++i) {
    uint32_t cp;
    switch (rng() % 4) {
      case 0: cp = static_cast<uint32_t>(rng() % 0x80); break;
      case 1: cp = 0x80 + static_cast<uint32_t>(rng() % (0x800 - 0x80)); break;
      case 2:
        do cp = 0x800 + static_cast<uint32_t>(rng() % (0x10000 - 0x800));
        while (cp >= 0xD800 && cp <= 0xDFFF);
        break;
      default: cp = 0x10000 + static_cast<uint32_t>(rng() % (0x110000 - 0x10000)); break;
    }
    if (cp < 0x80) {
      out.push_back(static_cast<uint8_t>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<uint8_t>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<uint8_t>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<uint8_t>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<uint8_t>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<uint8_t>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<uint8_t>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

TEST(Utf8Test, RandomTextAndMutations) {
  std::mt19937_64 rng(20261122);
  for (int round = 0; round < 20000; ++round) {
    auto text = RandomText(rng, rng() % 120);
    ExpectAgreesWithOracle(text);
    if (text.empty()) continue;
    // One byte replaced, one byte dropped, or the text cut short.
    auto mutated = text;
    const size_t at = rng() % mutated.size();
    switch (rng() % 3) {
      case 0: mutated[at] = static_cast<uint8_t>(rng()); break;
      case 1: mutated.erase(mutated.begin() + static_cast<std::ptrdiff_t>(at)); break;
      default: mutated.resize(at); break;
    }
    ExpectAgreesWithOracle(mutated);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The wide path clears ASCII 128 bytes (four blocks) at a time and checks
// the four blocks one by one otherwise: sequences, valid or not, placed at
// and around the edges of those groups, inside longer ASCII runs.
TEST(Utf8Test, SequencesAroundFourBlockGroups) {
  const std::vector<std::vector<uint8_t>> sequences = {
      {0xC3, 0xA9},              // valid, 2 bytes
      {0xE2, 0x82, 0xAC},        // valid, 3 bytes
      {0xF0, 0x9F, 0x98, 0x80},  // valid, 4 bytes
      {0xC3},                    // cut short
      {0xE2, 0x82},
      {0xF0, 0x9F, 0x98},
      {0x80},                    // lone continuation
      {0xC0, 0x80},              // overlong
      {0xED, 0xA0, 0x80},        // surrogate
      {0xF4, 0x90, 0x80, 0x80},  // above U+10FFFF
      {0xFF}};
  const size_t placements[] = {0,   1,   31,  32,  95,  96,  124, 125, 126, 127, 128, 129,
                               159, 160, 252, 253, 254, 255, 256, 257, 383, 384, 508, 511};
  for (const auto& seq : sequences) {
    for (size_t at : placements) {
      for (size_t total : {size_t{512}, size_t{640}, at + seq.size()}) {
        ExpectAgreesWithOracle(Embed(seq, at, total));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Long, mostly ASCII text (about one character in 150 is not), mutated.
TEST(Utf8Test, MostlyAsciiTextAndMutations) {
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> text;
    const size_t chars = rng() % 2000;
    for (size_t i = 0; i < chars; ++i) {
      if (rng() % 150 == 0) {
        auto one = RandomText(rng, 1);
        text.insert(text.end(), one.begin(), one.end());
      } else {
        text.push_back(static_cast<uint8_t>('a' + rng() % 26));
      }
    }
    ExpectAgreesWithOracle(text);
    if (text.empty()) continue;
    auto mutated = text;
    const size_t at = rng() % mutated.size();
    switch (rng() % 3) {
      case 0: mutated[at] = static_cast<uint8_t>(0x80 | rng()); break;
      case 1: mutated.erase(mutated.begin() + static_cast<std::ptrdiff_t>(at)); break;
      default: mutated.resize(at); break;
    }
    ExpectAgreesWithOracle(mutated);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Utf8Test, WidePathIsUsedWhereAvailable) {
  if (!WidePathAvailable()) GTEST_SKIP() << "no AVX2 on this CPU: only the scalar path is tested";
  // A long valid text and the same text with a surrogate in the middle.
  std::mt19937_64 rng(7);
  auto text = RandomText(rng, 5000);
  EXPECT_EQ(internal::WideUtf8VerdictForTesting(text.data(), static_cast<int64_t>(text.size())), 1);
  auto bad = text;
  const std::vector<uint8_t> surrogate = {0xED, 0xA0, 0x80};
  bad.insert(bad.begin() + static_cast<std::ptrdiff_t>(bad.size() / 2), surrogate.begin(),
             surrogate.end());
  EXPECT_EQ(internal::WideUtf8VerdictForTesting(bad.data(), static_cast<int64_t>(bad.size())), 0);
}

}  // namespace
}  // namespace alkaid
