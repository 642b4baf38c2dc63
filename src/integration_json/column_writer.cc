// Arrays -> integration JSON column objects in the reference layout, value
// by value: text goes straight from the buffers into a JsonTextWriter.
//
// Sliced arrays are written as what they show: a column covers slots
// [begin, begin + count) of its ArrayData, offsets are rebased to start at
// zero and children are cut to the range the parent uses (list views and
// dense unions keep their offsets and write the whole child).
#include "column_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "integration_internal.h"

namespace alkaid::integration_json::internal {

namespace {

// The bytes of buffer `i`, or null when the array has none there.
const uint8_t* BufferData(const ArrayData& data, size_t i) {
  return i < data.buffers.size() && data.buffers[i] != nullptr ? data.buffers[i]->data() : nullptr;
}

// A 64-bit integer goes out as a string; narrower ones as numbers.
template <typename T>
void WriteInteger(JsonTextWriter* out, T value) {
  if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) {
    out->QuotedInt(value);
  } else if constexpr (sizeof(T) == 8) {
    out->QuotedUInt(value);
  } else if constexpr (std::is_signed_v<T>) {
    out->Int(value);
  } else {
    out->UInt(value);
  }
}

class ColumnWriter {
 public:
  ColumnWriter(JsonTextWriter* out, const ArrayData& data, int64_t begin, int64_t length)
      : out_(out), data_(data), begin_(begin), length_(length) {}

  Status Visit(const NullType&) { return Status::OK(); }

  Status Visit(const BooleanType&) {
    const uint8_t* bits = BufferData(data_, 1);
    return WriteData([&](int64_t i) {
      out_->Bool(bit_util::GetBit(bits, begin_ + i));
      return Status::OK();
    });
  }

  template <typename T>
  std::enable_if_t<has_c_type_v<T>, Status> Visit(const T&) {
    using C = typename T::c_type;
    const uint8_t* raw = BufferData(data_, 1);
    return WriteData([&](int64_t i) {
      C value;
      std::memcpy(&value, raw + (begin_ + i) * static_cast<int64_t>(sizeof(C)), sizeof(C));
      return WriteValue<T>(value, i);
    });
  }

  template <typename T>
  std::enable_if_t<is_decimal_v<T>, Status> Visit(const T& type) {
    const int width = type.byte_width();
    const uint8_t* raw = BufferData(data_, 1);
    return WriteData([&](int64_t i) {
      out_->PlainString(internal::FormatDecimalInteger(raw + (begin_ + i) * width, width));
      return Status::OK();
    });
  }

  Status Visit(const FixedSizeBinaryType& type) {
    const int64_t width = type.byte_width();
    const uint8_t* raw = BufferData(data_, 1);
    return WriteData([&](int64_t i) {
      out_->HexString(width == 0 ? nullptr : raw + (begin_ + i) * width, width);
      return Status::OK();
    });
  }

