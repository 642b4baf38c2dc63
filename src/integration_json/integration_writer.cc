// IntegrationFile -> integration JSON in the reference layout.
//
// Sliced arrays are written as what they show: a column covers slots
// [begin, begin + count) of its ArrayData, offsets are rebased to start at
// zero and children are cut to the range the parent uses (list views and
// dense unions keep their offsets and write the whole child).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "alkaid/integration_json/integration.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "integration_internal.h"

namespace alkaid::integration_json {

namespace {

using internal::OrderedJson;

Result<OrderedJson> WriteColumn(const ArrayData& data, int64_t begin, int64_t length,
                                const std::string& name);

// A 64-bit integer goes out as a string; narrower ones as numbers.
template <typename T>
OrderedJson IntegerJson(T value) {
  if constexpr (sizeof(T) == 8) {
    return OrderedJson(std::to_string(value));
  } else if constexpr (std::is_signed_v<T>) {
    return OrderedJson(static_cast<int64_t>(value));
  } else {
    return OrderedJson(static_cast<uint64_t>(value));
  }
}

class ColumnWriter {
 public:
  ColumnWriter(const ArrayData& data, int64_t begin, int64_t length, OrderedJson* out)
      : data_(data), begin_(begin), length_(length), out_(*out) {}

  Status Visit(const NullType&) { return Status::OK(); }

  Status Visit(const BooleanType&) {
    WriteValidity();
    const uint8_t* bits = data_.buffers[1]->data();
    OrderedJson values = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i) values.push_back(bit_util::GetBit(bits, begin_ + i));
    out_["DATA"] = std::move(values);
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<has_c_type_v<T>, Status> Visit(const T&) {
    using C = typename T::c_type;
    WriteValidity();
    const uint8_t* raw = data_.buffers[1]->data();
    OrderedJson values = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i) {
      C value;
      std::memcpy(&value, raw + (begin_ + i) * static_cast<int64_t>(sizeof(C)), sizeof(C));
      ALKAID_ASSIGN_OR_RAISE(OrderedJson v, ValueJson<T>(value, i));
      values.push_back(std::move(v));
    }
    out_["DATA"] = std::move(values);
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_decimal_v<T>, Status> Visit(const T& type) {
    WriteValidity();
    const int width = type.byte_width();
    const uint8_t* raw = data_.buffers[1]->data();
    OrderedJson values = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i)
      values.push_back(internal::FormatDecimalInteger(raw + (begin_ + i) * width, width));
    out_["DATA"] = std::move(values);
    return Status::OK();
  }

