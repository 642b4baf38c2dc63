#include "tokenizer.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

#include "../util/cpu_features.h"
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../text/block_limits.h"
#include "../text/record_ends.h"

namespace alkaid::csv::internal {

using text::internal::CountLineFeeds;
using text::internal::MissingAllowance;

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

namespace {

// The classes of the 64 bytes of one chunk, a bit per byte: delimiter or LF
// (each ends a field), LF alone (ends a record), quote or CR (what the fast
// path below leaves to the general one).
struct ChunkMasks {
  uint64_t fields;
  uint64_t lf;
  uint64_t odd;
};

// Baseline x86-64 (SSE2), or a byte loop elsewhere.
struct BaselineMasks {
  BaselineMasks(char delim, char quote) : delim_(delim), quote_(quote) {}
  __attribute__((always_inline)) ChunkMasks operator()(const char* p) const {
#if defined(__SSE2__)
    const __m128i vd = _mm_set1_epi8(delim_), vq = _mm_set1_epi8(quote_),
                  vn = _mm_set1_epi8('\n'), vr = _mm_set1_epi8('\r');
    uint64_t f = 0, l = 0, o = 0;
    for (int k = 0; k < 4; ++k) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      __m128i n = _mm_cmpeq_epi8(v, vn);
      __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, vd), n);
      __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, vq), _mm_cmpeq_epi8(v, vr));
      f |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(a))) << (16 * k);
      l |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(n))) << (16 * k);
      o |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(b))) << (16 * k);
    }
    return {f, l, o};
#else
    uint64_t f = 0, l = 0, o = 0;
    for (int i = 0; i < 64; ++i) {
      char ch = p[i];
      f |= static_cast<uint64_t>(ch == delim_ || ch == '\n') << i;
      l |= static_cast<uint64_t>(ch == '\n') << i;
      o |= static_cast<uint64_t>(ch == quote_ || ch == '\r') << i;
    }
    return {f, l, o};
#endif
  }
  char delim_, quote_;
};

// The common case, from the record start `p`: records of exactly `ncols`
// unquoted fields ending in a bare LF, no quote or CR in them. Each 64-byte
// chunk is classified by `masks` (vector compares); every delimiter or LF
// bit ends a field (a few scalar operations per field, none per byte), and
// each LF bit checks that its record had ncols fields. Writes the fields at
// fields[*nf..] and stops before the first record it cannot take whole (a
// quote or CR in it, another field count, no LF before `size`), at
// max_rows (the caller starts below it), or when fewer than 64 + ncols free
// slots are left; returns where it stopped, a record start, where the
// general tokenizer carries on.
//
// Always inlined into the entry points below, one per instruction set (each
// a function of this file's anonymous namespace with its own target), so
// nothing compiled for AVX2 is shared with baseline code.
template <typename Masks>
__attribute__((always_inline)) inline int64_t FastRecordsBody(
    const char* data, int64_t p, int64_t size, int ncols, FieldRef* fields, size_t* nf, size_t cap,
    int64_t* rows, int64_t max_rows, const Masks& masks) {
  FieldRef* out = fields + *nf;  // the next field's slot
  FieldRef* row_first = out;     // first field of the record under way
  int64_t r = *rows;
  int64_t row_start = p;
  uint32_t start = static_cast<uint32_t>(p);  // of the field under way (blocks are below 2^29 bytes)
  const size_t width = static_cast<size_t>(ncols);
  // A chunk adds at most 64 fields: it starts only with 64 + ncols free slots.
  if (*nf + 64 + width > cap) return p;
  const FieldRef* const last_start = fields + (cap - 64 - width);
  int64_t base = p & ~int64_t{63};
  uint64_t live = ~uint64_t{0} << (p - base);
  while (true) {
    if (size - base < 64) live &= (uint64_t{1} << (size - base)) - 1;
    const ChunkMasks cm = masks(data + base);
    uint64_t m = cm.fields & live;
    uint64_t lf = cm.lf & live;
    const uint64_t odd = cm.odd & live;
    bool stop = false;
    if (odd != 0) {
      // Fields before the first quote or CR only; the record holding it goes
      // to the general path.
      const uint64_t before = (odd & (0 - odd)) - 1;
      m &= before;
      lf &= before;
      stop = true;
    }
    const auto base32 = static_cast<uint32_t>(base);
    while (m != 0) {
      // The fields up to and including the first LF (all of m without one).
      uint64_t seg = lf != 0 ? m & (lf ^ (lf - 1)) : m;
      m ^= seg;
      do {
        const uint32_t e = base32 + static_cast<uint32_t>(__builtin_ctzll(seg));
        *out++ = FieldRef(start, e - start);
        start = e + 1;
        seg &= seg - 1;
        // Opaque to the optimizer, so that it keeps `out` as the loop left
        // it instead of recomputing it after the loop from a popcount.
        __asm__("" : "+r"(out));
      } while (seg != 0);
      if (lf == 0) break;
      lf &= lf - 1;
      if (out != row_first + width) {
        stop = true;
        break;
      }
      row_first = out;
      row_start = start;
      if (++r == max_rows) {
        stop = true;
        break;
      }
    }
    if (stop || size - base <= 64 || out > last_start) break;
    base += 64;
    live = ~uint64_t{0};
  }
  *nf = static_cast<size_t>(row_first - fields);
  *rows = r;
  return row_start;
}

