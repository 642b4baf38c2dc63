// Arrays -> integration JSON in the reference layout, value by value.
//
// Text goes straight from the buffers into a JsonTextWriter (a fixed buffer
// flushed to the output stream), so writing a batch costs the batch plus
// that buffer, whatever its length.
//
// Sliced arrays are written as what they show: a column covers slots
// [begin, begin + count) of its ArrayData, offsets are rebased to start at
// zero and children are cut to the range the parent uses (list views and
// dense unions keep their offsets and write the whole child).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>
#include <type_traits>

#include "alkaid/integration_json/integration.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "integration_internal.h"
#include "json_text_writer.h"

namespace alkaid::integration_json {

using internal::JsonTextWriter;

namespace {

Status WriteColumn(JsonTextWriter* out, const ArrayData& data, int64_t begin, int64_t length,
                   std::string_view name);

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
    WriteValidity();
    const uint8_t* bits = BufferData(data_, 1);
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) out_->Bool(bit_util::GetBit(bits, begin_ + i));
    out_->EndArray();
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<has_c_type_v<T>, Status> Visit(const T&) {
    using C = typename T::c_type;
    WriteValidity();
    const uint8_t* raw = BufferData(data_, 1);
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i) {
      C value;
      std::memcpy(&value, raw + (begin_ + i) * static_cast<int64_t>(sizeof(C)), sizeof(C));
      ALKAID_RETURN_NOT_OK(WriteValue<T>(value, i));
    }
    out_->EndArray();
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_decimal_v<T>, Status> Visit(const T& type) {
    WriteValidity();
    const int width = type.byte_width();
    const uint8_t* raw = BufferData(data_, 1);
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i)
      out_->PlainString(internal::FormatDecimalInteger(raw + (begin_ + i) * width, width));
    out_->EndArray();
    return Status::OK();
  }

  Status Visit(const FixedSizeBinaryType& type) {
    WriteValidity();
    const int64_t width = type.byte_width();
    const uint8_t* raw = BufferData(data_, 1);
    out_->PlainKey("DATA");
    out_->BeginArray();
    for (int64_t i = 0; i < length_; ++i)
      out_->HexString(width == 0 ? nullptr : raw + (begin_ + i) * width, width);
    out_->EndArray();
    return Status::OK();
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

// An OutputStream appending to a std::string.
class StringOutputStream final : public io::OutputStream {
 public:
  explicit StringOutputStream(std::string* out) : out_(out) {}
  Status Write(const void* data, int64_t nbytes) override {
    out_->append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return static_cast<int64_t>(out_->size()); }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }

 private:
  std::string* out_;
};

// An OutputStream writing to a std::ostream.
class StdOutputStream final : public io::OutputStream {
 public:
  explicit StdOutputStream(std::ostream* out) : out_(out) {}
  Status Write(const void* data, int64_t nbytes) override {
    out_->write(static_cast<const char*>(data), static_cast<std::streamsize>(nbytes));
    if (!*out_) return Status::IOError("integration JSON: writing the output failed");
    position_ += nbytes;
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return position_; }
  Status Flush() override {
    out_->flush();
    return *out_ ? Status::OK() : Status::IOError("integration JSON: writing the output failed");
  }
  Status Close() override { return Flush(); }
  bool closed() const override { return false; }

 private:
  std::ostream* out_;
  int64_t position_ = 0;
};

