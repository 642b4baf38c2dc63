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

namespace {

// Bits of the 64 bytes at p: delimiter or LF in *fields, quote or CR in
// *odd (what the fast path below leaves to the general one).
inline void ChunkMasks(const char* p, char delim, char quote, uint64_t* fields, uint64_t* odd) {
#if defined(__SSE2__)
  const __m128i vd = _mm_set1_epi8(delim), vq = _mm_set1_epi8(quote),
                vn = _mm_set1_epi8('\n'), vr = _mm_set1_epi8('\r');
  uint64_t f = 0, o = 0;
  for (int k = 0; k < 4; ++k) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, vd), _mm_cmpeq_epi8(v, vn));
    __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, vq), _mm_cmpeq_epi8(v, vr));
    f |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(a))) << (16 * k);
    o |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(b))) << (16 * k);
  }
  *fields = f;
  *odd = o;
#else
  uint64_t f = 0, o = 0;
  for (int i = 0; i < 64; ++i) {
    char c = p[i];
    f |= static_cast<uint64_t>(c == delim || c == '\n') << i;
    o |= static_cast<uint64_t>(c == quote || c == '\r') << i;
  }
  *fields = f;
  *odd = o;
#endif
}

// The common case, from the record start `p`: records of exactly `ncols`
// unquoted fields ending in a bare LF, no quote or CR in them. Each 64-byte
// chunk is classified once with a few vector compares, and every delimiter
// or LF bit ends a field (a short loop per field, no per-byte work); a LF
// checks that its record had ncols fields. Writes the fields at fields[*nf..]
// and stops before the first record it cannot take whole (a quote or CR in
// it, another field count, no LF before `size`), at max_rows, or when fewer
// than 64 + ncols free slots are left; returns where it stopped, a record
// start, where the general tokenizer carries on.
int64_t FastRecords(const char* data, int64_t p, int64_t size, char delim, char quote, int ncols,
                    FieldRef* fields, size_t* nf, size_t cap, int64_t* rows, int64_t max_rows) {
  size_t n = *nf;
  size_t row_first = n;  // first field of the record under way
  int64_t r = *rows;
  int64_t row_start = p;
  int64_t start = p;  // of the field under way
  const size_t width = static_cast<size_t>(ncols);
  int64_t base = p & ~int64_t{63};
  while (base < size && r < max_rows && n + 64 + width <= cap) {
    uint64_t fm, om;
    ChunkMasks(data + base, delim, quote, &fm, &om);
    const int64_t offset = p - base;  // 0..63
    uint64_t live = ~uint64_t{0} << offset;
    if (size - base < 64) live &= (uint64_t{1} << (size - base)) - 1;
    uint64_t m = fm & live;
    uint64_t odd = om & live;
    bool stop = false;
    if (odd != 0) {
      // Fields before the first quote or CR only; the record holding it goes
      // to the general path.
      m &= (odd & (0 - odd)) - 1;
      stop = true;
    }
    while (m != 0) {
      const int i = __builtin_ctzll(m);
      const int64_t e = base + i;
      fields[n] = FieldRef(static_cast<uint32_t>(start), static_cast<uint32_t>(e - start));
      ++n;
      start = e + 1;
      if (data[e] == '\n') {
        if (n - row_first != width) {
          stop = true;
          break;
        }
        row_first = n;
        row_start = start;
        if (++r == max_rows) {
          stop = true;
          break;
        }
      }
      m &= m - 1;
    }
    if (stop || size - base <= 64) break;
    base += 64;
    p = base;
  }
  *nf = row_first;
  *rows = r;
  return row_start;
}

}  // namespace

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
  // Fields are written into a sized vector (FieldRef leaves its members
  // uninitialized, so sizing writes nothing) and trimmed at the end.
  size_t nf = fields.size();
  auto room = [&](size_t more) {
    if (nf + more > fields.size()) {
      fields.resize(std::max(fields.size() * 2, nf + more + static_cast<size_t>((size - begin) / 8)));
    }
  };
  // Records the fast path gave back in a row; after many (a file of quoted
  // fields) it rests for a while.
  int64_t fast_misses = 0;

  auto fail = [&](int64_t line_delta, auto&&... args) {
    fields.resize(nf);
    error->line_delta = line_delta;
    error->status = Status::Invalid(std::forward<decltype(args)>(args)...);
    return false;
  };

  const int64_t row_limit =
      max_rows > INT64_MAX - out->num_rows ? INT64_MAX : out->num_rows + max_rows;
  while (p < size && rows < row_limit) {
    if ((ncols > 1 || (ncols == 1 && !options.ignore_empty_lines)) &&
        (fast_misses < 64 || (fast_misses & 1023) == 0)) {
      room(static_cast<size_t>(ncols) * 1024 + 64);
      if (out->extra_lines.empty() ? extra != 0 : out->extra_lines.back().second != extra) {
        out->extra_lines.emplace_back(rows, extra);
      }
      int64_t before = rows;
      p = FastRecords(data, p, size, delim, quote == '\0' ? '\r' : quote, ncols, fields.data(),
                      &nf, fields.size(), &rows, row_limit);
      lines += rows - before;
      fast_misses = rows == before ? fast_misses + 1 : 0;
      if (p >= size || rows >= row_limit) break;
      if (nf + static_cast<size_t>(ncols) + 64 > fields.size()) continue;  // out of room only
    } else if (ncols > 0) {
      ++fast_misses;
    }
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
        room(1);
        fields[nf++] = f;
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
      room(static_cast<size_t>(ncols - nfields));
      for (int i = nfields; i < ncols; ++i) fields[nf++] = FieldRef(0, FieldRef::kMissing);
    }
    ++rows;
  }
  fields.resize(nf);
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
