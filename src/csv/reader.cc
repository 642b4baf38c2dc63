// CSV reader: a serial loader cuts the input into blocks of whole records,
// blocks are tokenized and converted to columns in parallel, and batches are
// handed out in input order. See include/alkaid/csv/api.h for the behaviour.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>

#include "alkaid/builder.h"
#include "alkaid/csv/api.h"
#include "alkaid/decimal.h"
#include "alkaid/encode.h"
#include "alkaid/float16.h"
#include "alkaid/thread_pool.h"
#include "alkaid/utf8.h"
#include "alkaid/visit_type.h"
#include "../text/fast_values.h"
#include "../text/text_values.h"
#include "pipeline.h"
#include "tokenizer.h"

namespace alkaid::csv {

using internal::BlockError;
using internal::FieldRef;
using internal::Tokens;
using internal::Loader;
using internal::RawBlock;

namespace {

// ---------------------------------------------------------------------------
// Inference

enum class Kind : int8_t { kNull, kBool, kInt, kFloat, kTemporal, kString };

struct Inferred {
  Kind kind = Kind::kNull;
  text::TemporalInference temporal;

  void Add(std::string_view s) {
    bool b;
    int64_t i;
    double d;
    switch (kind) {
      case Kind::kNull:
        if (text::ParseBool(s, &b)) {
          kind = Kind::kBool;
        } else if (text::ParseInt64(s, &i)) {
          kind = Kind::kInt;
        } else if (text::ParseDouble(s, &d)) {
          kind = Kind::kFloat;
        } else {
          kind = temporal.Add(s) ? Kind::kTemporal : Kind::kString;
        }
        return;
      case Kind::kBool:
        if (!text::ParseBool(s, &b)) kind = Kind::kString;
        return;
      case Kind::kInt:
        if (text::ParseInt64(s, &i)) return;
        kind = text::ParseDouble(s, &d) ? Kind::kFloat : Kind::kString;
        return;
      case Kind::kFloat:
        if (!text::ParseDouble(s, &d)) kind = Kind::kString;
        return;
      case Kind::kTemporal:
        if (!temporal.Add(s)) kind = Kind::kString;
        return;
      case Kind::kString:
        return;
    }
  }
  DataTypePtr Type(bool whole_input) const {
    switch (kind) {
      case Kind::kNull: return whole_input ? null() : utf8();
      case Kind::kBool: return boolean();
      case Kind::kInt: return int64();
      case Kind::kFloat: return float64();
      case Kind::kTemporal: {
        DataTypePtr t = temporal.Type();
        return t ? t : utf8();
      }
      case Kind::kString: return utf8();
    }
    return utf8();
  }
};

// ---------------------------------------------------------------------------
// Conversion of one column of one tokenized block.

struct NullMatcher {
  uint64_t length_mask = 0;  // bit L set when some null text has length L < 64
  std::vector<std::string> values;

  explicit NullMatcher(const std::vector<std::string>& v) : values(v) {
    for (const auto& s : v) {
      if (s.size() < 64) length_mask |= uint64_t{1} << s.size();
    }
  }
  __attribute__((always_inline)) bool Match(const char* p, uint32_t n) const {
    if (n >= 64 || !(length_mask >> n & 1)) return false;
    if (n == 0) return true;  // only "" has length 0
    for (const auto& s : values) {
      if (s.size() == n && s[0] == p[0] && std::memcmp(s.data(), p, n) == 0) return true;
    }
    return false;
  }
};

struct Block {
  RawBlock raw;
  int64_t begin = 0;  // first byte of data records (past the header in block 0)
  int64_t lines_before = 0;  // lines in [0, begin) not counted by tokens
  bool tokenized = false;
  bool ok = true;
  Tokens tokens;
  BlockError error;
  RecordBatchPtr batch;
  const char* data() const { return reinterpret_cast<const char*>(raw.buffer->data()); }
};

class ColumnConverter {
 public:
  ColumnConverter(const Block& block, int column, const std::string& name,
                  const ReadOptions& options, const NullMatcher& nulls, bool block_is_utf8,
                  const std::string& hint)
      : block_(block), tokens_(block.tokens), col_(column), name_(name), options_(options),
        nulls_(nulls), utf8_ok_(block_is_utf8), hint_(hint) {}