int64_t FastRecordsBaseline(const char* data, int64_t p, int64_t size, char delim, char quote,
                            int ncols, FieldRef* fields, size_t* nf, size_t cap, int64_t* rows,
                            int64_t max_rows) {
  return FastRecordsBody(data, p, size, ncols, fields, nf, cap, rows, max_rows,
                         BaselineMasks(delim, quote));
}

using FastRecordsFn = int64_t (*)(const char*, int64_t, int64_t, char, char, int, FieldRef*, size_t*,
                                  size_t, int64_t*, int64_t);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ALKAID_CSV_AVX2 1
// Two 32-byte loads per chunk.
struct Avx2Masks {
  __attribute__((target("avx2"))) Avx2Masks(char delim, char quote)
      : vd(_mm256_set1_epi8(delim)), vq(_mm256_set1_epi8(quote)), vn(_mm256_set1_epi8('\n')),
        vr(_mm256_set1_epi8('\r')) {}
  // Not always_inline: the body's own (baseline) instance may not inline
  // it; the flattened entry point below does.
  __attribute__((target("avx2"))) ChunkMasks operator()(const char* p) const {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const __m256i nlo = _mm256_cmpeq_epi8(lo, vn), nhi = _mm256_cmpeq_epi8(hi, vn);
    const __m256i flo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, vd), nlo);
    const __m256i fhi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, vd), nhi);
    const __m256i olo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, vq), _mm256_cmpeq_epi8(lo, vr));
    const __m256i ohi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, vq), _mm256_cmpeq_epi8(hi, vr));
    return {Bits(flo, fhi), Bits(nlo, nhi), Bits(olo, ohi)};
  }
  __attribute__((target("avx2"))) static uint64_t Bits(__m256i a, __m256i b) {
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(a))) |
           static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(b))) << 32;
  }
  __m256i vd, vq, vn, vr;
};

// The body compiled for AVX2 and BMI (tzcnt, blsr), the masks inlined into
// it (flatten); called only when the CPU has both.
__attribute__((target("avx2,bmi,bmi2"), flatten)) int64_t FastRecordsAvx2(
    const char* data, int64_t p, int64_t size, char delim, char quote, int ncols, FieldRef* fields,
    size_t* nf, size_t cap, int64_t* rows, int64_t max_rows) {
  return FastRecordsBody(data, p, size, ncols, fields, nf, cap, rows, max_rows, Avx2Masks(delim, quote));
}

