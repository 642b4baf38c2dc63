// Arrays and record batches from JSON literals: the JSON is parsed with
// nlohmann_json and every slot is appended through the builders, so the
// result is exactly what a program appending the same values would get.
#include "alkaid/integration_json/array_from_json.h"

#include <cmath>
#include <limits>
#include <new>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "alkaid/builder.h"
#include "alkaid/float16.h"
#include "alkaid/visit_type.h"

namespace alkaid::integration_json {

namespace {

using nlohmann::json;

// Prefixes a slot path step ("[3]", ".name") so nested failures read
// "[1].a[2]: <what went wrong>".
Status AtPath(const Status& st, const std::string& step) {
  if (st.ok()) return st;
  const std::string& msg = st.message();
  bool nested = !msg.empty() && (msg[0] == '[' || msg[0] == '.');
  return Status(st.code(), step + (nested ? "" : ": ") + msg);
}

std::string Describe(const json& v) {
  std::string text = v.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

Status Expected(const char* what, const DataType& type, const json& v) {
  return Status::Invalid("expected ", what, " for ", type.ToString(), ", got ", Describe(v));
}

template <typename C>
Status IntegerFromJson(const DataType& type, const json& v, C* out) {
  if (!v.is_number_integer()) return Expected("an integer", type, v);
  if (v.is_number_unsigned()) {
    auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<C>::max())) {
      return Status::Invalid(Describe(v), " is out of range for ", type.ToString());
    }
    *out = static_cast<C>(u);
    return Status::OK();
  }
  auto s = v.get<int64_t>();
  if constexpr (std::is_signed_v<C>) {
    if (s < static_cast<int64_t>(std::numeric_limits<C>::min()) ||
        s > static_cast<int64_t>(std::numeric_limits<C>::max())) {
      return Status::Invalid(Describe(v), " is out of range for ", type.ToString());
    }
  } else {
    if (s < 0 || static_cast<uint64_t>(s) > static_cast<uint64_t>(std::numeric_limits<C>::max())) {
      return Status::Invalid(Describe(v), " is out of range for ", type.ToString());
    }
  }
  *out = static_cast<C>(s);
  return Status::OK();
}

Status DoubleFromJson(const DataType& type, const json& v, double* out) {
  if (v.is_number()) {
    *out = v.get<double>();
    return Status::OK();
  }
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "NaN") *out = std::numeric_limits<double>::quiet_NaN();
    else if (s == "Inf") *out = std::numeric_limits<double>::infinity();
    else if (s == "-Inf") *out = -std::numeric_limits<double>::infinity();
    else return Expected("a number or NaN/Inf/-Inf", type, v);
    return Status::OK();
  }
  return Expected("a number", type, v);
}

template <typename C>
std::string BytesOf(const C& value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof(C));
}

// The raw bytes a builder's AppendValueBytes takes for one non-null JSON
// value of a primitive type; `handled` stays false for nested types.
struct ScalarBytesVisitor {
  const json& v;
  std::string* out;
  bool handled = false;