  Status Visit(const FixedSizeBinaryType& type) {
    WriteValidity();
    const int64_t width = type.byte_width();
    const uint8_t* raw = data_.buffers[1] ? data_.buffers[1]->data() : nullptr;
    OrderedJson values = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i)
      values.push_back(internal::HexEncode(raw + (begin_ + i) * width, width));
    out_["DATA"] = std::move(values);
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_base_binary_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    constexpr bool kHex = !std::is_same_v<T, StringType> && !std::is_same_v<T, LargeStringType>;
    WriteValidity();
    const Offset* off = data_.buffers[1]->data_as<Offset>() + begin_;
    const uint8_t* bytes = data_.buffers[2] ? data_.buffers[2]->data() : nullptr;
    WriteRebasedOffsets(off);
    OrderedJson values = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i) {
      const uint8_t* value = bytes + off[i];
      int64_t size = static_cast<int64_t>(off[i + 1] - off[i]);
      if constexpr (kHex) {
        values.push_back(internal::HexEncode(value, size));
      } else {
        values.push_back(size == 0 ? std::string()
                                   : std::string(reinterpret_cast<const char*>(value), static_cast<size_t>(size)));
      }
    }
    out_["DATA"] = std::move(values);
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_binary_view_v<T>, Status> Visit(const T&) {
    constexpr bool kHex = std::is_same_v<T, BinaryViewType>;
    WriteValidity();
    const auto* views = data_.buffers[1]->data_as<BinaryViewValue>() + begin_;
    OrderedJson out = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i) {
      const BinaryViewValue& v = views[i];
      OrderedJson view = OrderedJson::object();
      view["SIZE"] = v.size();
      if (v.is_inline()) {
        if constexpr (kHex) {
          view["INLINED"] = internal::HexEncode(v.inlined.data, v.size());
        } else {
          view["INLINED"] = std::string(reinterpret_cast<const char*>(v.inlined.data),
                                        static_cast<size_t>(std::max(v.size(), 0)));
        }
      } else {
        view["PREFIX_HEX"] = internal::HexEncode(v.ref.prefix, BinaryViewValue::kPrefixSize);
        view["BUFFER_INDEX"] = v.ref.buffer_index;
        view["OFFSET"] = v.ref.offset;
      }
      out.push_back(std::move(view));
    }
    out_["VIEWS"] = std::move(out);
    OrderedJson buffers = OrderedJson::array();
    for (size_t b = 2; b < data_.buffers.size(); ++b) {
      const auto& buffer = data_.buffers[b];
      buffers.push_back(buffer ? internal::HexEncode(buffer->data(), buffer->size()) : std::string());
    }
    out_["VARIADIC_DATA_BUFFERS"] = std::move(buffers);
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_var_list_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    WriteValidity();
    const Offset* off = data_.buffers[1]->data_as<Offset>() + begin_;
    WriteRebasedOffsets(off);
    const ArrayData& child = *data_.child_data[0];
    return WriteChildren(type, {{child.offset + off[0], off[length_] - off[0]}});
  }

  template <typename T>
  std::enable_if_t<is_list_view_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    WriteValidity();
    out_["OFFSET"] = IntegerArray(data_.buffers[1]->data_as<Offset>() + begin_, length_);
    out_["SIZE"] = IntegerArray(data_.buffers[2]->data_as<Offset>() + begin_, length_);
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
    out_["TYPE_ID"] = IntegerArray(data_.buffers[0]->data_as<int8_t>() + begin_, length_);
    if constexpr (std::is_same_v<T, DenseUnionType>) {
      out_["OFFSET"] = IntegerArray(data_.buffers[1]->data_as<int32_t>() + begin_, length_);
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
    const uint8_t* bits = data_.null_count != 0 && !data_.buffers.empty() && data_.buffers[0]
                              ? data_.buffers[0]->data()
                              : nullptr;
    OrderedJson validity = OrderedJson::array();
    for (int64_t i = 0; i < length_; ++i)
      validity.push_back(bits == nullptr || bit_util::GetBit(bits, begin_ + i) ? 1 : 0);
    out_["VALIDITY"] = std::move(validity);
  }

  bool IsValid(int64_t i) const {
    if (data_.null_count == 0 || data_.buffers.empty() || data_.buffers[0] == nullptr) return true;
    return bit_util::GetBit(data_.buffers[0]->data(), begin_ + i);
  }

  template <typename T, typename C>
  Result<OrderedJson> ValueJson(const C& value, int64_t i) const {
    if constexpr (std::is_same_v<T, HalfFloatType>) {
      return FloatJson(internal::FloatForPrinting(internal::HalfToFloat(value)), i);
    } else if constexpr (std::is_same_v<C, float>) {
      return FloatJson(internal::FloatForPrinting(value), i);
    } else if constexpr (std::is_same_v<C, double>) {
      return FloatJson(value, i);
    } else if constexpr (std::is_same_v<C, DayTimeInterval>) {
      return OrderedJson{{"days", value.days}, {"milliseconds", value.milliseconds}};
    } else if constexpr (std::is_same_v<C, MonthDayNanoInterval>) {
      // The reference spells nanoseconds as a JSON number even though it is 64-bit.
      return OrderedJson{{"months", value.months}, {"days", value.days}, {"nanoseconds", value.nanoseconds}};
    } else {
      return IntegerJson(value);
    }
  }

  // JSON has no NaN or infinity. Null slots may hold anything and are
  // written as 0; a valid non-finite value cannot be represented.
  Result<OrderedJson> FloatJson(double value, int64_t i) const {
    if (std::isfinite(value)) return OrderedJson(value);
    if (!IsValid(i)) return OrderedJson(0.0);
    return Status::NotImplemented("slot ", i, " holds ", value,
                                  ", which integration JSON cannot represent");
  }

  template <typename Offset>
  void WriteRebasedOffsets(const Offset* off) {
    OrderedJson offsets = OrderedJson::array();
    for (int64_t i = 0; i <= length_; ++i) offsets.push_back(IntegerJson<Offset>(off[i] - off[0]));
    out_["OFFSET"] = std::move(offsets);
  }

  template <typename C>
  static OrderedJson IntegerArray(const C* values, int64_t n) {
    OrderedJson out = OrderedJson::array();
    for (int64_t i = 0; i < n; ++i) out.push_back(IntegerJson<C>(values[i]));
    return out;
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
    OrderedJson children = OrderedJson::array();
    for (int i = 0; i < type.num_fields(); ++i) {
      const Window& w = windows[static_cast<size_t>(i)];
      ALKAID_ASSIGN_OR_RAISE(OrderedJson child, WriteColumn(*data_.child_data[static_cast<size_t>(i)],
                                                            w.begin, w.length, type.field(i)->name()));
      children.push_back(std::move(child));
    }
    out_["children"] = std::move(children);
    return Status::OK();
  }

  // Runs covering logical slots [begin, begin + length), with their ends
  // made relative to `begin` and clipped to `length`.
  template <typename RunEnd>
  Status WriteRunEndEncoded(const RunEndEncodedType& type) {
    const ArrayData& run_ends = *data_.child_data[0];
    const ArrayData& values = *data_.child_data[1];
    const RunEnd* ends = run_ends.GetValues<RunEnd>(1);
    const RunEnd* ends_end = ends + run_ends.length;
    int64_t first = std::upper_bound(ends, ends_end, static_cast<RunEnd>(begin_)) - ends;
    int64_t last = length_ == 0 ? first
                                : std::lower_bound(ends, ends_end, static_cast<RunEnd>(begin_ + length_)) - ends + 1;
    last = std::min<int64_t>(last, run_ends.length);
    OrderedJson ends_json = OrderedJson::object();
    ends_json["name"] = type.field(0)->name();
    ends_json["count"] = last - first;
    OrderedJson validity = OrderedJson::array();
    OrderedJson data = OrderedJson::array();
    for (int64_t r = first; r < last; ++r) {
      validity.push_back(1);
      int64_t end = std::min<int64_t>(static_cast<int64_t>(ends[r]) - begin_, length_);
      data.push_back(IntegerJson<RunEnd>(static_cast<RunEnd>(end)));
    }
    ends_json["VALIDITY"] = std::move(validity);
    ends_json["DATA"] = std::move(data);
    ALKAID_ASSIGN_OR_RAISE(OrderedJson values_json,
                           WriteColumn(values, values.offset + first, last - first, type.field(1)->name()));
    out_["children"] = OrderedJson::array({std::move(ends_json), std::move(values_json)});
    return Status::OK();
  }

  const ArrayData& data_;
  int64_t begin_;
  int64_t length_;
  OrderedJson& out_;
};