  Result<ArrayDataPtr> Convert(const DataTypePtr& type) {
    if (HasEncodedParts(*type)) {
      // dictionary<…> / run_end_encoded<…>: parsed as their values, then encoded.
      ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr plain, Convert(DecodedType(type)));
      if (failed) return plain;
      return EncodeAs(plain, type, options_.pool);
    }
    type_ = type;
    // The common types are written straight into their buffers (no builder,
    // no per-value virtual call); the rest go through a builder.
    switch (type->id()) {
      case TypeId::kInt64:
        return Direct<int64_t>([](const char* p, uint32_t n, int64_t* v)
                                   __attribute__((always_inline)) { return text::fast::ParseInt(p, n, v); });
      case TypeId::kDouble:
        return Direct<double>([](const char* p, uint32_t n, double* v)
                                  __attribute__((always_inline)) { return text::fast::ParseDouble(p, n, v); });
      case TypeId::kTimestamp: {
        const auto& t = checked_cast<TimestampType>(*type);
        TimeUnit unit = t.unit();
        bool zoned = !t.timezone().empty();
        // One loop per unit: the unit's checks are constants in it.
        switch (unit) {
          case TimeUnit::kSecond: return Timestamps<TimeUnit::kSecond>(zoned);
          case TimeUnit::kMilli: return Timestamps<TimeUnit::kMilli>(zoned);
          case TimeUnit::kMicro: return Timestamps<TimeUnit::kMicro>(zoned);
          case TimeUnit::kNano: return Timestamps<TimeUnit::kNano>(zoned);
        }
        break;
      }
      case TypeId::kString:
        return DirectStrings();
      default:
        break;
    }
    ALKAID_ASSIGN_OR_RAISE(builder_, MakeBuilder(type, options_.pool));
    type_ = type;
    ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, this));
    return builder_->Finish();
  }

  BlockError error;
  bool failed = false;

  // For columns declared not nullable: the error for the first null.
  void FailOnFirstNull() {
    for (int64_t r = 0; r < tokens_.num_rows; ++r) {
      FieldRef f = *Field(r);
      if (!IsNull(f)) continue;
      failed = true;
      error.line_delta = tokens_.LineDelta(r);
      error.status = Status::Invalid("column ", col_ + 1, " (", name_,
                                     ") is declared not nullable but the value is null");
      return;
    }
  }

  // Visitors -------------------------------------------------------------
  Status Visit(const NullType&) {
    return Each<NullBuilder>([&](NullBuilder*, std::string_view) { return false; });
  }
  Status Visit(const BooleanType&) {
    return Each<BooleanBuilder>([](BooleanBuilder* b, std::string_view s) {
      bool v;
      if (!text::ParseBool(s, &v)) return false;
      b->UnsafeAppend(v);
      return true;
    });
  }
  template <typename T>
    requires(std::is_integral_v<typename T::c_type> && std::is_base_of_v<FixedWidthType, T> &&
             !std::is_same_v<T, HalfFloatType>)
  Status Visit(const T& type) {
    using C = typename T::c_type;
    using B = NumericBuilder<T>;
    if constexpr (std::is_same_v<T, TimestampType>) {
      // Unit and zone looked up once per column, not per value.
      TimeUnit unit = type.unit();
      bool zoned = !type.timezone().empty();
      return Each<B>([unit, zoned](B* b, std::string_view s) {
        int64_t v;
        if (!text::ParseTimestampAs(s, unit, zoned, &v)) return false;
        b->UnsafeAppend(v);
        return true;
      });
    } else if constexpr (std::is_same_v<T, Date32Type> || std::is_same_v<T, Date64Type> ||
                         std::is_same_v<T, Time32Type> ||
                  std::is_same_v<T, Time64Type>) {
      return Each<B>([&type](B* b, std::string_view s) {
        int64_t v;
        if (!text::ParseTemporal(s, type, &v)) return false;
        b->UnsafeAppend(static_cast<C>(v));
        return true;
      });
    } else if constexpr (std::is_signed_v<C>) {
      return Each<B>([](B* b, std::string_view s) {
        int64_t v;
        if (!text::ParseInt64(s, &v) || v < std::numeric_limits<C>::min() ||
            v > std::numeric_limits<C>::max()) {
          return false;
        }
        b->UnsafeAppend(static_cast<C>(v));
        return true;
      });
    } else {
      return Each<B>([](B* b, std::string_view s) {
        uint64_t v;
        if (!text::ParseUInt64(s, &v) || v > std::numeric_limits<C>::max()) return false;
        b->UnsafeAppend(static_cast<C>(v));
        return true;
      });
    }
  }
  Status Visit(const FloatType&) { return Floats<FloatBuilder>(text::ParseFloat); }
  Status Visit(const DoubleType&) { return Floats<DoubleBuilder>(text::ParseDouble); }
  template <typename B, typename V>
  Status Floats(bool (*parse)(std::string_view, V*)) {
    return Each<B>([parse](B* b, std::string_view s) {
      V v;
      if (!parse(s, &v)) return false;
      b->UnsafeAppend(v);
      return true;
    });
  }
  Status Visit(const HalfFloatType&) {
    return Each<HalfFloatBuilder>([](HalfFloatBuilder* b, std::string_view s) {
      float v;
      if (!text::ParseFloat(s, &v)) return false;
      uint16_t half = FloatToHalf(v);
      // A finite number beyond half precision's range is refused, not made infinite.
      if (std::isfinite(v) && !std::isfinite(HalfToFloat(half))) return false;
      b->UnsafeAppend(half);
      return true;
    });
  }
  Status Visit(const DayTimeIntervalType&) {
    return Each<DayTimeIntervalBuilder>([](DayTimeIntervalBuilder* b, std::string_view s) {
      int64_t months, days, nanos;
      if (!text::ParseInterval(s, &months, &days, &nanos) || months != 0 || days < INT32_MIN ||
          days > INT32_MAX || nanos % 1'000'000 != 0 || nanos / 1'000'000 < INT32_MIN ||
          nanos / 1'000'000 > INT32_MAX) {
        return false;
      }
      b->UnsafeAppend(
          DayTimeInterval{static_cast<int32_t>(days), static_cast<int32_t>(nanos / 1'000'000)});
      return true;
    });
  }
  Status Visit(const MonthDayNanoIntervalType&) {
    return Each<MonthDayNanoIntervalBuilder>([](MonthDayNanoIntervalBuilder* b, std::string_view s) {
      int64_t months, days, nanos;
      if (!text::ParseInterval(s, &months, &days, &nanos) || months < INT32_MIN ||
          months > INT32_MAX || days < INT32_MIN || days > INT32_MAX) {
        return false;
      }
      b->UnsafeAppend(MonthDayNanoInterval{static_cast<int32_t>(months),
                                           static_cast<int32_t>(days), nanos});
      return true;
    });
  }
  Status Visit(const Decimal32Type&) { return Decimals(); }
  Status Visit(const Decimal64Type&) { return Decimals(); }
  Status Visit(const Decimal128Type&) { return Decimals(); }
  Status Visit(const Decimal256Type&) { return Decimals(); }
  Status Decimals() {
    const auto& dt = checked_cast<DecimalType>(*type_);
    int width = dt.byte_width();
    int32_t scale = dt.scale();
    return Each<DecimalBuilder>([=](DecimalBuilder* b, std::string_view s) {
      uint8_t bytes[32];
      if (!DecimalFromString(s, width, scale, bytes).ok()) return false;
      b->UnsafeAppend(bytes);
      return true;
    });
  }
  Status Visit(const FixedSizeBinaryType&) {
    return Each<FixedSizeBinaryBuilder>(
        [](FixedSizeBinaryBuilder* b, std::string_view s) { return b->Append(s).ok(); });
  }
  Status Visit(const StringType&) { return Strings<StringBuilder>(true); }
  Status Visit(const LargeStringType&) { return Strings<LargeStringBuilder>(true); }
  Status Visit(const BinaryType&) { return Strings<BinaryBuilder>(false); }
  Status Visit(const LargeBinaryType&) { return Strings<LargeBinaryBuilder>(false); }
  Status Visit(const StringViewType&) { return Strings<BinaryViewBuilder>(true); }
  Status Visit(const BinaryViewType&) { return Strings<BinaryViewBuilder>(false); }
  template <typename T>
  Status Visit(const T& type) {
    return Status::NotImplemented("reading CSV column ", col_ + 1, " (", name_, ") as ",
                                  type.ToString());
  }

 private:
  // Whether some null spelling is also a value of the column's type (then
  // nulls are matched before parsing; otherwise only texts that fail to
  // parse are matched against the null spellings).
  template <typename C, typename Parse>
  bool NullsParse(Parse& parse) {
    for (const auto& v : nulls_.values) {
      C x;
      if (ParsePadded(parse, v, &x)) return true;
    }
    return false;
  }

  // parse() on text outside the block (unescaped fields, null spellings):
  // copied with the padding the fast parsers may read.
  template <typename C, typename Parse>
  bool ParsePadded(Parse& parse, std::string_view s, C* out) {
    padded_.assign(s);
    padded_.append(8, '\0');
    return parse(padded_.data(), static_cast<uint32_t>(s.size()), out);
  }

  template <TimeUnit kUnit>
  Result<ArrayDataPtr> Timestamps(bool zoned) {
    return Direct<int64_t>([zoned](const char* p, uint32_t n, int64_t* v) __attribute__((always_inline)) {
      // An empty field (a null) needs no general parser.
      return text::fast::FixedTimestampAs(p, n, kUnit, zoned, v) ||
             (n != 0 && text::ParseTimestampAs(std::string_view(p, n), kUnit, zoned, v));
    });
  }

  // The rows of a Direct column, 64 at a time (one validity word each):
  // false after Fail(). Not inlined into Direct(): on its own the loop keeps
  // its pointers in registers (about 10 fewer instructions per value).
  template <typename C, bool kNullsFirst, typename Parse>
  __attribute__((noinline)) bool DirectLoop(Parse& parse, C* out, uint8_t* bits, int64_t* null_count) {
    const int64_t rows = tokens_.num_rows;
    const char* data = block_.data();
    const FieldRef* f = ColumnStart();
    const size_t stride = static_cast<size_t>(tokens_.num_columns);
    int64_t nulls = 0;
    for (int64_t r0 = 0; r0 < rows; r0 += 64) {
      const int n = static_cast<int>(std::min<int64_t>(64, rows - r0));
      C* o = out + r0;
      uint64_t invalid = 0;  // bits of the nulls (rare: set off the common path)
      for (int j = 0; j < n; ++j, f += stride) {
        const FieldRef fr = *f;
        bool valid;
        if (__builtin_expect(!kNullsFirst && (fr.bits & ~FieldRef::kLengthMask) == 0, 1)) {
          // Plain field: parse, and only a failure may be a null.
          valid = parse(data + fr.start, fr.bits, o + j);
          if (__builtin_expect(!valid, 0) && !nulls_.Match(data + fr.start, fr.bits)) {
            (void)Fail(r0 + j, std::string_view(data + fr.start, fr.bits), "is not a valid");
            return false;
          }
        } else if (IsNull(fr)) {
          valid = false;
        } else {
          std::string_view s = Text(fr);
          valid = (fr.bits & FieldRef::kEscaped) ? ParsePadded(parse, s, o + j)
                                                 : parse(s.data(), static_cast<uint32_t>(s.size()), o + j);
          if (!valid) {
            (void)Fail(r0 + j, s, "is not a valid");
            return false;
          }
        }
        if (__builtin_expect(!valid, 0)) {
          o[j] = C{};
          ++nulls;
          invalid |= uint64_t{1} << j;
        }
      }
      if (n == 64) {
        const uint64_t word = ~invalid;
        std::memcpy(bits + (r0 >> 3), &word, 8);
      } else {
        const uint64_t word = ~invalid & ((uint64_t{1} << n) - 1);  // the last rows: no bits past them
        std::memcpy(bits + (r0 >> 3), &word, static_cast<size_t>(bit_util::BytesForBits(n)));
      }
    }
    *null_count = nulls;
    return true;
  }

  // A fixed-width column written directly: values and validity bits.
  template <typename C, typename Parse>
  Result<ArrayDataPtr> Direct(Parse&& parse) {
    const int64_t rows = tokens_.num_rows;
    // Every value slot and validity byte is written below: no zero fill.
    auto values = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(values->ResizeForOverwrite(rows * static_cast<int64_t>(sizeof(C))));
    auto validity = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(validity->ResizeForOverwrite(bit_util::BytesForBits(rows)));
    C* out = reinterpret_cast<C*>(values->mutable_data());
    uint8_t* bits = validity->mutable_data();
    int64_t nulls = 0;
    // One loop for columns whose null spellings never parse (the common
    // case: a field that parses is a value), one for the others.
    const bool done = NullsParse<C>(parse) ? DirectLoop<C, true>(parse, out, bits, &nulls)
                                           : DirectLoop<C, false>(parse, out, bits, &nulls);
    if (!done) return ArrayDataPtr();
    BufferVector buffers;
    buffers.push_back(nulls != 0 ? BufferPtr(std::move(validity)) : BufferPtr());
    buffers.push_back(std::move(values));
    return std::make_shared<ArrayData>(type_, rows, std::move(buffers), nulls);
  }

  // The rows of a utf8 column (offsets, bytes, validity words): false after
  // a UTF-8 error. Not inlined, like DirectLoop.
  __attribute__((noinline)) bool StringsLoop(int32_t* offs, char* dst, uint8_t* bits, int32_t* end,
                                             int64_t* null_count) {
    const int64_t rows = tokens_.num_rows;
    const char* data = block_.data();
    const size_t stride = static_cast<size_t>(tokens_.num_columns);
    const bool check = !utf8_ok_;
    int64_t nulls = 0;
    int32_t pos = 0;
    offs[0] = 0;
    const FieldRef* f = ColumnStart();
    for (int64_t r0 = 0; r0 < rows; r0 += 64) {
      const int n64 = static_cast<int>(std::min<int64_t>(64, rows - r0));
      uint64_t invalid = 0;  // bits of the nulls, 64 rows at a time
      for (int j = 0; j < n64; ++j, f += stride) {
        const FieldRef fr = *f;
        if (__builtin_expect(!IsNull(fr), 1)) {
          if (__builtin_expect((fr.bits & FieldRef::kEscaped) == 0, 1)) {
            const char* src = data + fr.start;
            uint32_t n = fr.length();
            if (check && !CheckUtf8(r0 + j, src, n)) return false;
            char* d = dst + pos;
            for (uint32_t i = 0; i < n; i += 16) std::memcpy(d + i, src + i, 16);
            pos += static_cast<int32_t>(n);
          } else {
            std::string_view s = Text(fr);
            if (check && !CheckUtf8(r0 + j, s.data(), static_cast<uint32_t>(s.size()))) return false;
            std::memcpy(dst + pos, s.data(), s.size());
            pos += static_cast<int32_t>(s.size());
          }
        } else {
          ++nulls;
          invalid |= uint64_t{1} << j;
        }
        offs[r0 + j + 1] = pos;
      }
      if (n64 == 64) {
        const uint64_t word = ~invalid;
        std::memcpy(bits + (r0 >> 3), &word, 8);
      } else {
        const uint64_t word = ~invalid & ((uint64_t{1} << n64) - 1);
        std::memcpy(bits + (r0 >> 3), &word, static_cast<size_t>(bit_util::BytesForBits(n64)));
      }
    }
    *end = pos;
    *null_count = nulls;
    return true;
  }

  // utf8 written directly: offsets, then the bytes copied 16 at a time (the
  // block and the data buffer both have room past the end for that).
  Result<ArrayDataPtr> DirectStrings() {
    const int64_t rows = tokens_.num_rows;
    const FieldRef* first = ColumnStart();
    const size_t stride = static_cast<size_t>(tokens_.num_columns);
    int64_t total = 0;
    for (int64_t r = 0; r < rows; ++r) total += first[static_cast<size_t>(r) * stride].length();
    if (total > INT32_MAX) return Status::Invalid("CSV block too large for a utf8 column");
    // Offsets, validity and the bytes up to the end are all written below
    // (the padding past the end is cleared at the end): no zero fill.
    auto offsets = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(offsets->ResizeForOverwrite((rows + 1) * 4));
    auto bytes = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(bytes->ResizeForOverwrite(total + 16));
    auto validity = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(validity->ResizeForOverwrite(bit_util::BytesForBits(rows)));
    int32_t* offs = reinterpret_cast<int32_t*>(offsets->mutable_data());
    char* dst = reinterpret_cast<char*>(bytes->mutable_data());
    uint8_t* bits = validity->mutable_data();
    int64_t nulls = 0;
    int32_t pos = 0;
    if (!StringsLoop(offs, dst, bits, &pos, &nulls)) return ArrayDataPtr();
    // The 16-byte copies may have written past the end: keep the padding zero.
    std::memset(dst + pos, 0, static_cast<size_t>(bytes->capacity() - pos));
    ALKAID_RETURN_NOT_OK(bytes->Resize(pos));
    BufferVector buffers;
    buffers.push_back(nulls != 0 ? BufferPtr(std::move(validity)) : BufferPtr());
    buffers.push_back(std::move(offsets));
    buffers.push_back(std::move(bytes));
    return std::make_shared<ArrayData>(type_, rows, std::move(buffers), nulls);
  }

  bool CheckUtf8(int64_t r, const char* p, uint32_t n) {
    int64_t bad = FindInvalidUtf8(reinterpret_cast<const uint8_t*>(p), static_cast<int64_t>(n));
    if (bad < 0) return true;
    failed = true;
    error.line_delta = tokens_.LineDelta(r);
    error.status = Status::Invalid("column ", col_ + 1, " (", name_, "): invalid UTF-8 at byte ", bad,
                                   " of the field (read the column as binary to keep the bytes)");
    return false;
  }

  std::string_view Text(FieldRef f) {
    const char* p = block_.data() + f.start;
    if (f.bits & FieldRef::kEscaped) {
      internal::Unescape(p, f.length(), options_.quote, &scratch_);
      return scratch_;
    }
    return std::string_view(p, f.length());
  }
  __attribute__((always_inline)) bool IsNull(FieldRef f) const {
    if (f.bits & FieldRef::kMissing) return true;
    if (f.bits & FieldRef::kQuoted) return false;
    return nulls_.Match(block_.data() + f.start, f.length());
  }
  // The column's field in row 0 (fields are row-major), or null for a block
  // without rows (no pointer arithmetic on an empty vector's null data).
  const FieldRef* ColumnStart() const {
    return tokens_.fields.empty() ? nullptr : tokens_.fields.data() + col_;
  }
  const FieldRef* Field(int64_t row) const {
    return &tokens_.fields[static_cast<size_t>(row * tokens_.num_columns + col_)];
  }

  Status Fail(int64_t row, std::string_view s, const char* what) {
    failed = true;
    error.line_delta = tokens_.LineDelta(row);
    std::string shown(s.substr(0, 60));
    if (s.size() > 60) shown += "...";
    error.status = Status::Invalid("column ", col_ + 1, " (", name_, "): \"", shown, "\" ", what,
                                   " ", type_->ToString(), hint_);
    // An inferred type (the hint says so): name the options that change it.
    if (!hint_.empty()) {
      error.status = error.status.WithDetail(
          {StatusDetail::Kind::kInferredType, {"inference_rows", "column_types"}});
    }
    return Status::OK();
  }

  // Appends every row: nulls, or parse(builder, text) which returns false
  // when the text is not a value of the type.
  template <typename B, typename Parse>
  Status Each(Parse&& parse) {
    auto* b = static_cast<B*>(builder_.get());
    int64_t rows = tokens_.num_rows;
    ALKAID_RETURN_NOT_OK(b->Reserve(rows));
    for (int64_t r = 0; r < rows; ++r) {
      FieldRef f = *Field(r);
      if (IsNull(f)) {
        ALKAID_RETURN_NOT_OK(b->AppendNull());
        continue;
      }
      std::string_view s = Text(f);
      if (!parse(b, s)) return Fail(r, s, "is not a valid");
    }
    return Status::OK();
  }

  template <typename B>
  Status Strings(bool utf8) {
    auto* b = static_cast<B*>(builder_.get());
    int64_t rows = tokens_.num_rows;
    ALKAID_RETURN_NOT_OK(b->Reserve(rows));
    if constexpr (!std::is_same_v<B, BinaryViewBuilder>) {
      int64_t bytes = 0;
      for (int64_t r = 0; r < rows; ++r) bytes += Field(r)->length();
      ALKAID_RETURN_NOT_OK(b->ReserveData(bytes));
    }
    bool check = utf8 && !utf8_ok_;
    for (int64_t r = 0; r < rows; ++r) {
      FieldRef f = *Field(r);
      if (IsNull(f)) {
        ALKAID_RETURN_NOT_OK(b->AppendNull());
        continue;
      }
      std::string_view s = Text(f);
      if (check) {
        int64_t bad = FindInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()),
                                      static_cast<int64_t>(s.size()));
        if (bad >= 0) {
          failed = true;
          error.line_delta = tokens_.LineDelta(r);
          error.status = Status::Invalid("column ", col_ + 1, " (", name_,
                                         "): invalid UTF-8 at byte ", bad,
                                         " of the field (read the column as binary to keep the "
                                         "bytes)");
          return Status::OK();
        }
      }
      if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
        ALKAID_RETURN_NOT_OK(b->Append(s));
      } else {
        b->UnsafeAppend(s);
      }
    }
    return Status::OK();
  }

  const Block& block_;
  const Tokens& tokens_;
  int col_;
  const std::string& name_;
  const ReadOptions& options_;
  const NullMatcher& nulls_;
  bool utf8_ok_;
  const std::string& hint_;
  DataTypePtr type_;
  ArrayBuilderPtr builder_;
  std::string scratch_;
  std::string padded_;
};

