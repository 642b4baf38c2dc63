// The line-feed counter and the record-end scan of record_ends.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "src/text/record_ends.h"

namespace alkaid::text::internal {
namespace {

// CountLineFeeds counts 64 and 16 bytes at a time: every length and
// offset around those steps, dense and sparse line feeds, and runs long
// enough to pass the point where its byte counters are summed.
TEST(TextRecordEnds, CountLineFeedsAgreesWithAByteLoop) {
  std::mt19937_64 rng(3);
  std::string text(20000, 'x');
  for (char& c : text) c = rng() % 3 == 0 ? '\n' : static_cast<char>(rng());
  for (int round = 0; round < 3; ++round) {
    if (round == 1) text.assign(20000, '\n');
    if (round == 2) text.assign(20000, 'a');
    for (size_t start : {0, 1, 7, 15, 33}) {
      for (size_t n = 0; n + start <= text.size(); n += n < 300 ? 1 : 997) {
        const int64_t want = std::count(text.begin() + static_cast<std::ptrdiff_t>(start),
                                        text.begin() + static_cast<std::ptrdiff_t>(start + n), '\n');
        ASSERT_EQ(internal::CountLineFeeds(text.data() + start, static_cast<int64_t>(n)), want)
            << start << " " << n;
      }
    }
  }
}

// The last record end outside quotes: quoted line feeds are skipped, the
// parity carries over to the next call, and without quoting every line
// feed ends a record.
TEST(TextRecordEnds, LastRecordEndFollowsQuoteParity) {
  const std::string text = "a,\"x\ny\"\nb\n\"open\n";
  bool in_quote = false;
  EXPECT_EQ(FindLastRecordEnd(text.data(), 0, static_cast<int64_t>(text.size()), '"', &in_quote),
            10);  // just past "b\n"; the line feed in "x\ny" is quoted
  EXPECT_TRUE(in_quote);
  in_quote = false;
  EXPECT_EQ(FindLastRecordEnd(text.data(), 0, static_cast<int64_t>(text.size()), '\0', &in_quote),
            static_cast<int64_t>(text.size()));
  EXPECT_FALSE(in_quote);
}

}  // namespace
}  // namespace alkaid::text::internal