// The text of one column, for comparing what two arrays would write.
Result<std::string> ColumnText(const ArrayData& data) {
  std::string text;
  StringOutputStream sink(&text);
  JsonTextWriter out(&sink);
  ALKAID_RETURN_NOT_OK(WriteColumn(&out, data, data.offset, data.length, ""));
  ALKAID_RETURN_NOT_OK(out.Flush());
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------
// Dictionaries carried by the batches

namespace internal {

class DictionaryCollector {
 public:
  explicit DictionaryCollector(const DictionaryIds& ids) : ids_(ids) {}

  Status Collect(const ArrayData& data, FieldPath* path) {
    const DataType& storage = internal::UnwrapExtension(*data.type);
    const DataType* walk = &storage;
    const ArrayData* children_of = &data;
    if (storage.id() == TypeId::kDictionary) {
      ALKAID_RETURN_NOT_OK(Record(data, *path));
      if (data.dictionary == nullptr) return Status::OK();
      walk = &internal::UnwrapExtension(*static_cast<const DictionaryType&>(storage).value_type());
      children_of = data.dictionary.get();
    }
    for (int i = 0; i < walk->num_fields() && static_cast<size_t>(i) < children_of->child_data.size(); ++i) {
      path->push_back(i);
      Status st = Collect(*children_of->child_data[static_cast<size_t>(i)], path);
      path->pop_back();
      ALKAID_RETURN_NOT_OK(st);
    }
    return Status::OK();
  }

  std::map<int64_t, ArrayDataPtr> Take() { return std::move(found_); }

 private:
  Status Record(const ArrayData& data, const FieldPath& path) {
    auto id = ids_.Get(path);
    if (!id) return Status::KeyError("a dictionary-encoded column has no dictionary id");
    if (data.dictionary == nullptr) {
      if (data.length == 0) return Status::OK();
      return Status::Invalid("dictionary-encoded column with id ", *id, " has no dictionary");
    }
    auto [it, inserted] = found_.emplace(*id, data.dictionary);
    if (inserted || it->second == data.dictionary) return Status::OK();
    // Different objects may still hold the same values; compare what would be written.
    ALKAID_ASSIGN_OR_RAISE(std::string a, ColumnText(*it->second));
    ALKAID_ASSIGN_OR_RAISE(std::string b, ColumnText(*data.dictionary));
    if (a != b)
      return Status::NotImplemented("dictionary id ", *id,
                                    " has different dictionaries in different batches; integration "
                                    "JSON holds one dictionary per id");
    return Status::OK();
  }

  const DictionaryIds& ids_;
  std::map<int64_t, ArrayDataPtr> found_;
};

}  // namespace internal

namespace {

Result<std::map<int64_t, ArrayDataPtr>> CollectDictionaries(const std::vector<RecordBatchPtr>& batches,
                                                            const DictionaryIds& ids) {
  IntegrationDictionaries collector(ids);
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(collector.Add(*batch));
  return collector.Take();
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}
int64_t SaturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

// A lower bound of the bytes the JSON of `length` slots of `data` takes,
// from lengths alone (no values are read): every slot of a node that has a
// VALIDITY or DATA array costs at least two bytes ("1,"). It lets the writer
// refuse a column of 2^62 struct slots before starting on it.
int64_t MinJsonBytes(const ArrayData& data, int64_t length) {
  const DataType& type = internal::UnwrapExtension(*data.type);
  int64_t per_slot_arrays = 2;  // VALIDITY and DATA/OFFSET/TYPE_ID
  int64_t children = 0;
  switch (type.id()) {
    case TypeId::kNull:
    case TypeId::kRunEndEncoded:  // runs, not slots, are written
      return 0;
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
      per_slot_arrays = 1;
      for (const auto& child : data.child_data) children = SaturatingAdd(children, MinJsonBytes(*child, length));
      break;
    case TypeId::kFixedSizeList: {
      int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
      if (!data.child_data.empty())
        children = MinJsonBytes(*data.child_data[0], SaturatingMul(length, size));
      break;
    }
    default:
      break;
  }
  return SaturatingAdd(SaturatingMul(SaturatingMul(length, per_slot_arrays), 2), children);
}

}  // namespace

// ---------------------------------------------------------------------------
// Streaming writer

struct IntegrationJsonWriter::Impl {
  Impl(std::unique_ptr<io::OutputStream> owned, io::OutputStream* sink, SchemaPtr schema,
       const IntegrationWriteOptions& options)
      : owned_sink(std::move(owned)), text(sink), schema(std::move(schema)), options(options) {}

  Status CheckBudget(int64_t more, const std::string& what) const {
    if (options.max_output_bytes < 0) return Status::OK();
    const int64_t written = text.bytes_produced();
    if (more > options.max_output_bytes - written)
      return Status::CapacityError(what, " needs at least ", more, " bytes of integration JSON, and ",
                                   written, " were already written; the output limit is ",
                                   options.max_output_bytes, " bytes");
    return Status::OK();
  }

  Status CheckColumn(int64_t bytes, const std::string& what) const {
    if (options.max_column_bytes >= 0 && bytes > options.max_column_bytes)
      return Status::CapacityError(what, " needs at least ", bytes,
                                   " bytes of integration JSON, more than the limit of ",
                                   options.max_column_bytes, " bytes per column");
    return CheckBudget(bytes, what);
  }

  Status Begin(const DictionaryIds& ids, const std::map<int64_t, ArrayDataPtr>& dictionaries);
  Status Batch(const RecordBatch& batch);

  std::unique_ptr<io::OutputStream> owned_sink;
  JsonTextWriter text;
  SchemaPtr schema;
  IntegrationWriteOptions options;
  int64_t num_batches = 0;
  bool closed = false;
};

IntegrationJsonWriter::IntegrationJsonWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

IntegrationJsonWriter::~IntegrationJsonWriter() = default;

int64_t IntegrationJsonWriter::bytes_written() const { return impl_->text.bytes_produced(); }

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Open(
    std::ostream* out, SchemaPtr schema, const DictionaryIds& ids,
    const std::map<int64_t, ArrayDataPtr>& dictionaries, const IntegrationWriteOptions& options) {
  if (out == nullptr) return Status::Invalid("IntegrationJsonWriter: null output");
  auto sink = std::make_unique<StdOutputStream>(out);
  io::OutputStream* raw = sink.get();
  return Start(std::move(sink), raw, std::move(schema), ids, dictionaries, options);
}

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Open(
    io::OutputStream* out, SchemaPtr schema, const DictionaryIds& ids,
    const std::map<int64_t, ArrayDataPtr>& dictionaries, const IntegrationWriteOptions& options) {
  return Start(nullptr, out, std::move(schema), ids, dictionaries, options);
}

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Start(
    std::unique_ptr<io::OutputStream> owned, io::OutputStream* out, SchemaPtr schema,
    const DictionaryIds& ids, const std::map<int64_t, ArrayDataPtr>& dictionaries,
    const IntegrationWriteOptions& options) {
  if (out == nullptr || schema == nullptr)
    return Status::Invalid("IntegrationJsonWriter: null output or schema");
  try {
    auto impl = std::make_unique<Impl>(std::move(owned), out, schema, options);
    ALKAID_RETURN_NOT_OK(impl->Begin(ids, dictionaries));
    return std::unique_ptr<IntegrationJsonWriter>(new IntegrationJsonWriter(std::move(impl)));
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing");
  } catch (const nlohmann::json::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
}

Status IntegrationJsonWriter::Impl::Begin(const DictionaryIds& ids,
                                          const std::map<int64_t, ArrayDataPtr>& dictionaries) {
  ALKAID_ASSIGN_OR_RAISE(internal::OrderedJson schema_json, internal::SchemaToJson(*schema, ids));
  text.BeginObject();
  text.PlainKey("schema");
  ALKAID_RETURN_NOT_OK(text.Dom(schema_json));
  if (!dictionaries.empty()) {
    text.PlainKey("dictionaries");
    text.BeginArray();
    for (const auto& [id, values] : dictionaries) {
      const std::string what = "dictionary " + std::to_string(id);
      ALKAID_RETURN_NOT_OK(CheckColumn(MinJsonBytes(*values, values->length), what));
      text.BeginObject();
      text.PlainKey("id");
      text.Int(id);
      text.PlainKey("data");
      text.BeginObject();
      text.PlainKey("count");
      text.Int(values->length);
      text.PlainKey("columns");
      text.BeginArray();
      ALKAID_RETURN_NOT_OK(
          WriteColumn(&text, *values, values->offset, values->length, "DICT" + std::to_string(id)));
      text.EndArray();
      text.EndObject();
      text.EndObject();
    }
    text.EndArray();
  }
  text.PlainKey("batches");
  text.BeginArray();
  return text.Flush();
}

Status IntegrationJsonWriter::WriteRecordBatch(const RecordBatch& batch) {
  try {
    return impl_->Batch(batch);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing batch ",
                               impl_->num_batches);
  }
}

Status IntegrationJsonWriter::Impl::Batch(const RecordBatch& batch) {
  if (closed) return Status::Invalid("IntegrationJsonWriter: already closed");
  const int64_t b = num_batches;
  if (batch.num_columns() != schema->num_fields())
    return Status::Invalid("batch ", b, " has ", batch.num_columns(), " columns but the schema has ",
                           schema->num_fields(), " fields");
  int64_t need = 0;
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& column = *batch.column_data(c);
    if (column.length != batch.num_rows())
      return Status::Invalid("batch ", b, " column ", c, " has length ", column.length,
                             " but the batch has ", batch.num_rows(), " rows");
    int64_t bytes = MinJsonBytes(column, column.length);
    ALKAID_RETURN_NOT_OK(CheckColumn(bytes, "batch " + std::to_string(b) + " column " +
                                                std::to_string(c) + " ('" + batch.column_name(c) +
                                                "', " + std::to_string(column.length) + " rows)"));
    need = SaturatingAdd(need, bytes);
  }
  ALKAID_RETURN_NOT_OK(CheckBudget(need, "batch " + std::to_string(b) + " (" +
                                         std::to_string(batch.num_rows()) + " rows)"));
  text.BeginObject();
  text.PlainKey("count");
  text.Int(batch.num_rows());
  text.PlainKey("columns");
  text.BeginArray();
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& column = *batch.column_data(c);
    Status st = WriteColumn(&text, column, column.offset, column.length, schema->field(c)->name());
    if (!st.ok()) return st.WithContext("batch " + std::to_string(b));
  }
  text.EndArray();
  text.EndObject();
  // Whole batches reach the output as they are done.
  ALKAID_RETURN_NOT_OK(text.Flush());
  ++num_batches;
  return Status::OK();
}

