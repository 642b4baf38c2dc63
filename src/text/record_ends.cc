// See record_ends.h.
#include "record_ends.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace alkaid::text::internal {

int64_t CountLineFeeds(const char* p, int64_t n) {
  int64_t count = 0;
  const char* end = p + n;
#if defined(__SSE2__)
  // 64 bytes a step, no branch per line: each compare is -1 in the bytes
  // that hold a line feed; the four of a step are added (-4..0 per lane)
  // and subtracted into per-lane byte counters, which one sum of absolute
  // differences adds up every 63 steps at most (before a lane could wrap).
  auto eq = [](const char* q) {
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)), _mm_set1_epi8('\n'));
  };
  while (end - p >= 64) {
    const int64_t steps = std::min<int64_t>((end - p) / 64, 63);
    __m128i lanes = _mm_setzero_si128();
    for (int64_t i = 0; i < steps; ++i, p += 64) {
      lanes = _mm_sub_epi8(lanes, _mm_add_epi8(_mm_add_epi8(eq(p), eq(p + 16)),
                                               _mm_add_epi8(eq(p + 32), eq(p + 48))));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    count += _mm_cvtsi128_si64(sums) + _mm_extract_epi16(sums, 4);
  }
  for (; end - p >= 16; p += 16) {
    count += __builtin_popcount(static_cast<unsigned>(_mm_movemask_epi8(eq(p))));
  }
#endif
  for (; p < end; ++p) count += *p == '\n';
  return count;
}

int64_t FindLastRecordEnd(const char* data, int64_t from, int64_t size, char quote,
                          bool* in_quote, bool lone_cr) {
  int64_t best = -1;
  int64_t pos = from;
  bool q = *in_quote;
  while (pos < size) {
    const void* hit =
        quote == '\0' ? nullptr : std::memchr(data + pos, quote, static_cast<size_t>(size - pos));
    int64_t seg_end = hit ? static_cast<const char*>(hit) - data : size;
    if (!q && seg_end > pos) {
      const void* nl = memrchr(data + pos, '\n', static_cast<size_t>(seg_end - pos));
      if (nl != nullptr) {
        best = static_cast<const char*>(nl) - data + 1;
      } else if (best < 0 && lone_cr) {
        // Files with lone CR line ends: split after a CR that cannot be the
        // first half of a CRLF cut by the block end.
        const void* cr = memrchr(data + pos, '\r', static_cast<size_t>(seg_end - pos));
        int64_t at = cr ? static_cast<const char*>(cr) - data : -1;
        if (at >= 0 && at + 1 < size && data[at + 1] != '\n') best = at + 1;
      }
    }
    if (hit == nullptr) break;
    q = !q;
    pos = seg_end + 1;
  }
  *in_quote = q;
  return best;
}

}  // namespace alkaid::text::internal
