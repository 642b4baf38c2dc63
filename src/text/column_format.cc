// Values of whole columns as text, for the CSV and JSON Lines writers: each
// slot's text appended to one buffer (ColumnText), one type dispatch per column.
#include "text_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <utility>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "alkaid/decimal.h"
#include "alkaid/float16.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid::text {

void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

namespace {

void AppendCsvField(std::string* out, std::string_view s, const CsvEscape& csv) {
  bool needs = csv.quote_all_strings || s == csv.null_text || s.empty();
  if (!needs && csv.reserved != nullptr) {
    for (const auto& r : *csv.reserved) needs |= s == r;
  }
  if (!needs) {
    for (char c : s) {
      if (c == csv.delimiter || c == csv.quote || c == '\n' || c == '\r') {
        needs = true;
        break;
      }
    }
    // Leading or trailing blanks survive any reader when quoted.
    if (!needs && (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' || s.back() == '\t')) {
      needs = true;
    }
  }
  if (!needs) {
    out->append(s);
    return;
  }
  out->push_back(csv.quote);
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != csv.quote) continue;
    out->append(s.data() + run, i + 1 - run);
    out->push_back(csv.quote);
    run = i + 1;
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back(csv.quote);
}

void AppendHex(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
  out->push_back('"');
}

// Formats one column slot range; see FormatColumn.
struct Formatter {
  const ArrayData& data;
  int64_t offset;  // absolute (data.offset already added)
  int64_t length;
  TextEscape escape;
  const CsvEscape& csv;
  std::string_view null_text;
  ColumnText* out;
  int depth;

  bool json() const { return escape == TextEscape::kJson; }
  bool valid(int64_t abs) const {
    const auto& b = data.buffers.empty() ? nullptr : data.buffers[0];
    return b == nullptr || data.null_count == 0 || bit_util::GetBit(b->data(), abs);
  }
  template <typename Fn>
  Status Each(Fn&& fn) {
    for (int64_t i = offset; i < offset + length; ++i) {
      if (!valid(i)) {
        out->bytes.append(null_text);
      } else {
        ALKAID_RETURN_NOT_OK(fn(i));
      }
      out->end_slot();
    }
    return Status::OK();
  }
  // Quoted in JSON (temporal and decimal text is not a JSON number).
  template <typename Fn>
  Status EachQuoted(Fn&& fn) {
    return Each([&](int64_t i) {
      if (json()) out->bytes.push_back('"');
      fn(i);
      if (json()) out->bytes.push_back('"');
      return Status::OK();
    });
  }
  void Text(std::string_view s, bool is_binary) {
    if (!json()) {
      AppendCsvField(&out->bytes, s, csv);
    } else if (is_binary) {
      AppendHex(&out->bytes, s);
    } else {
      AppendJsonString(&out->bytes, s);
    }
  }
  template <typename T>
  const T* values() const { return reinterpret_cast<const T*>(data.buffers[1]->data()); }