Status IntegrationJsonWriter::Close() {
  Impl& impl = *impl_;
  if (impl.closed) return Status::OK();
  impl.closed = true;
  impl.text.EndArray();
  impl.text.EndObject();
  ALKAID_RETURN_NOT_OK(impl.text.Flush());
  if (impl.owned_sink != nullptr) return impl.owned_sink->Flush();
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Dictionaries collected batch by batch

IntegrationDictionaries::IntegrationDictionaries(DictionaryIds ids)
    : ids_(std::move(ids)), collector_(std::make_unique<internal::DictionaryCollector>(ids_)) {}
IntegrationDictionaries::~IntegrationDictionaries() = default;

Status IntegrationDictionaries::Add(const RecordBatch& batch) {
  FieldPath path;
  for (int c = 0; c < batch.num_columns(); ++c) {
    path.assign(1, c);
    Status st = collector_->Collect(*batch.column_data(c), &path);
    if (!st.ok())
      return st.WithContext("batch " + std::to_string(num_batches_) + " column " + std::to_string(c));
  }
  ++num_batches_;
  return Status::OK();
}

std::map<int64_t, ArrayDataPtr> IntegrationDictionaries::Take() { return collector_->Take(); }

namespace {

Result<std::string> WriteFile(const Schema& schema, const DictionaryIds& ids,
                              const std::map<int64_t, ArrayDataPtr>& dictionaries,
                              const std::vector<RecordBatchPtr>& batches) {
  std::string text;
  StringOutputStream out(&text);
  // The writer keeps the schema alive; a non-owning alias suffices here.
  SchemaPtr alias(std::shared_ptr<Schema>(), const_cast<Schema*>(&schema));
  ALKAID_ASSIGN_OR_RAISE(auto writer, IntegrationJsonWriter::Open(&out, alias, ids, dictionaries));
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return text;
}

}  // namespace

Result<std::string> WriteIntegrationJson(const IntegrationFile& file) {
  if (file.schema == nullptr) return Status::Invalid("WriteIntegrationJson: the file has no schema");
  DictionaryIds ids = file.dictionary_ids.empty() ? DictionaryIds::AssignSequential(*file.schema)
                                                  : file.dictionary_ids;
  if (!file.dictionaries.empty()) return WriteFile(*file.schema, ids, file.dictionaries, file.batches);
  ALKAID_ASSIGN_OR_RAISE(auto dictionaries, CollectDictionaries(file.batches, ids));
  return WriteFile(*file.schema, ids, dictionaries, file.batches);
}

Result<std::string> WriteIntegrationJson(const Schema& schema, const std::vector<RecordBatchPtr>& batches,
                                         const DictionaryIds* ids) {
  DictionaryIds assigned = ids != nullptr ? *ids : DictionaryIds::AssignSequential(schema);
  ALKAID_ASSIGN_OR_RAISE(auto dictionaries, CollectDictionaries(batches, assigned));
  return WriteFile(schema, assigned, dictionaries, batches);
}

Result<std::string> WriteIntegrationSchemaJson(const Schema& schema, const DictionaryIds* ids) {
  DictionaryIds assigned = ids != nullptr ? *ids : DictionaryIds::AssignSequential(schema);
  try {
    ALKAID_ASSIGN_OR_RAISE(internal::OrderedJson json, internal::SchemaToJson(schema, assigned));
    std::string text;
    StringOutputStream sink(&text);
    JsonTextWriter out(&sink);
    ALKAID_RETURN_NOT_OK(out.Dom(json));
    ALKAID_RETURN_NOT_OK(out.Flush());
    return text;
  } catch (const std::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
}

}  // namespace alkaid::integration_json