// ---------------------------------------------------------------------------

internal::LoaderOptions ToLoaderOptions(const ReadOptions& o) {
  internal::LoaderOptions l;
  l.quote = o.quote;
  l.block_size = o.block_size;
  l.max_record_bytes = o.max_record_bytes;
  l.skip_lines = o.skip_rows;
  l.pool = o.pool;
  return l;
}

class CsvReader final : public RecordBatchReader {
 public:
  CsvReader(std::shared_ptr<io::InputStream> input, const ReadOptions& options)
      : options_(options),
        loader_(std::move(input), ToLoaderOptions(options_)),
        nulls_(options.null_values) {
    tok_.delimiter = options.delimiter;
    tok_.quote = options.quote;
    tok_.ignore_empty_lines = options.ignore_empty_lines;
    tok_.fill_missing = options.ragged_rows == RaggedRows::kFillNull;
    tok_.missing_per_byte = options.missing_nulls_per_byte;
    tok_.missing_floor = options.missing_nulls_floor;
    threads_ = options.num_threads > 0 ? options.num_threads : HardwareThreads();
  }

  const SchemaPtr& schema() const override { return schema_; }

  Status Init() {
    if (options_.missing_nulls_per_byte < 0 || options_.missing_nulls_floor < 0 ||
        options_.max_columns < 0) {
      return Status::Invalid("CSV missing_nulls_per_byte, missing_nulls_floor and max_columns "
                             "must not be negative");
    }
    if (options_.block_size < 1 || options_.max_record_bytes < 1 ||
        options_.block_size + options_.max_record_bytes + 256 > internal::kMaxBlockBytes) {
      return Status::Invalid("CSV block_size and max_record_bytes must be positive and sum to "
                             "less than ",
                             internal::kMaxBlockBytes, " bytes")
          .WithDetail({StatusDetail::Kind::kLimit, {"block_size", "max_record_bytes"}});
    }
    if (options_.delimiter == '\n' || options_.delimiter == '\r' ||
        options_.delimiter == options_.quote || options_.quote == '\n' || options_.quote == '\r') {
      return Status::Invalid("CSV delimiter and quote must differ from each other and from line "
                             "breaks");
    }
    ALKAID_ASSIGN_OR_RAISE(int64_t skipped, loader_.Start());
    next_line_ = skipped + 1;
    // The first block: the header record, if any, comes off its front.
    ALKAID_RETURN_NOT_OK(LoadBlock());
    int ncols = -1;
    std::vector<std::string> names;
    if (!pipeline_.pending().empty()) {
      Block& first = pipeline_.pending().front();
      if (!first.raw.error.ok()) return LocatedError(first.raw.error, 0);
      if (options_.schema) ncols = options_.schema->num_fields();
      if (!options_.column_names.empty()) ncols = static_cast<int>(options_.column_names.size());
      if (options_.header) {
        Tokens header;
        BlockError err;
        if (!internal::Tokenize(first.data(), 0, first.raw.size, tok_, 1, &header, &err)) {
          return LocatedError(err.status, err.line_delta);
        }
        if (header.num_rows == 1) {
          // As soon as the header is split, before a name is kept for each
          // column (unless include_columns picks some: checked below).
          ALKAID_RETURN_NOT_OK(CheckWidth(
              ncols < 0 && options_.include_columns.empty(), header.num_columns,
              "the header has " + std::to_string(header.num_columns) + " columns"));
          if (ncols >= 0 && header.num_columns != ncols) {
            return LocatedError(
                Status::Invalid("the header has ", header.num_columns, " fields but ", ncols,
                                " column names or schema fields were given"),
                header.LineDelta(0));
          }
          std::string scratch;
          for (const FieldRef& f : header.fields) {
            const char* p = first.data() + f.start;
            if (f.bits & FieldRef::kEscaped) {
              internal::Unescape(p, f.length(), options_.quote, &scratch);
              names.push_back(scratch);
            } else {
              names.emplace_back(p, f.length());
            }
          }
          ncols = header.num_columns;
          first.begin = header.end;
          first.lines_before = header.lines;
        }
      }
    }
    if (options_.schema) {
      names.clear();
      for (const auto& f : options_.schema->fields()) names.push_back(f->name());
    } else if (!options_.column_names.empty()) {
      names = options_.column_names;
    }
    if (names.empty() && ncols < 0 && !pipeline_.pending().empty()) {
      // No header: the first record says how many columns there are.
      Block& first = pipeline_.pending().front();
      Tokens probe;
      BlockError err;
      if (!internal::Tokenize(first.data(), first.begin, first.raw.size, tok_, 1, &probe, &err)) {
        return LocatedError(err.status, err.line_delta + first.lines_before);
      }
      ncols = probe.num_columns;
      ALKAID_RETURN_NOT_OK(
          CheckWidth(options_.include_columns.empty(), ncols,
                     "the first record has " + std::to_string(ncols) + " columns"));
    }
    if (names.empty()) {
      for (int i = 0; i < std::max(ncols, 0); ++i) {
        std::string name = std::to_string(i);
        name.insert(name.begin(), 'f');  // not "f" + ...: GCC 12 warns wrongly (-Wrestrict)
        names.push_back(std::move(name));
      }
    }
    ncols = static_cast<int>(names.size());
    names_ = names;
    ncols_ = ncols;
    inferred_.assign(static_cast<size_t>(ncols), false);
    // With one column an empty line is a record holding one empty field (a
    // null by default), which is how writers put such a null.
    if (ncols == 1) tok_.ignore_empty_lines = false;

    // Which columns, and their types.
    std::vector<DataTypePtr> types(static_cast<size_t>(ncols));
    if (options_.schema) {
      for (int i = 0; i < ncols; ++i) types[static_cast<size_t>(i)] = options_.schema->field(i)->type();
    }
    for (const auto& [name, type] : options_.column_types) {
      bool found = false;
      for (int i = 0; i < ncols; ++i) {
        if (names[static_cast<size_t>(i)] == name) {
          types[static_cast<size_t>(i)] = type;
          found = true;
        }
      }
      if (!found) return Status::KeyError("CSV column_types names '", name, "', which is not a column");
    }
    if (options_.include_columns.empty()) {
      for (int i = 0; i < ncols; ++i) selected_.push_back(i);
    } else {
      for (const auto& name : options_.include_columns) {
        auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
          return Status::KeyError("CSV include_columns names '", name, "', which is not a column");
        }
        selected_.push_back(static_cast<int>(it - names.begin()));
      }
    }