  Status Visit(const NullType&) {
    for (int64_t i = 0; i < length; ++i) {
      out->bytes.append(null_text);
      out->end_slot();
    }
    return Status::OK();
  }
  Status Visit(const BooleanType&) {
    const uint8_t* bits = data.buffers[1]->data();
    return Each([&](int64_t i) {
      out->bytes.append(bit_util::GetBit(bits, i) ? "true" : "false");
      return Status::OK();
    });
  }
  template <typename T>
    requires(std::is_base_of_v<FixedWidthType, T> && std::is_integral_v<typename T::c_type> &&
             !std::is_same_v<T, HalfFloatType> && !std::is_same_v<T, Date32Type> &&
             !std::is_same_v<T, Date64Type> && !std::is_same_v<T, MonthIntervalType>)
  Status Visit(const T& type) {
    using C = typename T::c_type;
    const C* v = values<C>();
    if constexpr (std::is_same_v<T, TimestampType>) {
      bool zone = !type.timezone().empty();
      return EachQuoted([&](int64_t i) { AppendTimestamp(&out->bytes, v[i], type.unit(), zone); });
    } else if constexpr (std::is_same_v<T, Time32Type> || std::is_same_v<T, Time64Type>) {
      return EachQuoted([&](int64_t i) { AppendTimeOfDay(&out->bytes, v[i], type.unit()); });
    } else if constexpr (std::is_signed_v<C>) {
      return Each([&](int64_t i) {
        AppendInt(&out->bytes, v[i]);
        return Status::OK();
      });
    } else {
      return Each([&](int64_t i) {
        AppendUInt(&out->bytes, v[i]);
        return Status::OK();
      });
    }
  }
  Status Visit(const Date32Type&) {
    const int32_t* v = values<int32_t>();
    return EachQuoted([&](int64_t i) { AppendDate(&out->bytes, v[i]); });
  }
  Status Visit(const Date64Type&) {
    const int64_t* v = values<int64_t>();
    return Each([&](int64_t i) {
      // date64 counts milliseconds; whole days print as a date, anything else
      // would lose its time of day, so it prints as a timestamp.
      if (json()) out->bytes.push_back('"');
      if (v[i] % 86'400'000 == 0) {
        AppendDate(&out->bytes, v[i] / 86'400'000);
      } else {
        AppendTimestamp(&out->bytes, v[i], TimeUnit::kMilli, false);
      }
      if (json()) out->bytes.push_back('"');
      return Status::OK();
    });
  }
  template <typename F>
  Status Floats(const F* v) {
    return FloatsOf([v](int64_t i) { return v[i]; });
  }
  template <typename Get>
  Status FloatsOf(Get get) {
    using F = decltype(get(int64_t{0}));
    return Each([&](int64_t i) {
      F x = get(i);
      if (std::isfinite(x)) {
        if constexpr (std::is_same_v<F, float>) AppendFloat(&out->bytes, x);
        else AppendDouble(&out->bytes, x);
      } else {
        const char* t = std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
        if (json()) {
          out->bytes.push_back('"');
          out->bytes.append(t);
          out->bytes.push_back('"');
        } else {
          out->bytes.append(t);
        }
      }
      return Status::OK();
    });
  }
  Status Visit(const FloatType&) { return Floats(values<float>()); }
  Status Visit(const DoubleType&) { return Floats(values<double>()); }
  Status Visit(const HalfFloatType&) {
    // Every half-precision value is exactly a float; the float's shortest
    // text reads back to the same half.
    const uint16_t* bits = values<uint16_t>();
    return FloatsOf([&](int64_t i) { return HalfToFloat(bits[i]); });
  }
  Status Visit(const MonthIntervalType&) {
    const int32_t* v = values<int32_t>();
    return Each([&](int64_t i) {
      AppendInt(&out->bytes, v[i]);
      return Status::OK();
    });
  }
  // Intervals: text as AppendInterval writes it, JSON as an object of the
  // interval's named integer fields.
  Status Visit(const DayTimeIntervalType&) {
    const auto* v = values<DayTimeInterval>();
    return Each([&](int64_t i) {
      if (json()) {
        AppendIntObject({{"days", v[i].days}, {"milliseconds", v[i].milliseconds}});
      } else {
        AppendInterval(&out->bytes, 0, v[i].days, int64_t{v[i].milliseconds} * 1'000'000);
      }
      return Status::OK();
    });
  }
  Status Visit(const MonthDayNanoIntervalType&) {
    const auto* v = values<MonthDayNanoInterval>();
    return Each([&](int64_t i) {
      if (json()) {
        AppendIntObject(
            {{"months", v[i].months}, {"days", v[i].days}, {"nanoseconds", v[i].nanoseconds}});
      } else {
        AppendInterval(&out->bytes, v[i].months, v[i].days, v[i].nanoseconds);
      }
      return Status::OK();
    });
  }
  void AppendIntObject(std::initializer_list<std::pair<const char*, int64_t>> fields) {
    char separator = '{';
    for (const auto& [name, value] : fields) {
      out->bytes.push_back(separator);
      out->bytes.push_back('"');
      out->bytes.append(name);
      out->bytes.append("\":");
      AppendInt(&out->bytes, value);
      separator = ',';
    }
    out->bytes.push_back('}');
  }
  Status Visit(const DecimalType& type) {
    const uint8_t* v = data.buffers[1]->data();
    int w = type.byte_width();
    return EachQuoted([&](int64_t i) {
      out->bytes.append(DecimalToString(v + i * w, w, type.scale()));
    });
  }
  Status Visit(const FixedSizeBinaryType& type) {
    const char* v = reinterpret_cast<const char*>(data.buffers[1]->data());
    int w = type.byte_width();
    return Each([&](int64_t i) {
      Text(std::string_view(v + i * w, static_cast<size_t>(w)), true);
      return Status::OK();
    });
  }
  Status Visit(const BinaryType& t) { return Binary(t); }
  Status Visit(const StringType& t) { return Binary(t); }
  Status Visit(const LargeBinaryType& t) { return Binary(t); }
  Status Visit(const LargeStringType& t) { return Binary(t); }
  template <typename T>
  Status Binary(const T& type) {
    using O = typename T::offset_type;
    const O* offs = values<O>();
    const char* bytes = data.buffers[2] ? reinterpret_cast<const char*>(data.buffers[2]->data()) : "";
    bool binary = !type.is_utf8();
    return Each([&](int64_t i) {
      Text(std::string_view(bytes + offs[i], static_cast<size_t>(offs[i + 1] - offs[i])), binary);
      return Status::OK();
    });
  }
  template <typename T>
    requires(std::is_same_v<T, BinaryViewType> || std::is_same_v<T, StringViewType>)
  Status Visit(const T& type) {
    const auto* views = values<BinaryViewValue>();
    bool binary = !type.is_utf8();
    return Each([&](int64_t i) {
      const BinaryViewValue& v = views[i];
      std::string_view s;
      if (v.is_inline()) {
        s = std::string_view(reinterpret_cast<const char*>(v.inlined.data), v.size());
      } else {
        const auto& buf = data.buffers[static_cast<size_t>(2 + v.ref.buffer_index)];
        s = std::string_view(reinterpret_cast<const char*>(buf->data()) + v.ref.offset, v.size());
      }
      Text(s, binary);
      return Status::OK();
    });
  }

