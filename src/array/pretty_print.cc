// Pretty printer: see the style description in alkaid/pretty_print.h.
#include "alkaid/pretty_print.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/decimal.h"
#include "alkaid/float16.h"
#include "alkaid/validate.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "../util/civil_time.h"

namespace alkaid {

namespace {

// ---------------------------------------------------------------------------
// Scalar text

template <typename T>
T LoadValue(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // IPC buffers need not be aligned for T
  return v;
}

template <typename Int>
void AppendInt(std::string* out, Int v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

template <typename Float>
void AppendFloat(std::string* out, Float v) {
  if (v != v) {  // any NaN, whatever its sign bit
    *out += "nan";
    return;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

using civil::AppendDate;
using civil::FloorDiv;
using civil::UnitsPerSecond;

void AppendTime(std::string* out, int64_t value, TimeUnit unit) {
  if (value < 0) {  // not a valid time of day: show the raw count
    AppendInt(out, value);
    *out += TimeUnitName(unit);
    return;
  }
  const int64_t per_second = UnitsPerSecond(unit);
  civil::AppendClock(out, value / per_second, value % per_second, unit);
}

// "+05:30" / "-0800" / "+05" style offsets, in seconds east of UTC.
bool ParseFixedOffset(const std::string& tz, int64_t* offset_seconds) {
  if (tz.size() < 3 || (tz[0] != '+' && tz[0] != '-')) return false;
  std::string digits;
  for (size_t i = 1; i < tz.size(); ++i) {
    if (tz[i] == ':' && i == 3) continue;
    if (tz[i] < '0' || tz[i] > '9') return false;
    digits += tz[i];
  }
  if (digits.size() != 2 && digits.size() != 4) return false;
  int64_t hours = (digits[0] - '0') * 10 + (digits[1] - '0');
  int64_t minutes = digits.size() == 4 ? (digits[2] - '0') * 10 + (digits[3] - '0') : 0;
  if (hours > 23 || minutes > 59) return false;
  *offset_seconds = (tz[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  return true;
}

bool IsUtcName(const std::string& tz) {
  return tz == "UTC" || tz == "utc" || tz == "Z" || tz == "Etc/UTC" || tz == "GMT" ||
         tz == "Etc/GMT" || tz == "+00:00" || tz == "-00:00" || tz == "+0000" || tz == "+00";
}

void AppendTimestamp(std::string* out, int64_t value, TimeUnit unit, const std::string& tz) {
  int64_t offset = 0;
  const bool fixed = !tz.empty() && !IsUtcName(tz) && ParseFixedOffset(tz, &offset);
  civil::AppendDateTime(out, value, unit, offset);  // fixed offsets are shown as local time
  if (tz.empty()) return;
  if (fixed) {
    char buf[16];
    const int64_t a = offset < 0 ? -offset : offset;
    int n = std::snprintf(buf, sizeof(buf), "%c%02lld:%02lld", offset < 0 ? '-' : '+',
                          static_cast<long long>(a / 3600), static_cast<long long>(a / 60 % 60));
    out->append(buf, static_cast<size_t>(n));
    return;
  }
  *out += 'Z';
  if (!IsUtcName(tz)) *out += "[" + tz + "]";
}

// `limit`: the text stops growing once it holds that many bytes, so that a
// huge value costs no more than the part of it that is shown.
void AppendQuoted(std::string* out, const uint8_t* data, int64_t size, size_t limit) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  *out += '"';
  for (int64_t i = 0; i < size; ++i) {
    if (out->size() >= limit) return;  // cut: no closing quote
    const uint8_t c = data[i];
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          *out += "\\x";
          *out += kHex[c >> 4];
          *out += kHex[c & 15];
        } else {
          *out += static_cast<char>(c);
        }
    }
  }
  *out += '"';
}

void AppendHex(std::string* out, const uint8_t* data, int64_t size, size_t limit) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (size == 0) {
    *out += "\"\"";
    return;
  }
  for (int64_t i = 0; i < size && out->size() < limit; ++i) {
    *out += kHex[data[i] >> 4];
    *out += kHex[data[i] & 15];
  }
}

void AppendBytes(std::string* out, const uint8_t* data, int64_t size, bool utf8, size_t limit) {
  if (utf8) {
    AppendQuoted(out, data, size, limit);
  } else {
    AppendHex(out, data, size, limit);
  }
}

const uint8_t* ValidityBits(const ArrayData& data) {
  if (data.null_count == 0 || data.buffers.empty() || data.buffers[0] == nullptr) return nullptr;
  return data.buffers[0]->data();
}

// Whether slot `pos` is null at this level. Layouts without a validity
// bitmap (unions, run-end encoded) leave it to the selected child.
bool SlotIsNull(const ArrayData& data, int64_t pos) {
  const DataType& storage = data.storage_type();
  if (storage.id() == TypeId::kNull) return true;
  if (!storage.layout().has_validity()) return false;
  const uint8_t* bits = ValidityBits(data);
  return bits != nullptr && !bit_util::GetBit(bits, data.offset + pos);
}

// ---------------------------------------------------------------------------
// The printer

class Printer {
 public:
  // `limit`: text beyond this many bytes is not produced (full() tells).
  Printer(const PrettyPrintOptions& options, bool multi_line, std::string* out,
          size_t limit = SIZE_MAX)
      : options_(options), multi_line_(multi_line), out_(out), limit_(limit) {}

  size_t limit() const { return limit_; }
  // True once the text reached the limit: everything after is skipped.
  bool full() const { return out_->size() >= limit_; }

  void PrintArray(const ArrayData& data) {
    Indent(0);
    Sequence(data.length, options_.window, 0, '[', ']',
             [&](int64_t k) { PrintSlot(data, k, 1); });
  }

  // The value of slot `pos` (logical, relative to data.offset); a container
  // value opens a block at nesting `level`.
  void PrintSlot(const ArrayData& data, int64_t pos, int level);

  // `open` elements `close`, showing the first and last `window` of `count`
  // elements; element(k) writes element k at nesting level + 1.
  template <typename Element>
  void Sequence(int64_t count, int64_t window, int level, char open, char close,
                Element&& element) {
    *out_ += open;
    if (count == 0) {
      *out_ += close;
      return;
    }
    // count > 2 * window, without overflow for any window.
    const bool truncated = count > window && count - window > window;
    bool first = true;
    auto separate = [&] {
      if (!first) *out_ += ',';
      if (multi_line_) {
        *out_ += '\n';
        Indent(level + 1);
      } else if (!first) {
        *out_ += ' ';
      }
      first = false;
    };
    for (int64_t k = 0; k < count; ++k) {
      if (full()) return;  // cut: no closing bracket
      if (truncated && k == window) {
        separate();
        *out_ += "...";
        k = count - window;
        if (k >= count) break;
      }
      separate();
      element(k);
    }
    if (multi_line_) {
      *out_ += '\n';
      Indent(level);
    }
    *out_ += close;
  }

  std::string& out() { return *out_; }
  const PrettyPrintOptions& options() const { return options_; }

 private:
  void Indent(int level) {
    if (!multi_line_ && level > 0) return;
    out_->append(static_cast<size_t>(options_.indent + level * options_.indent_size), ' ');
  }

  const PrettyPrintOptions& options_;
  bool multi_line_;
  std::string* out_;
  size_t limit_;
};

// Writes one non-null slot of one type.
struct SlotVisitor {
  Printer* printer;
  const ArrayData& data;
  int64_t pos;
  int level;

  std::string* out() { return &printer->out(); }
  int64_t physical() const { return data.offset + pos; }
  const uint8_t* fixed_value(int64_t width) const { return data.buffers[1]->data() + physical() * width; }

  void Visit(const NullType&) { *out() += printer->options().null_rep; }

  void Visit(const BooleanType&) {
    *out() += bit_util::GetBit(data.buffers[1]->data(), physical()) ? "true" : "false";
  }

  template <typename T>
    requires(has_c_type_v<T> && std::is_arithmetic_v<typename T::c_type> &&
             !std::is_base_of_v<TemporalUnitType, T>)
  void Visit(const T&) {
    using C = typename T::c_type;
    const C v = LoadValue<C>(fixed_value(sizeof(C)));
    if constexpr (std::is_same_v<T, HalfFloatType>) {
      AppendFloat(out(), HalfToFloat(v));
    } else if constexpr (std::is_floating_point_v<C>) {
      AppendFloat(out(), v);
    } else if constexpr (std::is_same_v<T, Date32Type>) {
      AppendDate(out(), v);
    } else if constexpr (std::is_same_v<T, Date64Type>) {
      AppendDate(out(), FloorDiv(v, 86400000));
    } else if constexpr (std::is_same_v<T, MonthIntervalType>) {
      AppendInt(out(), v);
      *out() += 'M';
    } else {
      AppendInt(out(), v);
    }
  }

  void Visit(const Time32Type& type) { AppendTime(out(), LoadValue<int32_t>(fixed_value(4)), type.unit()); }
  void Visit(const Time64Type& type) { AppendTime(out(), LoadValue<int64_t>(fixed_value(8)), type.unit()); }
  void Visit(const TimestampType& type) {
    AppendTimestamp(out(), LoadValue<int64_t>(fixed_value(8)), type.unit(), type.timezone());
  }
  void Visit(const DurationType& type) {
    AppendInt(out(), LoadValue<int64_t>(fixed_value(8)));
    *out() += TimeUnitName(type.unit());
  }
  void Visit(const DayTimeIntervalType&) {
    const auto v = LoadValue<DayTimeInterval>(fixed_value(8));
    AppendInt(out(), v.days);
    *out() += 'd';
    AppendInt(out(), v.milliseconds);
    *out() += "ms";
  }
  void Visit(const MonthDayNanoIntervalType&) {
    const auto v = LoadValue<MonthDayNanoInterval>(fixed_value(16));
    AppendInt(out(), v.months);
    *out() += 'M';
    AppendInt(out(), v.days);
    *out() += 'd';
    AppendInt(out(), v.nanoseconds);
    *out() += "ns";
  }

  template <typename T>
    requires is_decimal_v<T>
  void Visit(const T& type) {
    *out() += DecimalToString(fixed_value(type.byte_width()), type.byte_width(), type.scale());
  }

  void Visit(const FixedSizeBinaryType& type) {
    AppendHex(out(), fixed_value(type.byte_width()), type.byte_width(), printer->limit());
  }

  template <typename T>
    requires is_base_binary_v<T>
  void Visit(const T& type) {
    using O = typename T::offset_type;
    const O* offsets = data.GetValues<O>(1) + pos;
    const uint8_t* bytes = data.buffers[2] ? data.buffers[2]->data() + offsets[0] : nullptr;
    AppendBytes(out(), bytes, static_cast<int64_t>(offsets[1] - offsets[0]), type.is_utf8(),
                printer->limit());
  }

  template <typename T>
    requires is_binary_view_v<T>
  void Visit(const T& type) {
    const uint8_t* raw = data.buffers[1]->data() + physical() * 16;
    BinaryViewValue view;
    std::memcpy(&view, raw, sizeof(view));
    const uint8_t* bytes =
        view.is_inline()
            ? raw + 4
            : data.buffers[static_cast<size_t>(2 + view.ref.buffer_index)]->data() + view.ref.offset;
    AppendBytes(out(), bytes, view.size(), type.is_utf8(), printer->limit());
  }

  void Elements(const ArrayData& child, int64_t start, int64_t count) {
    printer->Sequence(count, printer->options().container_window, level, '[', ']',
                      [&](int64_t k) { printer->PrintSlot(child, start + k, level + 1); });
  }

  template <typename T>
    requires(is_var_list_v<T> && !std::is_same_v<T, MapType>)
  void Visit(const T&) {
    using O = typename T::offset_type;
    const O* offsets = data.GetValues<O>(1) + pos;
    Elements(*data.child_data[0], offsets[0], static_cast<int64_t>(offsets[1] - offsets[0]));
  }

  template <typename T>
    requires is_list_view_v<T>
  void Visit(const T&) {
    using O = typename T::offset_type;
    Elements(*data.child_data[0], data.GetValues<O>(1)[pos], data.GetValues<O>(2)[pos]);
  }

  void Visit(const FixedSizeListType& type) {
    Elements(*data.child_data[0], physical() * type.list_size(), type.list_size());
  }

  void Visit(const MapType&) {
    const int32_t* offsets = data.GetValues<int32_t>(1) + pos;
    const ArrayData& entries = *data.child_data[0];
    const ArrayData& keys = *entries.child_data[0];
    const ArrayData& items = *entries.child_data[1];
    printer->Sequence(offsets[1] - offsets[0], printer->options().container_window, level, '{', '}',
                      [&](int64_t k) {
                        const int64_t entry = entries.offset + offsets[0] + k;
                        printer->PrintSlot(keys, entry, level + 1);
                        *out() += ": ";
                        printer->PrintSlot(items, entry, level + 1);
                      });
  }

  void Visit(const StructType& type) {
    printer->Sequence(static_cast<int64_t>(data.child_data.size()), INT64_MAX / 4, level, '{', '}',
                      [&](int64_t f) {
                        *out() += type.field(static_cast<int>(f))->name();
                        *out() += ": ";
                        printer->PrintSlot(*data.child_data[static_cast<size_t>(f)], physical(), level + 1);
                      });
  }

  template <typename T>
    requires is_union_v<T>
  void Visit(const T& type) {
    const int8_t code = data.GetValues<int8_t>(0)[pos];
    AppendInt(out(), static_cast<int>(code));
    *out() += ": ";
    const int child = type.child_index(code);
    if (child < 0) {
      *out() += "<invalid type code>";
      return;
    }
    const int64_t child_pos =
        type.mode() == UnionMode::kDense ? data.GetValues<int32_t>(1)[pos] : physical();
    printer->PrintSlot(*data.child_data[static_cast<size_t>(child)], child_pos, level);
  }

  void Visit(const DictionaryType& type) {
    if (data.dictionary == nullptr) {
      *out() += "<no dictionary>";
      return;
    }
    int64_t index = -1;
    (void)VisitIndexType(*type.index_type(), [&](auto zero) -> Status {
      using C = decltype(zero);
      index = static_cast<int64_t>(
          LoadValue<C>(data.buffers[1]->data() + (data.offset + pos) * sizeof(C)));
      return Status::OK();
    });
    printer->PrintSlot(*data.dictionary, index, level);
  }

  void Visit(const RunEndEncodedType& type) {
    const ArrayData& run_ends = *data.child_data[0];
    const int64_t logical = physical();
    int64_t run = 0;
    (void)VisitRunEndType(*type.run_end_type(), [&](auto zero) -> Status {
      using C = decltype(zero);
      const C* ends = run_ends.GetValues<C>(1);
      run = std::upper_bound(ends, ends + run_ends.length, static_cast<C>(logical)) - ends;
      return Status::OK();
    });
    printer->PrintSlot(*data.child_data[1], run, level);
  }

  void Visit(const ExtensionType&) {}  // unreachable: PrintSlot visits storage types
};

void Printer::PrintSlot(const ArrayData& data, int64_t pos, int level) {
  if (full()) return;
  if (SlotIsNull(data, pos)) {
    *out_ += options_.null_rep;
    return;
  }
  SlotVisitor visitor{this, data, pos, level};
  VisitTypeInline(data.storage_type(), &visitor);
}

Status CheckOptions(const PrettyPrintOptions& options) {
  if (options.window < 0 || options.container_window < 0)
    return Status::Invalid("pretty print window sizes must be >= 0, got window=", options.window,
                           " container_window=", options.container_window);
  if (options.indent < 0 || options.indent_size < 0)
    return Status::Invalid("pretty print indentation must be >= 0, got indent=", options.indent,
                           " indent_size=", options.indent_size);
  return Status::OK();
}

// The printed text, or why there is none. The printer follows offsets,
// indices and views wherever they point, so it only reads validated arrays;
// its output is bounded by the windows, never by the array's length.
Result<std::string> Render(const ArrayData& data, const PrettyPrintOptions& options) {
  ALKAID_RETURN_NOT_OK(CheckOptions(options));
  if (data.type == nullptr) return Status::Invalid("cannot print an array without a type");
  ALKAID_RETURN_NOT_OK(ValidateArrayFull(data));
  try {
    std::string text;
    Printer(options, !options.skip_new_lines, &text).PrintArray(data);
    return text;
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory while printing an array (window ", options.window,
                               ", container window ", options.container_window, ")");
  }
}

}  // namespace

Status PrettyPrint(const ArrayData& data, const PrettyPrintOptions& options, std::ostream* out) {
  ALKAID_ASSIGN_OR_RAISE(std::string text, Render(data, options));
  out->write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!*out) return Status::IOError("writing the printed array to the stream failed");
  return Status::OK();
}

std::string PrettyPrintToString(const ArrayData& data, const PrettyPrintOptions& options) {
  Result<std::string> text = Render(data, options);
  if (!text.ok()) {
    std::string error(1, '<');
    error += text.status().ToString();
    return error += '>';
  }
  return std::move(text).ValueOrDie();
}

std::string FormatValue(const ArrayData& data, int64_t i, const PrettyPrintOptions& options) {
  std::string text;
  if (!CheckOptions(options).ok() || data.type == nullptr) return text;
  if (i < 0 || i >= data.length) return "<slot " + std::to_string(i) + " out of range>";
  PrettyPrintOptions one_line = options;
  one_line.indent = 0;
  try {
    Printer printer(one_line, /*multi_line=*/false, &text);
    printer.PrintSlot(data, i, 0);
  } catch (const std::bad_alloc&) {
    return "<out of memory>";
  }
  return text;
}

std::string FormatValue(const ArrayData& data, int64_t i, const PrettyPrintOptions& options,
                        int64_t max_bytes, bool* cut) {
  if (cut != nullptr) *cut = false;
  if (!CheckOptions(options).ok() || data.type == nullptr || max_bytes < 0) return "";
  if (i < 0 || i >= data.length) return "<slot " + std::to_string(i) + " out of range>";
  PrettyPrintOptions one_line = options;
  one_line.indent = 0;
  std::string text;
  try {
    // Room for one character after the budget: whether there was more.
    const size_t limit = static_cast<size_t>(std::min<int64_t>(max_bytes, INT64_MAX - 1)) + 1;
    Printer printer(one_line, /*multi_line=*/false, &text, limit);
    printer.PrintSlot(data, i, 0);
  } catch (const std::bad_alloc&) {
    return "<out of memory>";
  }
  if (text.size() > static_cast<size_t>(max_bytes)) {
    // Cut at a character boundary (never inside a UTF-8 sequence).
    size_t end = static_cast<size_t>(max_bytes);
    while (end > 0 && (static_cast<uint8_t>(text[end]) & 0xC0) == 0x80) --end;
    text.resize(end);
    if (cut != nullptr) *cut = true;
  }
  return text;
}

std::string FormatValue(const ArrayData& data, int64_t i) {
  PrettyPrintOptions options;
  options.container_window = kFormatValueWindow;
  return FormatValue(data, i, options);
}

}  // namespace alkaid