  Status Visit(const BooleanType& type) {
    handled = true;
    if (!v.is_boolean()) return Expected("true or false", type, v);
    *out = std::string(1, v.get<bool>() ? '\1' : '\0');
    return Status::OK();
  }
  // Floating point: the JSON number read as a double, stored at the type's
  // width (half floats as their 16 bits).
  template <typename T>
    requires(std::is_same_v<T, HalfFloatType> || std::is_same_v<T, FloatType> ||
             std::is_same_v<T, DoubleType>)
  Status Visit(const T& type) {
    handled = true;
    double d;
    ALKAID_RETURN_NOT_OK(DoubleFromJson(type, v, &d));
    if constexpr (std::is_same_v<T, HalfFloatType>) {
      *out = BytesOf(FloatToHalf(static_cast<float>(d)));
    } else {
      *out = BytesOf(static_cast<typename T::c_type>(d));
    }
    return Status::OK();
  }
  Status Visit(const DayTimeIntervalType& type) {
    return IntervalFields(type, "[days, milliseconds]", &DayTimeInterval::days,
                          &DayTimeInterval::milliseconds);
  }
  Status Visit(const MonthDayNanoIntervalType& type) {
    return IntervalFields(type, "[months, days, nanoseconds]", &MonthDayNanoInterval::months,
                          &MonthDayNanoInterval::days, &MonthDayNanoInterval::nanoseconds);
  }
  // An interval value: a JSON array of the interval's integer fields, in the
  // order given (`form` shows it in the error).
  template <typename Interval, typename... F>
  Status IntervalFields(const DataType& type, const char* form, F Interval::*... fields) {
    handled = true;
    if (!v.is_array() || v.size() != sizeof...(fields)) return Expected(form, type, v);
    Interval value{};
    size_t k = 0;
    Status st;
    // Stops at the first element that is not an integer of its field's width.
    (void)((st = IntegerFromJson(type, v[k++], &(value.*fields))).ok() && ...);
    ALKAID_RETURN_NOT_OK(st);
    *out = BytesOf(value);
    return Status::OK();
  }
  template <typename T>
    requires(has_c_type_v<T> && std::is_integral_v<typename T::c_type> &&
             !std::is_same_v<T, HalfFloatType>)
  Status Visit(const T& type) {
    handled = true;
    typename T::c_type value{};
    ALKAID_RETURN_NOT_OK(IntegerFromJson(type, v, &value));
    *out = BytesOf(value);
    return Status::OK();
  }
  template <typename T>
    requires is_decimal_v<T>
  Status Visit(const T& type) {
    handled = true;
    std::string text;
    if (v.is_string()) text = v.get<std::string>();
    else if (v.is_number_integer()) text = v.dump();
    else return Expected("a decimal string", type, v);
    uint8_t bytes[32];
    ALKAID_RETURN_NOT_OK(ParseDecimal(text, type.precision(), type.scale(), type.byte_width(), bytes));
    out->assign(reinterpret_cast<const char*>(bytes), static_cast<size_t>(type.byte_width()));
    return Status::OK();
  }
  template <typename T>
    requires(is_base_binary_v<T> || is_binary_view_v<T> || std::is_same_v<T, FixedSizeBinaryType>)
  Status Visit(const T& type) {
    handled = true;
    if (!v.is_string()) return Expected("a string", type, v);
    *out = v.get<std::string>();
    return Status::OK();
  }
  Status Visit(const ExtensionType& type) { return VisitTypeInline(*type.storage_type(), this); }
  template <typename T>
  Status Visit(const T&) {
    return Status::OK();  // nested: not a scalar
  }
};

// Appends one JSON slot to a builder, recursing through nested types.
class JsonAppender {
 public:
  Status Append(ArrayBuilder* builder, const json& v) {
    if (v.is_null()) {
      last_run_value_.erase(builder);
      return builder->AppendNull();
    }
    const DataType& type = *builder->type();
    if (type.id() == TypeId::kExtension) {
      return Append(static_cast<ExtensionBuilder*>(builder)->storage_builder(), v);
    }
    std::string bytes;
    ScalarBytesVisitor scalar{v, &bytes};
    ALKAID_RETURN_NOT_OK(VisitTypeInline(type, &scalar));
    if (scalar.handled) return builder->AppendValueBytes(bytes);
    NestedVisitor nested{this, builder, v};
    return VisitTypeInline(type, &nested);
  }

  // Appends every element of a JSON array, naming the failing slot.
  Status AppendAll(ArrayBuilder* builder, const json& values) {
    if (!values.is_array()) {
      return Status::Invalid("expected a JSON array of ", builder->type()->ToString(),
                             " slots, got ", Describe(values));
    }
    for (size_t i = 0; i < values.size(); ++i) {
      Status st = Append(builder, values[i]);
      if (!st.ok()) return AtPath(st, "[" + std::to_string(i) + "]");
    }
    return Status::OK();
  }

 private:
  struct NestedVisitor {
    JsonAppender* self;
    ArrayBuilder* builder;
    const json& v;