Result<OrderedJson> WriteColumn(const ArrayData& data, int64_t begin, int64_t length,
                                const std::string& name) {
  OrderedJson out = OrderedJson::object();
  out["name"] = name;
  out["count"] = length;
  ColumnWriter writer(data, begin, length, &out);
  Status st = VisitTypeInline(*data.type, &writer);
  if (!st.ok()) return st.WithContext("column " + name);
  return out;
}

// ---------------------------------------------------------------------------
// Dictionaries carried by the batches

}  // namespace

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
    ALKAID_ASSIGN_OR_RAISE(OrderedJson a, WriteColumn(*it->second, it->second->offset, it->second->length, ""));
    ALKAID_ASSIGN_OR_RAISE(OrderedJson b, WriteColumn(*data.dictionary, data.dictionary->offset,
                                                      data.dictionary->length, ""));
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

static Result<std::map<int64_t, ArrayDataPtr>> CollectDictionaries(const std::vector<RecordBatchPtr>& batches,
                                                            const DictionaryIds& ids) {
  IntegrationDictionaries collector(ids);
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(collector.Add(*batch));
  return collector.Take();
}

namespace {

Result<std::string> Dump(const OrderedJson& root) {
  try {
    return root.dump(2, ' ', /*ensure_ascii=*/true, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::exception& e) {
    // The only failure left at this point is a string that is not UTF-8.
    return Status::Invalid("integration JSON: cannot serialize: ", e.what());
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while serializing");
  }
}

// `value` dumped as it appears `level` levels deep in the document: with
// ensure_ascii every newline in the dump is structural (strings escape
// theirs), so indenting after each one reproduces one whole-document dump.
Result<std::string> DumpAtLevel(const OrderedJson& value, int level) {
  ALKAID_ASSIGN_OR_RAISE(std::string text, Dump(value));
  const std::string indent(static_cast<size_t>(2 * level), ' ');
  std::string out = indent;
  out.reserve(text.size() + indent.size());
  for (char ch : text) {
    out.push_back(ch);
    if (ch == '\n') out += indent;
  }
  return out;
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
// refuse a column of 2^62 struct slots before trying to build it.
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

IntegrationJsonWriter::IntegrationJsonWriter(std::ostream* out, SchemaPtr schema,
                                             const IntegrationWriteOptions& options)
    : out_(out), schema_(std::move(schema)), options_(options) {}

IntegrationJsonWriter::~IntegrationJsonWriter() = default;

Status IntegrationJsonWriter::Emit(std::string_view text) {
  bytes_written_ += static_cast<int64_t>(text.size());
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!*out_) return Status::IOError("integration JSON: writing the output failed");
  return Status::OK();
}

Status IntegrationJsonWriter::CheckColumn(int64_t bytes, const std::string& what) const {
  if (options_.max_column_bytes >= 0 && bytes > options_.max_column_bytes)
    return Status::CapacityError(what, " needs at least ", bytes,
                                 " bytes of integration JSON, more than the limit of ",
                                 options_.max_column_bytes, " bytes per column");
  return CheckBudget(bytes, what);
}

Status IntegrationJsonWriter::CheckBudget(int64_t more, const std::string& what) const {
  if (options_.max_output_bytes < 0) return Status::OK();
  if (more > options_.max_output_bytes - bytes_written_)
    return Status::CapacityError(what, " needs at least ", more, " bytes of integration JSON, and ",
                                 bytes_written_, " were already written; the output limit is ",
                                 options_.max_output_bytes, " bytes");
  return Status::OK();
}

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Open(
    std::ostream* out, SchemaPtr schema, const DictionaryIds& ids,
    const std::map<int64_t, ArrayDataPtr>& dictionaries, const IntegrationWriteOptions& options) {
  if (out == nullptr || schema == nullptr)
    return Status::Invalid("IntegrationJsonWriter: null output or schema");
  std::unique_ptr<IntegrationJsonWriter> writer(new IntegrationJsonWriter(out, schema, options));
  try {
    ALKAID_ASSIGN_OR_RAISE(OrderedJson schema_json, internal::SchemaToJson(*schema, ids));
    ALKAID_ASSIGN_OR_RAISE(std::string schema_text, DumpAtLevel(schema_json, 1));
    schema_text.erase(0, 2);  // follows the key on its line
    ALKAID_RETURN_NOT_OK(writer->Emit("{\n  \"schema\": " + schema_text));
    if (!dictionaries.empty()) {
      ALKAID_RETURN_NOT_OK(writer->Emit(",\n  \"dictionaries\": [\n"));
      bool first = true;
      for (const auto& [id, values] : dictionaries) {
        ALKAID_RETURN_NOT_OK(writer->CheckColumn(MinJsonBytes(*values, values->length),
                                                 "dictionary " + std::to_string(id)));
        ALKAID_ASSIGN_OR_RAISE(OrderedJson column, WriteColumn(*values, values->offset, values->length,
                                                               "DICT" + std::to_string(id)));
        OrderedJson data = OrderedJson::object();
        data["count"] = values->length;
        data["columns"] = OrderedJson::array({std::move(column)});
        ALKAID_ASSIGN_OR_RAISE(std::string text,
                               DumpAtLevel(OrderedJson{{"id", id}, {"data", std::move(data)}}, 2));
        ALKAID_RETURN_NOT_OK(writer->Emit(first ? text : ",\n" + text));
        first = false;
      }
      ALKAID_RETURN_NOT_OK(writer->Emit("\n  ]"));
    }
    ALKAID_RETURN_NOT_OK(writer->Emit(",\n  \"batches\": ["));
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing");
  } catch (const nlohmann::json::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
  return writer;
}

Status IntegrationJsonWriter::WriteRecordBatch(const RecordBatch& batch) {
  if (closed_) return Status::Invalid("IntegrationJsonWriter: already closed");
  const int64_t b = num_batches_;
  const Schema& schema = *schema_;
  if (batch.num_columns() != schema.num_fields())
    return Status::Invalid("batch ", b, " has ", batch.num_columns(), " columns but the schema has ",
                           schema.num_fields(), " fields");
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
  try {
    ALKAID_RETURN_NOT_OK(Emit(b == 0 ? "\n" : ",\n"));
    ALKAID_RETURN_NOT_OK(Emit("    {\n      \"count\": " + std::to_string(batch.num_rows()) +
                              ",\n      \"columns\": ["));
    // One column's document at a time: memory follows the largest column.
    for (int c = 0; c < batch.num_columns(); ++c) {
      const ArrayData& column = *batch.column_data(c);
      auto written = WriteColumn(column, column.offset, column.length, schema.field(c)->name());
      if (!written.ok()) return written.status().WithContext("batch " + std::to_string(b));
      ALKAID_ASSIGN_OR_RAISE(std::string text, DumpAtLevel(*written, 4));
      ALKAID_RETURN_NOT_OK(Emit(c == 0 ? "\n" : ",\n"));
      ALKAID_RETURN_NOT_OK(Emit(text));
    }
    ALKAID_RETURN_NOT_OK(Emit(batch.num_columns() == 0 ? "]\n    }" : "\n      ]\n    }"));
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing batch ", b);
  } catch (const nlohmann::json::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
  ++num_batches_;
  return Status::OK();
}

Status IntegrationJsonWriter::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  return Emit(num_batches_ == 0 ? "]\n}" : "\n  ]\n}");
}

// ---------------------------------------------------------------------------
// Dictionaries collected batch by batch

// The public class names its collector without naming the internal one.
class IntegrationDictionaries::Collector : public internal::DictionaryCollector {
 public:
  using DictionaryCollector::DictionaryCollector;
};

IntegrationDictionaries::IntegrationDictionaries(DictionaryIds ids)
    : ids_(std::move(ids)), collector_(std::make_unique<Collector>(ids_)) {}
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
  std::ostringstream out;
  // The writer keeps the schema alive; a non-owning alias suffices here.
  SchemaPtr alias(std::shared_ptr<Schema>(), const_cast<Schema*>(&schema));
  ALKAID_ASSIGN_OR_RAISE(auto writer, IntegrationJsonWriter::Open(&out, alias, ids, dictionaries));
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return std::move(out).str();
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
    ALKAID_ASSIGN_OR_RAISE(OrderedJson json, internal::SchemaToJson(schema, assigned));
    return Dump(json);
  } catch (const std::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
}

}  // namespace alkaid::integration_json