  // Nested types (JSON only): format the children's slot ranges, then wrap.
  Status Child(const ArrayData& child, int64_t off, int64_t len, ColumnText* text) const {
    if (depth >= 64) return Status::NotImplemented("nesting deeper than 64 levels");
    return FormatColumnAt(child, child.offset + off, len, escape, csv, "null", text, depth + 1);
  }
  Status NeedJson(const DataType& type) const {
    if (json()) return Status::OK();
    return Status::NotImplemented("CSV output of ", type.ToString(), " columns");
  }
  template <typename T>
    requires(std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType> ||
             std::is_same_v<T, MapType>)
  Status Visit(const T& type) {
    ALKAID_RETURN_NOT_OK(NeedJson(type));
    using O = typename T::offset_type;
    const O* offs = values<O>();
    if (length == 0) return Status::OK();
    int64_t first = offs[offset], last = offs[offset + length];
    ColumnText child;
    ALKAID_RETURN_NOT_OK(Child(*data.child_data[0], first, last - first, &child));
    return Each([&](int64_t i) {
      out->bytes.push_back('[');
      for (int64_t j = offs[i]; j < offs[i + 1]; ++j) {
        if (j > offs[i]) out->bytes.push_back(',');
        out->bytes.append(child.get(j - first));
      }
      out->bytes.push_back(']');
      return Status::OK();
    });
  }
  template <typename T>
    requires(std::is_same_v<T, ListViewType> || std::is_same_v<T, LargeListViewType>)
  Status Visit(const T& type) {
    ALKAID_RETURN_NOT_OK(NeedJson(type));
    using O = typename T::offset_type;
    const O* offs = values<O>();
    const O* sizes = reinterpret_cast<const O*>(data.buffers[2]->data());
    return Each([&](int64_t i) {
      ColumnText child;
      ALKAID_RETURN_NOT_OK(Child(*data.child_data[0], offs[i], sizes[i], &child));
      out->bytes.push_back('[');
      for (int64_t j = 0; j < sizes[i]; ++j) {
        if (j > 0) out->bytes.push_back(',');
        out->bytes.append(child.get(j));
      }
      out->bytes.push_back(']');
      return Status::OK();
    });
  }
  Status Visit(const FixedSizeListType& type) {
    ALKAID_RETURN_NOT_OK(NeedJson(type));
    int64_t n = type.list_size();
    ColumnText child;
    ALKAID_RETURN_NOT_OK(Child(*data.child_data[0], offset * n, length * n, &child));
    return Each([&](int64_t i) {
      out->bytes.push_back('[');
      for (int64_t j = 0; j < n; ++j) {
        if (j > 0) out->bytes.push_back(',');
        out->bytes.append(child.get((i - offset) * n + j));
      }
      out->bytes.push_back(']');
      return Status::OK();
    });
  }
  Status Visit(const StructType& type) {
    ALKAID_RETURN_NOT_OK(NeedJson(type));
    std::vector<ColumnText> children(static_cast<size_t>(type.num_fields()));
    std::vector<std::string> keys;
    for (int f = 0; f < type.num_fields(); ++f) {
      ALKAID_RETURN_NOT_OK(Child(*data.child_data[static_cast<size_t>(f)], offset, length,
                                 &children[static_cast<size_t>(f)]));
      std::string key;
      AppendJsonString(&key, type.field(f)->name());
      key.push_back(':');
      keys.push_back(std::move(key));
    }
    return Each([&](int64_t i) {
      out->bytes.push_back('{');
      for (size_t f = 0; f < children.size(); ++f) {
        if (f > 0) out->bytes.push_back(',');
        out->bytes.append(keys[f]);
        out->bytes.append(children[f].get(i - offset));
      }
      out->bytes.push_back('}');
      return Status::OK();
    });
  }
  Status Visit(const UnionType& type) {
    ALKAID_RETURN_NOT_OK(NeedJson(type));
    // [type_code, value]: the code says which member the value belongs to.
    const int8_t* codes = reinterpret_cast<const int8_t*>(data.buffers[0]->data());
    bool dense = type.mode() == UnionMode::kDense;
    const int32_t* offs = dense ? reinterpret_cast<const int32_t*>(data.buffers[1]->data()) : nullptr;
    for (int64_t i = offset; i < offset + length; ++i) {
      int child_index = type.child_index(codes[i]);
      if (child_index < 0) return Status::Invalid("union slot ", i, " has an undeclared type code");
      ColumnText child;
      ALKAID_RETURN_NOT_OK(Child(*data.child_data[static_cast<size_t>(child_index)],
                                 dense ? offs[i] : i, 1, &child));
      out->bytes.push_back('[');
      AppendInt(&out->bytes, codes[i]);
      out->bytes.push_back(',');
      out->bytes.append(child.get(0));
      out->bytes.push_back(']');
      out->end_slot();
    }
    return Status::OK();
  }
  Status Visit(const DictionaryType& type) {
    // The decoded value of each slot.
    const ArrayData& dict = *data.dictionary;
    ColumnText values;
    ALKAID_RETURN_NOT_OK(
        FormatColumnAt(dict, dict.offset, dict.length, escape, csv, null_text, &values, depth + 1));
    const uint8_t* idx = data.buffers[1]->data();
    return VisitIndexType(*type.index_type(), [&](auto zero) -> Status {
      using I = decltype(zero);
      return Each([&](int64_t i) {
        I raw;
        std::memcpy(&raw, idx + i * static_cast<int64_t>(sizeof(I)), sizeof(I));
        bool negative = false;
        if constexpr (std::is_signed_v<I>) negative = raw < 0;
        if (negative || static_cast<uint64_t>(raw) >= static_cast<uint64_t>(dict.length)) {
          return Status::Invalid("dictionary index ", static_cast<int64_t>(raw), " out of range");
        }
        out->bytes.append(values.get(static_cast<int64_t>(raw)));
        return Status::OK();
      });
    });
  }
  Status Visit(const RunEndEncodedType& type) {
    // Expanded: one text per logical slot.
    ArrayPtr arr = MakeArray(std::make_shared<ArrayData>(data));
    const auto& ree = static_cast<const RunEndEncodedArray&>(*arr);
    const ArrayData& vals = *data.child_data[1];
    ColumnText values;
    ALKAID_RETURN_NOT_OK(
        FormatColumnAt(vals, vals.offset, vals.length, escape, csv, null_text, &values, depth + 1));
    for (int64_t i = offset; i < offset + length; ++i) {
      int64_t run = ree.FindPhysicalIndex(i - data.offset);
      out->bytes.append(values.get(run));
      out->end_slot();
    }
    return Status::OK();
  }
  Status Visit(const ExtensionType& type) {
    auto storage = std::make_shared<ArrayData>(data);
    storage->type = type.storage_type();
    return FormatColumnAt(*storage, offset, length, escape, csv, null_text, out, depth + 1);
  }

