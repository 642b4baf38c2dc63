#include "tokenizer.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace alkaid::csv::internal {

int64_t Tokens::LineDelta(int64_t row) const {
  auto it = std::upper_bound(extra_lines.begin(), extra_lines.end(), row,
                             [](int64_t r, const std::pair<int64_t, int64_t>& e) {
                               return r < e.first;
                             });
  int64_t extra = it == extra_lines.begin() ? 0 : std::prev(it)->second;
  return row + extra;
}

namespace {

// Bit i set when data[base + i] is the delimiter, the quote, LF or CR.
class SpecialScanner {
 public:
  SpecialScanner(const char* data, char delimiter, char quote)
      : data_(data), d_(delimiter), q_(quote == '\0' ? delimiter : quote) {
#if defined(__SSE2__)
    vd_ = _mm_set1_epi8(d_);
    vq_ = _mm_set1_epi8(q_);
    vn_ = _mm_set1_epi8('\n');
    vr_ = _mm_set1_epi8('\r');
#endif
  }

  uint64_t Mask(int64_t base) const {
    const char* p = data_ + base;
#if defined(__SSE2__)
    uint64_t m = 0;
    for (int k = 0; k < 4; ++k) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      __m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, vd_), _mm_cmpeq_epi8(v, vq_)),
                               _mm_or_si128(_mm_cmpeq_epi8(v, vn_), _mm_cmpeq_epi8(v, vr_)));
      m |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(e))) << (16 * k);
    }
    return m;
#else
    uint64_t m = 0;
    for (int i = 0; i < 64; ++i) {
      char c = p[i];
      if (c == d_ || c == q_ || c == '\n' || c == '\r') m |= uint64_t{1} << i;
    }
    return m;
#endif
  }

  // The first special byte at or after p, or `size`.
  int64_t Next(int64_t p, int64_t size) {
    int64_t base = p & ~int64_t{63};
    if (base != base_) {
      base_ = base;
      mask_ = Mask(base);
    }
    uint64_t m = mask_ & (~uint64_t{0} << (p - base));
    while (m == 0) {
      base_ += 64;
      if (base_ >= size) return size;
      mask_ = Mask(base_);
      m = mask_;
    }
    int64_t r = base_ + __builtin_ctzll(m);
    return r < size ? r : size;
  }

 private:
  const char* data_;
  char d_, q_;
  int64_t base_ = -64;
  uint64_t mask_ = 0;
#if defined(__SSE2__)
  __m128i vd_, vq_, vn_, vr_;
#endif
};

std::string Excerpt(const char* p, int64_t n) {
  constexpr int64_t kMax = 40;
  std::string s(p, static_cast<size_t>(std::min(n, kMax)));
  if (n > kMax) s += "...";
  return s;
}

}  // namespace

int64_t CountLineFeeds(const char* p, int64_t n) {
  int64_t count = 0;
  const char* end = p + n;
  while (p < end) {
    const void* hit = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (hit == nullptr) break;
    ++count;
    p = static_cast<const char*>(hit) + 1;
  }
  return count;
}

bool Tokenize(const char* data, int64_t begin, int64_t size, const TokenizeOptions& options,
              int64_t max_rows, Tokens* out, BlockError* error) {
  const char delim = options.delimiter;
  const char quote = options.quote;
  SpecialScanner scanner(data, delim, quote);
  int64_t p = begin;
  int64_t lines = 0;        // line delta of the current position
  int64_t extra = out->extra_lines.empty() ? 0 : out->extra_lines.back().second;
  int64_t rows = out->num_rows;
  int ncols = out->num_columns;
  auto& fields = out->fields;
  if (ncols > 0) fields.reserve(fields.size() + static_cast<size_t>((size - begin) / 8 + ncols));

  auto fail = [&](int64_t line_delta, auto&&... args) {
    error->line_delta = line_delta;
    error->status = Status::Invalid(std::forward<decltype(args)>(args)...);
    return false;
  };

  while (p < size && rows - out->num_rows < max_rows) {
    char c0 = data[p];
    if (options.ignore_empty_lines && (c0 == '\n' || c0 == '\r')) {
      p += (c0 == '\r' && p + 1 < size && data[p + 1] == '\n') ? 2 : 1;
      ++lines;
      ++extra;
      continue;
    }
    if (out->extra_lines.empty() ? extra != 0 : out->extra_lines.back().second != extra) {
      out->extra_lines.emplace_back(rows, extra);
    }
    const int64_t row_line = lines;
    const size_t row_first_field = fields.size();
    int nfields = 0;
    while (true) {
      FieldRef f;
      if (quote != '\0' && p < size && data[p] == quote) {
        int64_t start = p + 1;
        int64_t q = start;
        uint32_t flags = FieldRef::kQuoted;
        int64_t close;
        while (true) {
          const void* hit = std::memchr(data + q, quote, static_cast<size_t>(size - q));
          if (hit == nullptr) {
            return fail(row_line, "a quoted field (column ", nfields + 1,
                        ") is never closed: ", Excerpt(data + p, size - p));
          }
          close = static_cast<const char*>(hit) - data;
          if (close + 1 < size && data[close + 1] == quote) {
            flags |= FieldRef::kEscaped;
            q = close + 2;
            continue;
          }
          break;
        }
        int64_t inner = CountLineFeeds(data + start, close - start);
        lines += inner;
        extra += inner;
        p = close + 1;
        if (p < size && data[p] != delim && data[p] != '\n' && data[p] != '\r') {
          return fail(row_line, "column ", nfields + 1, ": unexpected text after the closing quote: ",
                      Excerpt(data + start - 1, p + 1 - (start - 1)));
        }
        f.start = static_cast<uint32_t>(start);
        f.bits = static_cast<uint32_t>(close - start) | flags;
      } else {
        int64_t e = scanner.Next(p, size);
        if (e < size && quote != '\0' && data[e] == quote) {
          return fail(row_line, "column ", nfields + 1,
                      ": a quote inside an unquoted field (quote the whole field and double the "
                      "quote): ",
                      Excerpt(data + p, std::min(size, e + 1) - p));
        }
        f.start = static_cast<uint32_t>(p);
        f.bits = static_cast<uint32_t>(e - p);
        p = e;
      }
      if (ncols < 0 || nfields < ncols) {
        fields.push_back(f);
      } else {
        return fail(row_line, "a record has more than ", ncols, " fields");
      }
      ++nfields;
      if (p >= size) break;
      char c = data[p];
      if (c == delim) {
        ++p;
        continue;  // another field follows, even at the very end
      }
      p += (c == '\r' && p + 1 < size && data[p + 1] == '\n') ? 2 : 1;
      ++lines;
      break;
    }
    if (ncols < 0) {
      ncols = nfields;
      out->num_columns = ncols;
    } else if (nfields < ncols) {
      if (!options.fill_missing) {
        return fail(row_line, "a record has ", nfields, " field", nfields == 1 ? "" : "s",
                    " where ", ncols, " were expected");
      }
      for (int i = nfields; i < ncols; ++i) fields.push_back(FieldRef{0, FieldRef::kMissing});
    }
    (void)row_first_field;
    ++rows;
  }
  out->num_rows = rows;
  out->end = p;
  out->lines += lines;
  return true;
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

void Unescape(const char* text, uint32_t length, char quote, std::string* out) {
  out->clear();
  for (uint32_t i = 0; i < length; ++i) {
    out->push_back(text[i]);
    if (text[i] == quote && i + 1 < length && text[i + 1] == quote) ++i;
  }
}

}  // namespace alkaid::csv::internal