    Status Visit(const NullType& type) { return Expected("null", type, v); }
    template <typename T>
      requires(std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType>)
    Status Visit(const T& type) {
      if (!v.is_array()) return Expected("an array", type, v);
      auto* list = static_cast<BaseListBuilder<T>*>(builder);
      ALKAID_RETURN_NOT_OK(list->Append(true));
      return self->AppendAll(list->value_builder(), v);
    }
    template <typename T>
      requires is_list_view_v<T>
    Status Visit(const T& type) {
      if (!v.is_array()) return Expected("an array", type, v);
      auto* list = static_cast<BaseListViewBuilder<T>*>(builder);
      ALKAID_RETURN_NOT_OK(list->Append(true));
      return self->AppendAll(list->value_builder(), v);
    }
    Status Visit(const FixedSizeListType& type) {
      if (!v.is_array()) return Expected("an array", type, v);
      if (static_cast<int64_t>(v.size()) != type.list_size()) {
        return Status::Invalid("expected ", type.list_size(), " elements for ", type.ToString(),
                               ", got ", v.size());
      }
      auto* list = static_cast<FixedSizeListBuilder*>(builder);
      ALKAID_RETURN_NOT_OK(list->Append(true));
      return self->AppendAll(list->value_builder(), v);
    }
    Status Visit(const StructType& type) {
      auto* st = static_cast<StructBuilder*>(builder);
      if (v.is_array()) {
        if (static_cast<int>(v.size()) != type.num_fields()) {
          return Status::Invalid("expected ", type.num_fields(), " field values for ",
                                 type.ToString(), ", got ", v.size());
        }
        ALKAID_RETURN_NOT_OK(st->Append(true));
        for (int i = 0; i < type.num_fields(); ++i) {
          Status s = self->Append(st->field_builder(i), v[static_cast<size_t>(i)]);
          if (!s.ok()) return AtPath(s, "." + type.field(i)->name());
        }
        return Status::OK();
      }
      if (!v.is_object()) return Expected("an object", type, v);
      for (const auto& item : v.items()) {
        if (type.GetFieldIndex(item.key()) < 0) {
          return Status::Invalid("struct ", type.ToString(), " has no field '", item.key(), "'");
        }
      }
      ALKAID_RETURN_NOT_OK(st->Append(true));
      for (int i = 0; i < type.num_fields(); ++i) {
        const std::string& name = type.field(i)->name();
        auto found = v.find(name);
        Status s = found == v.end() ? st->field_builder(i)->AppendNull()
                                    : self->Append(st->field_builder(i), *found);
        if (!s.ok()) return AtPath(s, "." + name);
      }
      return Status::OK();
    }
    Status Visit(const MapType& type) {
      if (!v.is_array()) return Expected("an array of [key, value] pairs", type, v);
      auto* map = static_cast<MapBuilder*>(builder);
      ALKAID_RETURN_NOT_OK(map->Append(true));
      for (size_t i = 0; i < v.size(); ++i) {
        const json& pair = v[i];
        if (!pair.is_array() || pair.size() != 2) {
          return AtPath(Expected("a [key, value] pair", type, pair), "[" + std::to_string(i) + "]");
        }
        if (pair[0].is_null()) {
          return AtPath(Status::Invalid("map keys cannot be null"), "[" + std::to_string(i) + "]");
        }
        Status s = self->Append(map->key_builder(), pair[0]);
        if (s.ok()) s = self->Append(map->item_builder(), pair[1]);
        if (!s.ok()) return AtPath(s, "[" + std::to_string(i) + "]");
      }
      return Status::OK();
    }
    template <typename T>
      requires is_union_v<T>
    Status Visit(const T& type) {
      if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer()) {
        return Expected("[type_code, value]", type, v);
      }
      auto code64 = v[0].get<int64_t>();
      if (code64 < 0 || code64 > UnionType::kMaxTypeCode || type.child_index(static_cast<int8_t>(code64)) < 0) {
        return Status::Invalid(type.ToString(), " does not declare type code ", code64);
      }
      auto code = static_cast<int8_t>(code64);
      ArrayBuilder* child;
      if constexpr (std::is_same_v<T, SparseUnionType>) {
        auto* u = static_cast<SparseUnionBuilder*>(builder);
        ALKAID_RETURN_NOT_OK(u->Append(code));
        child = u->child_builder(code);
      } else {
        auto* u = static_cast<DenseUnionBuilder*>(builder);
        ALKAID_RETURN_NOT_OK(u->Append(code));
        child = u->child_builder(code);
      }
      return self->Append(child, v[1]);
    }
    Status Visit(const DictionaryType& type) {
      auto* dict = static_cast<DictionaryBuilder*>(builder);
      std::string bytes;
      ScalarBytesVisitor scalar{v, &bytes};
      ALKAID_RETURN_NOT_OK(VisitTypeInline(*type.value_type(), &scalar));
      if (scalar.handled) return dict->AppendBytes(bytes).status();
      // Nested dictionary values: memoize on the JSON text instead.
      auto& memo = self->dictionary_memo_[builder];
      std::string key = v.dump();
      auto found = memo.find(key);
      if (found != memo.end()) return dict->AppendIndex(found->second);
      int64_t index = dict->dictionary_length();
      ALKAID_RETURN_NOT_OK(self->Append(dict->value_builder(), v));
      memo.emplace(std::move(key), index);
      return dict->AppendIndex(index);
    }
    Status Visit(const RunEndEncodedType& type) {
      auto* ree = static_cast<RunEndEncodedBuilder*>(builder);
      std::string bytes;
      ScalarBytesVisitor scalar{v, &bytes};
      ALKAID_RETURN_NOT_OK(VisitTypeInline(*type.value_type(), &scalar));
      if (scalar.handled) return ree->AppendBytes(bytes);
      // Nested run values: equal JSON text extends the run.
      std::string key = v.dump();
      auto last = self->last_run_value_.find(builder);
      if (last != self->last_run_value_.end() && last->second == key) return ree->ExtendRun(1);
      ALKAID_RETURN_NOT_OK(self->Append(ree->values_builder(), v));
      self->last_run_value_[builder] = std::move(key);
      return ree->AppendRun(1);
    }
    template <typename T>
    Status Visit(const T& type) {
      return Status::NotImplemented("JSON literals for ", type.ToString());
    }
  };

  std::unordered_map<ArrayBuilder*, std::unordered_map<std::string, int64_t>> dictionary_memo_;
  std::unordered_map<ArrayBuilder*, std::string> last_run_value_;
};