  template <typename T>
  std::enable_if_t<is_base_binary_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    constexpr bool kHex = !std::is_same_v<T, StringType> && !std::is_same_v<T, LargeStringType>;
    WriteValidity();
    const Offset* off = Offsets<Offset>();
    const uint8_t* bytes = BufferData(data_, 2);
    WriteRebasedOffsets(off);
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) {
      const int64_t size = static_cast<int64_t>(off[i + 1] - off[i]);
      const uint8_t* value = size == 0 ? nullptr : bytes + off[i];
      if constexpr (kHex) {
        out_->HexString(value, size);
      } else {
        ALKAID_RETURN_NOT_OK(out_->String(
            std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(size))));
      }
    }
    out_->EndArray();
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_binary_view_v<T>, Status> Visit(const T&) {
    constexpr bool kHex = std::is_same_v<T, BinaryViewType>;
    WriteValidity();
    const auto* views = reinterpret_cast<const BinaryViewValue*>(BufferData(data_, 1)) + begin_;
    out_->PlainKey("VIEWS");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) {
      const BinaryViewValue& v = views[i];
      out_->BeginObject();
      out_->PlainKey("SIZE");
      out_->Int(v.size());
      if (v.is_inline()) {
        out_->PlainKey("INLINED");
        const int32_t size = std::max(v.size(), 0);
        if constexpr (kHex) {
          out_->HexString(v.inlined.data, size);
        } else {
          ALKAID_RETURN_NOT_OK(out_->String(std::string_view(
              reinterpret_cast<const char*>(v.inlined.data), static_cast<size_t>(size))));
        }
      } else {
        out_->PlainKey("PREFIX_HEX");
        out_->HexString(v.ref.prefix, BinaryViewValue::kPrefixSize);
        out_->PlainKey("BUFFER_INDEX");
        out_->Int(v.ref.buffer_index);
        out_->PlainKey("OFFSET");
        out_->Int(v.ref.offset);
      }
      out_->EndObject();
    }
    out_->EndArray();
    out_->PlainKey("VARIADIC_DATA_BUFFERS");
    out_->BeginArray();
    for (size_t b = 2; b < data_.buffers.size(); ++b) {
      const auto& buffer = data_.buffers[b];
      out_->HexString(buffer ? buffer->data() : nullptr, buffer ? buffer->size() : 0);
    }
    out_->EndArray();
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_var_list_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    WriteValidity();
    const Offset* off = Offsets<Offset>();
    WriteRebasedOffsets(off);
    const ArrayData& child = *data_.child_data[0];
    return WriteChildren(type, {{child.offset + off[0], off[length_] - off[0]}});
  }

  template <typename T>
  std::enable_if_t<is_list_view_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    WriteValidity();
    WriteIntegers("OFFSET", reinterpret_cast<const Offset*>(BufferData(data_, 1)) + begin_);
    WriteIntegers("SIZE", reinterpret_cast<const Offset*>(BufferData(data_, 2)) + begin_);
    return WriteWholeChildren(type);
  }

  Status Visit(const FixedSizeListType& type) {
    WriteValidity();
    const ArrayData& child = *data_.child_data[0];
    const int64_t size = type.list_size();
    return WriteChildren(type, {{child.offset + begin_ * size, length_ * size}});
  }

  Status Visit(const StructType& type) {
    WriteValidity();
    return WriteChildren(type, SameWindowForEachChild(type));
  }

  template <typename T>
  std::enable_if_t<is_union_v<T>, Status> Visit(const T& type) {
    WriteIntegers("TYPE_ID", reinterpret_cast<const int8_t*>(BufferData(data_, 0)) + begin_);
    if constexpr (std::is_same_v<T, DenseUnionType>) {
      WriteIntegers("OFFSET", reinterpret_cast<const int32_t*>(BufferData(data_, 1)) + begin_);
      return WriteWholeChildren(type);
    } else {
      return WriteChildren(type, SameWindowForEachChild(type));
    }
  }

  Status Visit(const RunEndEncodedType& type) {
    return VisitRunEndType(*type.run_end_type(), [&](auto zero) -> Status {
      return WriteRunEndEncoded<decltype(zero)>(type);
    });
  }

  Status Visit(const DictionaryType& type) { return VisitTypeInline(*type.index_type(), this); }
  Status Visit(const ExtensionType& type) { return VisitTypeInline(*type.storage_type(), this); }

 private:
  // The validity, then "DATA": one entry per slot, written by `each(i)` (i from 0 to length_).
  template <typename Each>
  Status WriteData(Each&& each) {
    WriteValidity();
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) ALKAID_RETURN_NOT_OK(each(i));
    out_->EndArray();
    return Status::OK();
  }

  void WriteValidity() {
    const uint8_t* bits = data_.null_count != 0 ? BufferData(data_, 0) : nullptr;
    out_->PlainKey("VALIDITY");
    out_->BeginArray();
    if (bits == nullptr) {
      for (int64_t i = 0; i < length_; ++i) out_->Int(1);
    } else {
      for (int64_t i = 0; i < length_; ++i) out_->Int(bit_util::GetBit(bits, begin_ + i) ? 1 : 0);
    }
    out_->EndArray();
  }

  bool IsValid(int64_t i) const {
    const uint8_t* bits = data_.null_count != 0 ? BufferData(data_, 0) : nullptr;
    return bits == nullptr || bit_util::GetBit(bits, begin_ + i);
  }

  template <typename T, typename C>
  Status WriteValue(const C& value, int64_t i) {
    if constexpr (std::is_same_v<T, HalfFloatType>) {
      return WriteFloat(internal::FloatForPrinting(internal::HalfToFloat(value)), i);
    } else if constexpr (std::is_same_v<C, float>) {
      return WriteFloat(internal::FloatForPrinting(value), i);
    } else if constexpr (std::is_same_v<C, double>) {
      return WriteFloat(value, i);
    } else if constexpr (std::is_same_v<C, DayTimeInterval>) {
      out_->BeginObject();
      out_->PlainKey("days");
      out_->Int(value.days);
      out_->PlainKey("milliseconds");
      out_->Int(value.milliseconds);
      out_->EndObject();
      return Status::OK();
    } else if constexpr (std::is_same_v<C, MonthDayNanoInterval>) {
      // The reference spells nanoseconds as a JSON number even though it is 64-bit.
      out_->BeginObject();
      out_->PlainKey("months");
      out_->Int(value.months);
      out_->PlainKey("days");
      out_->Int(value.days);
      out_->PlainKey("nanoseconds");
      out_->Int(value.nanoseconds);
      out_->EndObject();
      return Status::OK();
    } else {
      WriteInteger(out_, value);
      return Status::OK();
    }
  }

  // JSON has no NaN or infinity. Null slots may hold anything and are
  // written as 0; a valid non-finite value cannot be represented.
  Status WriteFloat(double value, int64_t i) {
    if (std::isfinite(value)) {
      out_->Double(value);
      return Status::OK();
    }
    if (!IsValid(i)) {
      out_->Double(0.0);
      return Status::OK();
    }
    return Status::NotImplemented("slot ", i, " holds ", value,
                                  ", which integration JSON cannot represent");
  }

  // The offsets of slots [begin, begin + length]. An empty array may have no
  // offsets at all (the layout requires none for length 0), so it reads none.
  template <typename Offset>
  const Offset* Offsets() const {
    static const Offset kZero[1] = {0};
    if (length_ == 0) return kZero;
    return reinterpret_cast<const Offset*>(BufferData(data_, 1)) + begin_;
  }

  template <typename Offset>
  void WriteRebasedOffsets(const Offset* off) {
    out_->PlainKey("OFFSET");
    out_->BeginArray();
    for (int64_t i = 0; i <= length_; ++i) WriteInteger<Offset>(out_, static_cast<Offset>(off[i] - off[0]));
    out_->EndArray();
  }

  template <typename C>
  void WriteIntegers(std::string_view key, const C* values) {
    out_->PlainKey(key);
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) WriteInteger<C>(out_, values[i]);
    out_->EndArray();
  }

  struct Window {
    int64_t begin;
    int64_t length;
  };

  std::vector<Window> SameWindowForEachChild(const DataType& type) const {
    std::vector<Window> windows;
    for (int i = 0; i < type.num_fields(); ++i)
      windows.push_back({data_.child_data[static_cast<size_t>(i)]->offset + begin_, length_});
    return windows;
  }

  Status WriteWholeChildren(const DataType& type) {
    std::vector<Window> windows;
    for (int i = 0; i < type.num_fields(); ++i) {
      const ArrayData& child = *data_.child_data[static_cast<size_t>(i)];
      windows.push_back({child.offset, child.length});
    }
    return WriteChildren(type, windows);
  }

  Status WriteChildren(const DataType& type, const std::vector<Window>& windows) {
    out_->PlainKey("children");
    out_->BeginArray();
    for (int i = 0; i < type.num_fields(); ++i) {
      const Window& w = windows[static_cast<size_t>(i)];
      ALKAID_RETURN_NOT_OK(WriteColumn(out_, *data_.child_data[static_cast<size_t>(i)], w.begin,
                                       w.length, type.field(i)->name()));
    }
    out_->EndArray();
    return Status::OK();
  }

  // Runs covering logical slots [begin, begin + length), with their ends
  // made relative to `begin` and clipped to `length`.
  template <typename RunEnd>
  Status WriteRunEndEncoded(const RunEndEncodedType& type) {
    const ArrayData& run_ends = *data_.child_data[0];
    const ArrayData& values = *data_.child_data[1];
    const RunEnd* ends = run_ends.length == 0 ? nullptr : run_ends.GetValues<RunEnd>(1);
    const RunEnd* ends_end = ends + run_ends.length;
    int64_t first = std::upper_bound(ends, ends_end, static_cast<RunEnd>(begin_)) - ends;
    int64_t last = length_ == 0 ? first
                                : std::lower_bound(ends, ends_end, static_cast<RunEnd>(begin_ + length_)) - ends + 1;
    last = std::min<int64_t>(last, run_ends.length);
    out_->PlainKey("children");
    out_->BeginArray();
    out_->BeginObject();
    out_->PlainKey("name");
    ALKAID_RETURN_NOT_OK(out_->String(type.field(0)->name()));
    out_->PlainKey("count");
    out_->Int(last - first);
    out_->PlainKey("VALIDITY");
    out_->BeginArray();
    for (int64_t r = first; r < last; ++r) out_->Int(1);
    out_->EndArray();
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t r = first; r < last; ++r) {
      const int64_t end = std::min<int64_t>(static_cast<int64_t>(ends[r]) - begin_, length_);
      WriteInteger<RunEnd>(out_, static_cast<RunEnd>(end));
    }
    out_->EndArray();
    out_->EndObject();
    ALKAID_RETURN_NOT_OK(
        WriteColumn(out_, values, values.offset + first, last - first, type.field(1)->name()));
    out_->EndArray();
    return Status::OK();
  }

  JsonTextWriter* out_;
  const ArrayData& data_;
  int64_t begin_;
  int64_t length_;
};

}  // namespace

Status WriteColumn(JsonTextWriter* out, const ArrayData& data, int64_t begin, int64_t length,
                   std::string_view name) {
  out->BeginObject();
  out->PlainKey("name");
  Status st = out->String(name);
  if (st.ok()) {
    out->PlainKey("count");
    out->Int(length);
    ColumnWriter writer(out, data, begin, length);
    st = VisitTypeInline(*data.type, &writer);
  }
  if (!st.ok()) return st.WithContext("column " + std::string(name));
  out->EndObject();
  return Status::OK();
}

}  // namespace alkaid::integration_json::internal
