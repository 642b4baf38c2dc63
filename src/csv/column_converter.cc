// See column_converter.h.
#include "column_converter.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "alkaid/builder.h"
#include "alkaid/decimal.h"
#include "alkaid/encode.h"
#include "alkaid/float16.h"
#include "alkaid/utf8.h"
#include "alkaid/visit_type.h"
#include "../text/fast_values.h"
#include "../text/text_values.h"

namespace alkaid::csv::internal {
namespace {

class ColumnConverter {
 public:
  ColumnConverter(const char* data, const Tokens& tokens, int column, const std::string& name,
                  const ReadOptions& options, const NullMatcher& nulls, bool block_is_utf8,
                  const std::string& hint)
      : data_(data), tokens_(tokens), col_(column), name_(name), options_(options),
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
    const char* data = data_;
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
    const char* data = data_;
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
    const char* p = data_ + f.start;
    if (f.bits & FieldRef::kEscaped) {
      Unescape(p, f.length(), options_.quote, &scratch_);
      return scratch_;
    }
    return std::string_view(p, f.length());
  }
  __attribute__((always_inline)) bool IsNull(FieldRef f) const {
    if (f.bits & FieldRef::kMissing) return true;
    if (f.bits & FieldRef::kQuoted) return false;
    return nulls_.Match(data_ + f.start, f.length());
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
    ALKAID_RETURN_NOT_OK(b->Reserve(tokens_.num_rows));
    return Rows(b, [&](int64_t r, std::string_view s) {
      if (parse(b, s)) return true;
      (void)Fail(r, s, "is not a valid");
      return false;
    });
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
    Status appended;  // a view builder's append can fail (its data buffers grow)
    ALKAID_RETURN_NOT_OK(Rows(b, [&](int64_t r, std::string_view s) {
      if (check && !CheckUtf8(r, s.data(), static_cast<uint32_t>(s.size()))) return false;
      if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
        appended = b->Append(s);
        return appended.ok();
      } else {
        b->UnsafeAppend(s);
        return true;
      }
    }));
    return appended;
  }

  // The loop of Each and Strings: a null for every null row, value(row, text)
  // for the others; value returns false to stop, having recorded why (the
  // block's error, or a failed append).
  template <typename B, typename Value>
  Status Rows(B* b, Value&& value) {
    const int64_t rows = tokens_.num_rows;
    for (int64_t r = 0; r < rows; ++r) {
      FieldRef f = *Field(r);
      if (IsNull(f)) {
        ALKAID_RETURN_NOT_OK(b->AppendNull());
        continue;
      }
      if (!value(r, Text(f))) break;
    }
    return Status::OK();
  }

  const char* data_;  // the block's bytes
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

}  // namespace

Result<ArrayDataPtr> ConvertColumn(const char* data, const Tokens& tokens, int column,
                                   const std::string& name, const DataTypePtr& type,
                                   bool nullable, const ReadOptions& options,
                                   const NullMatcher& nulls, bool block_is_utf8,
                                   const std::string& hint, BlockError* error) {
  ColumnConverter conv(data, tokens, column, name, options, nulls, block_is_utf8, hint);
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr col, conv.Convert(type));
  if (!conv.failed && col->null_count != 0 && !nullable) conv.FailOnFirstNull();
  if (conv.failed) {
    *error = std::move(conv.error);
    return ArrayDataPtr();
  }
  return col;
}

}  // namespace alkaid::csv::internal