// Rejects text nested deeper than kMaxJsonNestingDepth before it is parsed:
// the parser, the value tree's printing (in error messages) and the appender
// all recurse per level, and the text may come from a user. One linear scan
// that skips string contents.
Status CheckNestingDepth(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNestingDepth) {
        return Status::Invalid("JSON nested deeper than ", kMaxJsonNestingDepth,
                               " levels at byte ", i);
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return Status::OK();
}

Result<json> ParseJson(std::string_view text) {
  ALKAID_RETURN_NOT_OK(CheckNestingDepth(text));
  // The parser reports where the text went wrong only through its exception,
  // which is caught here and never leaves the library.
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    return Status::Invalid("malformed JSON at byte ", e.byte, ": ", e.what());
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("parsing ", text.size(), " bytes of JSON");
  } catch (const std::exception& e) {
    return Status::Invalid("malformed JSON: ", e.what());
  }
}

// MakeBuilder and the builders report failures as Status; the json values
// are only read through checked accessors. What can still throw is an
// allocation (strings, the memo tables).
template <typename F>
auto NoThrow(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("building an array from JSON");
  } catch (const std::exception& e) {
    return Status::Invalid("building an array from JSON: ", e.what());
  }
}

// The body of RecordBatchFromJSONString.
Result<RecordBatchPtr> RecordBatchFromRows(const SchemaPtr& schema, std::string_view text) {
  ALKAID_ASSIGN_OR_RAISE(json parsed, ParseJson(text));
  if (!parsed.is_array()) return Status::Invalid("expected a JSON array of row objects");
  for (size_t i = 0; i < parsed.size(); ++i) {
    if (!parsed[i].is_object()) {
      return Status::Invalid("row ", i, " is not an object: ", Describe(parsed[i]));
    }
  }
  // Rows are struct slots whose fields are the columns.
  auto row_type = struct_(schema->fields());
  ALKAID_ASSIGN_OR_RAISE(ArrayBuilderPtr builder, MakeBuilder(row_type));
  JsonAppender appender;
  ALKAID_RETURN_NOT_OK(appender.AppendAll(builder.get(), parsed));
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr rows, builder->Finish());
  return RecordBatch::Make(schema, rows->length, rows->child_data);
}

}  // namespace

Result<ArrayDataPtr> ArrayFromJSONString(const DataTypePtr& type, std::string_view text) {
  if (type == nullptr) return Status::Invalid("ArrayFromJSONString needs a type");
  return NoThrow([&]() -> Result<ArrayDataPtr> {
    ALKAID_ASSIGN_OR_RAISE(json parsed, ParseJson(text));
    ALKAID_ASSIGN_OR_RAISE(ArrayBuilderPtr builder, MakeBuilder(type));
    JsonAppender appender;
    ALKAID_RETURN_NOT_OK(appender.AppendAll(builder.get(), parsed));
    return builder->Finish();
  });
}

Result<ChunkedArrayPtr> ChunkedArrayFromJSONString(const DataTypePtr& type,
                                                   const std::vector<std::string>& chunks) {
  ArrayDataVector data;
  data.reserve(chunks.size());
  for (size_t c = 0; c < chunks.size(); ++c) {
    Result<ArrayDataPtr> chunk = ArrayFromJSONString(type, chunks[c]);
    if (!chunk.ok()) return chunk.status().WithContext("chunk " + std::to_string(c));
    data.push_back(std::move(chunk).MoveValueUnsafe());
  }
  return std::make_shared<ChunkedArray>(std::move(data), type);
}

Result<RecordBatchPtr> RecordBatchFromJSONString(const SchemaPtr& schema, std::string_view text) {
  if (schema == nullptr) return Status::Invalid("RecordBatchFromJSONString needs a schema");
  return NoThrow([&]() -> Result<RecordBatchPtr> { return RecordBatchFromRows(schema, text); });
}

}  // namespace alkaid::integration_json