  static Status FormatColumnAt(const ArrayData& data, int64_t abs_offset, int64_t length,
                               TextEscape escape, const CsvEscape& csv, std::string_view null_text,
                               ColumnText* out, int depth) {
    Formatter f{data, abs_offset, length, escape, csv, null_text, out, depth};
    return VisitTypeInline(*data.type, &f);
  }
};

}  // namespace

Status FormatColumn(const ArrayData& data, int64_t offset, int64_t length, TextEscape escape,
                    const CsvEscape& csv, std::string_view null_text, ColumnText* out) {
  if (offset < 0 || length < 0 || offset + length > data.length) {
    return Status::IndexError("slots [", offset, ", ", offset + length, ") outside a column of ",
                              data.length);
  }
  return Formatter::FormatColumnAt(data, data.offset + offset, length, escape, csv, null_text, out,
                                   0);
}

Status FormatBatchInChunks(
    const RecordBatch& batch, TextEscape escape, const CsvEscape& csv, std::string_view null_text,
    const char* what,
    const std::function<Status(const std::vector<ColumnText>&, int64_t)>& emit) {
  // Bounded chunks keep the formatted text small whatever the batch size.
  constexpr int64_t kChunkRows = 16384;
  std::vector<ColumnText> cols(static_cast<size_t>(batch.num_columns()));
  for (int64_t start = 0; start < batch.num_rows(); start += kChunkRows) {
    int64_t n = std::min(kChunkRows, batch.num_rows() - start);
    for (int c = 0; c < batch.num_columns(); ++c) {
      auto& col = cols[static_cast<size_t>(c)];
      col.clear();
      Status st = FormatColumn(*batch.column_data(c), start, n, escape, csv, null_text, &col);
      if (!st.ok()) {
        return st.WithContext(std::string(what) + " column '" + batch.column_name(c) + "'");
      }
    }
    ALKAID_RETURN_NOT_OK(emit(cols, n));
  }
  return Status::OK();
}

Result<RecordBatchPtr> TableAsBatch(const Table& table) {
  ALKAID_ASSIGN_OR_RAISE(auto combined, table.CombineChunks());
  ArrayDataVector cols;
  for (int c = 0; c < combined->num_columns(); ++c) {
    const auto& chunks = combined->column(c)->chunks();
    if (chunks.empty()) {
      ALKAID_ASSIGN_OR_RAISE(auto empty, MakeBuilder(table.schema()->field(c)->type()));
      ALKAID_ASSIGN_OR_RAISE(auto data, empty->Finish());
      cols.push_back(std::move(data));
    } else {
      cols.push_back(chunks[0]);
    }
  }
  return RecordBatch::Make(table.schema(), table.num_rows(), std::move(cols));
}

}  // namespace alkaid::text