    // Wide input: the width the input gave is capped, and the blocks after
    // the first hold enough bytes a column.
    const auto width = static_cast<int64_t>(selected_.size());
    ALKAID_RETURN_NOT_OK(CheckWidth(!options_.schema && options_.column_names.empty(), width,
                                    "include_columns selects " + std::to_string(width) +
                                        " columns"));
    loader_.SetBlockSize(
        internal::BlockSizeForColumns(options_.block_size, options_.max_record_bytes, width));

    // Inference over the sample: tokenize blocks until it is big enough.
    bool need_inference = false;
    for (int c : selected_) need_inference |= types[static_cast<size_t>(c)] == nullptr;
    if (need_inference) {
      int64_t sample_rows = 0;
      size_t i = 0;
      while (true) {
        while (i < pipeline_.pending().size()) {
          Block& b = pipeline_.pending()[i++];
          ALKAID_RETURN_NOT_OK(TokenizeBlock(&b));
          if (!b.ok) break;
          sample_rows += b.tokens.num_rows;
        }
        if (sample_rows >= options_.inference_rows || loader_.done() ||
            (!pipeline_.pending().empty() && !pipeline_.pending().back().ok)) {
          break;
        }
        ALKAID_RETURN_NOT_OK(LoadBlock());
      }
      std::vector<Inferred> inferred(static_cast<size_t>(ncols));
      int64_t seen = 0;
      bool whole = loader_.done();
      for (Block& b : pipeline_.pending()) {
        if (!b.ok) {
          whole = false;
          break;
        }
        int64_t rows = std::min(b.tokens.num_rows, options_.inference_rows - seen);
        if (rows < b.tokens.num_rows) whole = false;
        for (int c : selected_) {
          if (types[static_cast<size_t>(c)]) continue;
          Inferred& inf = inferred[static_cast<size_t>(c)];
          for (int64_t r = 0; r < rows && inf.kind != Kind::kString; ++r) {
            FieldRef f = b.tokens.fields[static_cast<size_t>(r * ncols + c)];
            if (!(f.bits & FieldRef::kQuoted) &&
                ((f.bits & FieldRef::kMissing) || nulls_.Match(b.data() + f.start, f.length()))) {
              continue;
            }
            // Quoted fields are inferred from their content too (many
            // writers quote every field); text with doubled quotes is text.
            if (f.bits & FieldRef::kEscaped) {
              inf.kind = Kind::kString;
              continue;
            }
            inf.Add(std::string_view(b.data() + f.start, f.length()));
          }
        }
        seen += rows;
        if (seen >= options_.inference_rows) break;
      }
      for (int c : selected_) {
        if (!types[static_cast<size_t>(c)]) {
          types[static_cast<size_t>(c)] = inferred[static_cast<size_t>(c)].Type(whole);
          inferred_[static_cast<size_t>(c)] = true;
        }
      }
      hint_ = " (the type inferred from the first " + std::to_string(options_.inference_rows) +
              " records; raise inference_rows or give the column's type)";
    }
    FieldVector fields;
    for (int c : selected_) {
      // A given schema's fields are kept whole (nullability, metadata).
      const DataTypePtr& type = types[static_cast<size_t>(c)];
      fields.push_back(options_.schema ? options_.schema->field(c)->WithType(type)
                                       : field(names[static_cast<size_t>(c)], type));
    }
    types_ = std::move(types);
    schema_ = alkaid::schema(std::move(fields));
    return Status::OK();
  }

  Result<RecordBatchPtr> Next() override {
    return pipeline_.Next(
        loader_, threads_, [this] { return LoadBlock(); },
        [this](Block* b) { return ParseBlock(b); },
        [this](Block& b) -> Result<RecordBatchPtr> {
          if (!b.raw.error.ok()) return LocatedError(b.raw.error, 0);
          if (!b.ok) return LocatedError(b.error.status, b.error.line_delta + b.lines_before);
          next_line_ += b.lines_before + b.tokens.lines;
          return std::move(b.batch);
        });
  }

 private:
  // max_columns, for `columns` columns whose number the input gave
  // (`from_input`: no schema or column_names say it); `what` says where.
  Status CheckWidth(bool from_input, int64_t columns, const std::string& what) const {
    if (!from_input || options_.max_columns == 0 || columns <= options_.max_columns) {
      return Status::OK();
    }
    return LocatedError(internal::TooManyColumns(what, options_.max_columns,
                                                 "read fewer columns (include_columns)")
                            .WithDetail({StatusDetail::Kind::kLimit,
                                         {"max_columns", "include_columns"}}),
                        0);
  }

  Status LocatedError(const Status& st, int64_t line_delta) const {
    return st.WithContext("CSV line " + std::to_string(next_line_ + line_delta));
  }

  Status LoadBlock() {
    ALKAID_ASSIGN_OR_RAISE(RawBlock raw, loader_.Next());
    if (raw.buffer == nullptr && raw.error.ok()) return Status::OK();  // end of input
    Block b;
    b.raw = std::move(raw);
    pipeline_.pending().push_back(std::move(b));
    return Status::OK();
  }

  Status TokenizeBlock(Block* b) {
    if (b->tokenized || !b->raw.error.ok()) return Status::OK();
    b->tokenized = true;
    b->tokens.num_columns = ncols_;
    b->tokens.fields = TakeFields();
    if (!internal::Tokenize(b->data(), b->begin, b->raw.size, tok_, INT64_MAX, &b->tokens,
                            &b->error)) {
      b->ok = false;
    }
    return Status::OK();
  }

  // Tokenizes (unless the sample did) and converts one block; runs on any thread.
  Status ParseBlock(Block* b) {
    if (!b->raw.error.ok()) return Status::OK();
    ALKAID_RETURN_NOT_OK(TokenizeBlock(b));
    if (!b->ok) return Status::OK();
    // One validation of the whole block answers for every text column (the
    // fields of those are then checked only when it fails); none without one.
    bool has_text = false;
    for (int c : selected_) {
      TypeId id = types_[static_cast<size_t>(c)]->id();
      has_text |= id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kStringView;
    }
    bool utf8_ok = !has_text || IsValidUtf8(reinterpret_cast<const uint8_t*>(b->data()) + b->begin,
                                            b->raw.size - b->begin);
    ArrayDataVector columns;
    for (int c : selected_) {
      ColumnConverter conv(*b, c, names_[static_cast<size_t>(c)], options_, nulls_, utf8_ok,
                           inferred_[static_cast<size_t>(c)] ? hint_ : empty_hint_);
      ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr col, conv.Convert(types_[static_cast<size_t>(c)]));
      if (!conv.failed && col->null_count != 0 &&
          !schema_->field(static_cast<int>(columns.size()))->nullable()) {
        conv.FailOnFirstNull();
      }
      if (conv.failed) {
        b->ok = false;
        b->error = std::move(conv.error);
        return Status::OK();
      }
      columns.push_back(std::move(col));
    }
    b->batch = RecordBatch::Make(schema_, b->tokens.num_rows, std::move(columns));
    // The bytes are copied into the columns; drop them now.
    loader_.Recycle(std::move(b->raw.buffer));
    GiveFields(std::move(b->tokens.fields));
    return Status::OK();
  }

  // Field vectors (about a block's size each) are reused from block to block:
  // freeing one on a pool thread hands its pages back to the kernel, and the
  // next block would fault every page in again.
  std::vector<FieldRef> TakeFields() {
    std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spare_fields_.empty()) return {};
    std::vector<FieldRef> v = std::move(spare_fields_.back());
    spare_fields_.pop_back();
    v.clear();
    return v;
  }
  void GiveFields(std::vector<FieldRef> v) {
    std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spare_fields_.size() < 8) spare_fields_.push_back(std::move(v));
  }

  ReadOptions options_;
  Loader loader_;
  std::mutex spare_mutex_;
  std::vector<std::vector<FieldRef>> spare_fields_;
  NullMatcher nulls_;
  internal::TokenizeOptions tok_;
  int threads_ = 1;
  int ncols_ = 0;
  std::vector<std::string> names_;
  std::vector<DataTypePtr> types_;
  std::vector<int> selected_;
  std::vector<bool> inferred_;  // per file column: its type was inferred
  std::string hint_;
  const std::string empty_hint_;
  SchemaPtr schema_;
  internal::BlockPipeline<Block> pipeline_;
  int64_t next_line_ = 1;
};

}  // namespace

Result<std::unique_ptr<RecordBatchReader>> MakeReader(std::shared_ptr<io::InputStream> input,
                                                      const ReadOptions& options) {
  return internal::MakeTextReader<CsvReader>(std::move(input), options);
}

Result<std::unique_ptr<RecordBatchReader>> OpenReader(const std::string& path,
                                                      const ReadOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto file, io::ReadableFile::Open(path, options.pool));
  return MakeReader(std::move(file), options);
}

Result<TablePtr> ReadTable(std::shared_ptr<io::InputStream> input, const ReadOptions& options) {
  return internal::ReadTextTable<CsvReader>(std::move(input), options);
}

Result<TablePtr> ReadString(std::string_view text, const ReadOptions& options) {
  return internal::ReadTextString<CsvReader>(text, options);
}

}  // namespace alkaid::csv