// One 64-byte load and three byte compares straight into mask registers.
struct Avx512Masks {
  __attribute__((target("avx512f,avx512bw"))) Avx512Masks(char delim, char quote)
      : vd(_mm512_set1_epi8(delim)), vq(_mm512_set1_epi8(quote)), vn(_mm512_set1_epi8('\n')),
        vr(_mm512_set1_epi8('\r')) {}
  __attribute__((target("avx512f,avx512bw"))) ChunkMasks operator()(const char* p) const {
    const __m512i v = _mm512_loadu_si512(p);
    const uint64_t lf = _mm512_cmpeq_epi8_mask(v, vn);
    return {_mm512_cmpeq_epi8_mask(v, vd) | lf, lf,
            _mm512_cmpeq_epi8_mask(v, vq) | _mm512_cmpeq_epi8_mask(v, vr)};
  }
  __m512i vd, vq, vn, vr;
};

__attribute__((target("avx512f,avx512bw,bmi,bmi2"), flatten)) int64_t FastRecordsAvx512(
    const char* data, int64_t p, int64_t size, char delim, char quote, int ncols, FieldRef* fields,
    size_t* nf, size_t cap, int64_t* rows, int64_t max_rows) {
  return FastRecordsBody(data, p, size, ncols, fields, nf, cap, rows, max_rows, Avx512Masks(delim, quote));
}

#endif

FastRecordsFn FastRecordsFor(int level) {
#if defined(ALKAID_CSV_AVX2)
  if (level >= 3 && alkaid::internal::CpuHasAvx512Bw()) return FastRecordsAvx512;
  if (level >= 2 && alkaid::internal::CpuHasAvx2Bmi2()) return FastRecordsAvx2;
#endif
  (void)level;
  return FastRecordsBaseline;
}

}  // namespace

bool Tokenize(const char* data, int64_t begin, int64_t size, const TokenizeOptions& options,
              int64_t max_rows, Tokens* out, BlockError* error) {
  const char delim = options.delimiter;
  const char quote = options.quote;
  SpecialScanner scanner(data, delim, quote);
  const FastRecordsFn fast_records = FastRecordsFor(options.fast_path);
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

  const int64_t missing_allowance =
      MissingAllowance(size - begin, options.missing_per_byte, options.missing_floor);
  int64_t missing_left = missing_allowance;

  auto fail = [&](int64_t line_delta, auto&&... args) {
    fields.resize(nf);
    error->line_delta = line_delta;
    error->status = Status::Invalid(std::forward<decltype(args)>(args)...);
    return false;
  };

  const int64_t row_limit =
      max_rows > INT64_MAX - out->num_rows ? INT64_MAX : out->num_rows + max_rows;
  while (p < size && rows < row_limit) {
    if (options.fast_path > 0 && (ncols > 1 || (ncols == 1 && !options.ignore_empty_lines)) &&
        (fast_misses < 64 || (fast_misses & 1023) == 0)) {
      // Room for 1,024 records, but not for more fields than the bytes left
      // can hold (a header of millions of columns would ask for gigabytes).
      room(static_cast<size_t>(std::min<int64_t>(int64_t{ncols} * 1024, size - p + ncols)) + 64);
      if (out->extra_lines.empty() ? extra != 0 : out->extra_lines.back().second != extra) {
        out->extra_lines.emplace_back(rows, extra);
      }
      int64_t before = rows;
      p = fast_records(data, p, size, delim, quote == '\0' ? '\r' : quote, ncols, fields.data(),
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
      missing_left -= ncols - nfields;
      if (missing_left < 0) {
        fail(row_line, "short records need more than the ", missing_allowance,
             " null fields this block's ", size - begin,
             " bytes allow (ReadOptions::missing_nulls_per_byte = ", options.missing_per_byte,
             " per byte, at least missing_nulls_floor = ", options.missing_floor,
             "): each field left out of a record is a null");
        error->status = error->status.WithDetail(
            {StatusDetail::Kind::kLimit, {"missing_nulls_per_byte"}});
        return false;
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

void Unescape(const char* text, uint32_t length, char quote, std::string* out) {
  out->clear();
  for (uint32_t i = 0; i < length; ++i) {
    out->push_back(text[i]);
    if (text[i] == quote && i + 1 < length && text[i + 1] == quote) ++i;
  }
}

}  // namespace alkaid::csv::internal
