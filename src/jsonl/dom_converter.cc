// See dom_converter.h.
#include "dom_converter.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../text/text_values.h"
#include "alkaid/decimal.h"
#include "alkaid/float16.h"
#include "parse_line.h"

namespace alkaid::jsonl::internal {
namespace {

namespace dom = simdjson::dom;

bool HexValue(char c, int* v) {
  if (c >= '0' && c <= '9') *v = c - '0';
  else if (c >= 'a' && c <= 'f') *v = c - 'a' + 10;
  else if (c >= 'A' && c <= 'F') *v = c - 'A' + 10;
  else return false;
  return true;
}

bool DecodeHex(std::string_view s, std::string* out) {
  if (s.size() % 2 != 0) return false;
  out->resize(s.size() / 2);
  for (size_t i = 0; i < out->size(); ++i) {
    int hi, lo;
    if (!HexValue(s[2 * i], &hi) || !HexValue(s[2 * i + 1], &lo)) return false;
    (*out)[i] = static_cast<char>(hi << 4 | lo);
  }
  return true;
}

class Converter {
 public:
  // `allowance`: the block's allowance of nulls for left-out keys, named
  // in the error when it is spent.
  Converter(const ReadOptions& options, int64_t allowance)
      : options_(options), allowance_(allowance) {}

  // One top-level object into the column builders of `root`.
  bool Object(Node* n, dom::object obj) {
    uint64_t gen = ++n->gen;
    int i = 0;
    for (dom::key_value_pair kv : obj) {
      int idx = n->Find(kv.key);
      if (idx < 0) {
        if (options_.unexpected_fields == UnexpectedFields::kIgnore) continue;
        err.path = "." + std::string(kv.key);
        err.message = options_.schema
                          ? "a field not in the schema (use a schema that has it, or ignore "
                            "unexpected fields)"
                          : "a field not in the schema inferred from the first " +
                                std::to_string(options_.inference_rows) +
                                " lines (raise inference_rows, give a schema that has it, or "
                                "ignore unexpected fields)";
        if (!options_.schema) {
          err.detail = StatusDetail{StatusDetail::Kind::kInferredType,
                                    {"inference_rows", "unexpected_fields", "schema"}};
        }
        return false;
      }
      n->guess = idx + 1;
      auto& st = n->stamp[static_cast<size_t>(idx)];
      if (st == gen) {
        err.path = "." + std::string(kv.key);
        err.message = "the key appears twice in one object";
        return false;
      }
      st = gen;
      if (!Value(&n->children[static_cast<size_t>(idx)], kv.value)) {
        err.PrependKey(kv.key);
        return false;
      }
      ++i;
    }
    n->guess = 0;
    if (i != static_cast<int>(n->names.size())) {
      for (size_t k = 0; k < n->names.size(); ++k) {
        if (n->stamp[k] == gen) continue;
        if (n->children[k].nullable && !n->ChargeFill(k)) {
          err.message = FillSpentMessage();
          err.detail = StatusDetail{StatusDetail::Kind::kLimit, {"missing_nulls_per_byte"}};
          return false;
        }
        if (!Null(&n->children[k])) {
          err.path = "." + n->names[k];
          err.message = "missing, but the field is declared not nullable";
          return false;
        }
      }
    }
    return true;
  }

  PathError err;
  Status status;  // a builder failure (out of memory, capacity)

 private:
  bool Ok(Status st) {
    if (st.ok()) return true;
    status = std::move(st);
    err.message = status.message();
    return false;
  }
  bool Null(Node* n) {
    if (!n->nullable) {
      err.message = "null, but the field is declared not nullable";
      return false;
    }
    return Ok(n->builder->AppendNull());
  }
  bool Mismatch(const Node& n, dom::element e) {
    std::string_view text;
    const char* expected = Expected(*n.type);
    if (expected == kStringForm && !e.get_string().get(text)) {
      // A string of the wrong form: show it (its first 60 bytes, cut at a
      // character boundary).
      size_t cut = std::min<size_t>(text.size(), 60);
      while (cut > 0 && cut < text.size() && (static_cast<uint8_t>(text[cut]) & 0xC0) == 0x80) {
        --cut;
      }
      err.message = "\"" + std::string(text.substr(0, cut)) +
                    (cut < text.size() ? "...\"" : "\"") + " is not a valid " +
                    n.type->ToString() + SampleNote(*n.type);
      err.detail = SampleDetail(*n.type);
      return false;
    }
    err.message = std::string(KindName(e.type())) + " where the column type " +
                  n.type->ToString() + " expects " + expected + SampleNote(*n.type);
    err.detail = SampleDetail(*n.type);
    return false;
  }
  // After an inferred schema's sample, where its types came from and what
  // changes them.
  std::string SampleNote(const DataType& type) const {
    if (options_.schema) return "";
    const bool from_strings = IsInferredTemporal(type);
    return " (the type inferred from the first " + std::to_string(options_.inference_rows) +
           " lines; raise inference_rows" +
           (from_strings ? ", set infer_temporal to false" : "") + " or give a schema)";
  }
  // The same as SampleNote, for programs (Status::detail()).
  std::optional<StatusDetail> SampleDetail(const DataType& type) const {
    if (options_.schema) return std::nullopt;
    StatusDetail detail{StatusDetail::Kind::kInferredType, {"inference_rows"}};
    if (IsInferredTemporal(type)) detail.options.push_back("infer_temporal");
    detail.options.push_back("schema");
    return detail;
  }
  static bool IsInferredTemporal(const DataType& type) {
    return type.id() == TypeId::kDate32 || type.id() == TypeId::kTimestamp ||
           type.id() == TypeId::kTime32 || type.id() == TypeId::kTime64;
  }
  static constexpr const char* kStringForm = "a string (or integer) of the right form";
  static const char* Expected(const DataType& t) {
    switch (t.id()) {
      case TypeId::kNull: return "null";
      case TypeId::kBool: return "true or false";
      case TypeId::kList: case TypeId::kLargeList: case TypeId::kListView:
      case TypeId::kLargeListView: case TypeId::kFixedSizeList: case TypeId::kMap:
        return "an array";
      case TypeId::kStruct: case TypeId::kIntervalDayTime: case TypeId::kIntervalMonthDayNano:
        return "an object";
      case TypeId::kSparseUnion: case TypeId::kDenseUnion: return "[type_code, value]";
      case TypeId::kFloat: case TypeId::kDouble: return "a number";
      default:
        if (t.is_integer()) return "an integer in range";
        return kStringForm;
    }
  }

  template <typename B, typename C>
  bool Signed(Node* n, dom::element e) {
    int64_t v;
    if (e.get_int64().get(v) || v < std::numeric_limits<C>::min() ||
        v > std::numeric_limits<C>::max()) {
      return Mismatch(*n, e);
    }
    return Ok(static_cast<B*>(n->builder)->Append(static_cast<C>(v)));
  }
  template <typename B, typename C>
  bool Unsigned(Node* n, dom::element e) {
    uint64_t v;
    if (e.get_uint64().get(v) || v > std::numeric_limits<C>::max()) return Mismatch(*n, e);
    return Ok(static_cast<B*>(n->builder)->Append(static_cast<C>(v)));
  }
  template <typename B, typename C>
  bool Floating(Node* n, dom::element e) {
    double v;
    if (e.get_double().get(v)) {
      std::string_view s;
      if (e.get_string().get(s)) return Mismatch(*n, e);
      if (s == "nan") v = std::numeric_limits<double>::quiet_NaN();
      else if (s == "inf") v = std::numeric_limits<double>::infinity();
      else if (s == "-inf") v = -std::numeric_limits<double>::infinity();
      else return Mismatch(*n, e);
    }
    if constexpr (std::is_same_v<B, HalfFloatBuilder>) {
      uint16_t half = FloatToHalf(static_cast<float>(v));
      if (std::isfinite(v) && !std::isfinite(HalfToFloat(half))) {
        err.message = "the number is outside halffloat's range";
        return false;
      }
      return Ok(static_cast<B*>(n->builder)->Append(half));
    } else {
      return Ok(static_cast<B*>(n->builder)->Append(static_cast<C>(v)));
    }
  }
  template <typename B, typename C>
  bool Temporal(Node* n, dom::element e) {
    int64_t v;
    std::string_view s;
    if (e.get_int64().get(v) == simdjson::SUCCESS) {
      if (v < std::numeric_limits<C>::min() || v > std::numeric_limits<C>::max()) {
        return Mismatch(*n, e);
      }
    } else if (e.get_string().get(s) || !text::ParseTemporal(s, *n->type, &v)) {
      return Mismatch(*n, e);
    }
    return Ok(static_cast<B*>(n->builder)->Append(static_cast<C>(v)));
  }
  template <typename B>
  bool Bytes(Node* n, dom::element e, bool hex) {
    std::string_view s;
    if (e.get_string().get(s)) return Mismatch(*n, e);
    if (hex) {
      if (!DecodeHex(s, &n->scratch)) {
        err.message = "binary values are strings of hex digits";
        return false;
      }
      s = n->scratch;
    }
    return Ok(static_cast<B*>(n->builder)->Append(s));
  }
  template <typename B>
  bool List(Node* n, dom::element e) {
    dom::array arr;
    if (e.get_array().get(arr)) return Mismatch(*n, e);
    if (!Ok(static_cast<B*>(n->builder)->Append(true))) return false;
    return Items(n, arr);
  }
  bool Items(Node* n, dom::array arr) {
    int64_t i = 0;
    for (dom::element child : arr) {
      if (!Value(&n->children[0], child)) {
        err.PrependIndex(i);
        return false;
      }
      ++i;
    }
    return true;
  }
  bool Int32Member(dom::object obj, const char* key, int64_t lo, int64_t hi, int64_t* out) {
    int64_t v;
    if (obj[key].get_int64().get(v) || v < lo || v > hi) {
      err.message = std::string("an interval object needs an integer \"") + key + "\"";
      return false;
    }
    *out = v;
    return true;
  }

  // The DOM column of ByColumnType.
  struct Reads {
    Converter* c;
    Node* n;
    dom::element e;
    template <typename B, typename C> bool Signed() { return c->Signed<B, C>(n, e); }
    template <typename B, typename C> bool Unsigned() { return c->Unsigned<B, C>(n, e); }
    template <typename B, typename C> bool Floating() { return c->Floating<B, C>(n, e); }
    template <typename B, typename C> bool Temporal() { return c->Temporal<B, C>(n, e); }
    template <typename B> bool String() { return c->Bytes<B>(n, e, false); }
    template <typename B> bool List() { return c->List<B>(n, e); }
    bool Bool() {
      bool v;
      if (e.get_bool().get(v)) return c->Mismatch(*n, e);
      return c->Ok(static_cast<BooleanBuilder*>(n->builder)->Append(v));
    }
    bool Struct() {
      dom::object obj;
      if (e.get_object().get(obj)) return c->Mismatch(*n, e);
      if (!c->Ok(static_cast<StructBuilder*>(n->builder)->Append(true))) return false;
      return c->Object(n, obj);
    }
    bool Other() { return c->OtherValue(n, e); }
  };

  bool Value(Node* n, dom::element e) {
    if (e.is_null()) return Null(n);
    return ByColumnType(n->id, Reads{this, n, e});
  }

  // The types ByColumnType leaves to each tier: the ones only this tier reads.
  bool OtherValue(Node* n, dom::element e) {
    switch (n->type->id()) {
      case TypeId::kNull: return Mismatch(*n, e);
      case TypeId::kHalfFloat: return Floating<HalfFloatBuilder, uint16_t>(n, e);
      case TypeId::kIntervalMonths: return Signed<MonthIntervalBuilder, int32_t>(n, e);
      case TypeId::kIntervalDayTime: {
        dom::object obj;
        int64_t d, ms;
        if (e.get_object().get(obj)) return Mismatch(*n, e);
        if (!Int32Member(obj, "days", INT32_MIN, INT32_MAX, &d) ||
            !Int32Member(obj, "milliseconds", INT32_MIN, INT32_MAX, &ms)) {
          return false;
        }
        DayTimeInterval v{static_cast<int32_t>(d), static_cast<int32_t>(ms)};
        return Ok(static_cast<DayTimeIntervalBuilder*>(n->builder)->Append(v));
      }
      case TypeId::kIntervalMonthDayNano: {
        dom::object obj;
        int64_t m, d, ns;
        if (e.get_object().get(obj)) return Mismatch(*n, e);
        if (!Int32Member(obj, "months", INT32_MIN, INT32_MAX, &m) ||
            !Int32Member(obj, "days", INT32_MIN, INT32_MAX, &d) ||
            !Int32Member(obj, "nanoseconds", INT64_MIN, INT64_MAX, &ns)) {
          return false;
        }
        MonthDayNanoInterval v{static_cast<int32_t>(m), static_cast<int32_t>(d), ns};
        return Ok(static_cast<MonthDayNanoIntervalBuilder*>(n->builder)->Append(v));
      }
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        const auto& dt = checked_cast<DecimalType>(*n->type);
        std::string_view s;
        int64_t i;
        uint64_t u;
        std::string digits;
        if (e.get_string().get(s) == simdjson::SUCCESS) {
        } else if (e.get_int64().get(i) == simdjson::SUCCESS) {
          digits = std::to_string(i);
          s = digits;
        } else if (e.get_uint64().get(u) == simdjson::SUCCESS) {
          digits = std::to_string(u);
          s = digits;
        } else {
          return Mismatch(*n, e);
        }
        uint8_t bytes[32];
        Status st = DecimalFromString(s, dt.byte_width(), dt.scale(), bytes);
        if (!st.ok()) {
          err.message = st.message();
          return false;
        }
        return Ok(static_cast<DecimalBuilder*>(n->builder)->AppendValueBytes(
            std::string_view(reinterpret_cast<const char*>(bytes),
                             static_cast<size_t>(dt.byte_width()))));
      }
      case TypeId::kBinary: return Bytes<BinaryBuilder>(n, e, true);
      case TypeId::kLargeBinary: return Bytes<LargeBinaryBuilder>(n, e, true);
      case TypeId::kBinaryView: return Bytes<BinaryViewBuilder>(n, e, true);
      case TypeId::kFixedSizeBinary: return Bytes<FixedSizeBinaryBuilder>(n, e, true);
      case TypeId::kListView: return List<ListViewBuilder>(n, e);
      case TypeId::kLargeListView: return List<LargeListViewBuilder>(n, e);
      case TypeId::kFixedSizeList: {
        dom::array arr;
        if (e.get_array().get(arr)) return Mismatch(*n, e);
        int32_t size = checked_cast<FixedSizeListType>(*n->type).list_size();
        if (static_cast<int64_t>(arr.size()) != size) {
          err.message = "an array of " + std::to_string(arr.size()) + " values where " +
                        n->type->ToString() + " holds " + std::to_string(size);
          return false;
        }
        if (!Ok(static_cast<FixedSizeListBuilder*>(n->builder)->Append(true))) return false;
        return Items(n, arr);
      }
      case TypeId::kMap: {
        dom::array arr;
        if (e.get_array().get(arr)) return Mismatch(*n, e);
        if (!Ok(static_cast<MapBuilder*>(n->builder)->Append(true))) return false;
        Node& entries = n->children[0];
        int64_t i = 0;
        for (dom::element entry : arr) {
          dom::object obj;
          bool ok = entry.get_object().get(obj) == simdjson::SUCCESS;
          dom::element key, value;
          if (ok) {
            ok = obj[entries.names[0]].get(key) == simdjson::SUCCESS &&
                 obj[entries.names[1]].get(value) == simdjson::SUCCESS && !key.is_null();
          }
          if (!ok) {
            err.path = "[" + std::to_string(i) + "]";
            err.message = "a map entry is an object with a non-null \"" + entries.names[0] +
                          "\" and a \"" + entries.names[1] + "\"";
            return false;
          }
          if (!Value(&entries.children[0], key) || !Value(&entries.children[1], value)) {
            err.PrependIndex(i);
            return false;
          }
          ++i;
        }
        return true;
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion: {
        dom::array arr;
        int64_t code;
        if (e.get_array().get(arr) || arr.size() != 2 || arr.at(0).get_int64().get(code)) {
          return Mismatch(*n, e);
        }
        const auto& ut = checked_cast<UnionType>(*n->type);
        int index = code < INT8_MIN || code > INT8_MAX ? -1 : ut.child_index(static_cast<int8_t>(code));
        if (index < 0) {
          err.message = "type code " + std::to_string(code) + " is not a member of " +
                        n->type->ToString();
          return false;
        }
        Status st = n->type->id() == TypeId::kSparseUnion
                        ? static_cast<SparseUnionBuilder*>(n->builder)->Append(static_cast<int8_t>(code))
                        : static_cast<DenseUnionBuilder*>(n->builder)->Append(static_cast<int8_t>(code));
        if (!Ok(std::move(st))) return false;
        dom::element value;
        if (arr.at(1).get(value)) return Mismatch(*n, e);
        return Value(&n->children[static_cast<size_t>(index)], value);
      }
      case TypeId::kExtension: return Value(&n->children[0], e);
      default:
        err.message = "reading JSON Lines into " + n->type->ToString() + " is not implemented";
        return false;
    }
  }

  std::string FillSpentMessage() const {
    return "left-out keys need more than the " + std::to_string(allowance_) +
           " nulls this block's text allows (ReadOptions::missing_nulls_per_byte = " +
           std::to_string(options_.missing_nulls_per_byte) + " per byte, at least "
           "missing_nulls_floor = " + std::to_string(options_.missing_nulls_floor) +
           "): each left-out key is a null in its column and in every column below it. "
           "Read sparse lines over a wide schema with a schema of the wanted fields and "
           "unexpected fields ignored, or raise the limit";
  }

  const ReadOptions& options_;
  int64_t allowance_;
};

}  // namespace

bool DomConvertBlock(const char* data, int64_t size, const ReadOptions& options,
                     int64_t allowance, Node* root, int64_t* rows) {
  Converter conv(options, allowance);
  thread_local dom::parser parser;
  const size_t batch = std::max<size_t>(static_cast<size_t>(size) + 64, 1 << 16);
  if (parser.capacity() < batch || parser.max_depth() != static_cast<size_t>(options.max_depth)) {
    if (parser.allocate(batch, static_cast<size_t>(options.max_depth))) return false;
  }
  dom::document_stream stream;
  if (parser.parse_many(reinterpret_cast<const uint8_t*>(data), static_cast<size_t>(size), batch)
          .get(stream)) {
    return false;
  }
  int64_t p = 0;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    dom::element doc;
    if ((*it).get(doc)) return false;
    int64_t start = NextContent(data, size, &p);
    if (start < 0 || it.current_index() != static_cast<size_t>(start)) return false;
    dom::object obj;
    if (doc.get_object().get(obj) || !conv.Object(root, obj)) return false;
    ++*rows;
  }
  return stream.truncated_bytes() == 0 && NextContent(data, size, &p) < 0;
}

Status DomConvertLines(const char* data, int64_t size, const ReadOptions& options,
                       int64_t allowance, Node* root, int64_t* rows,
                       std::optional<BadLine>* bad) {
  Converter conv(options, allowance);
  Status st = ForEachLine(data, size, [&](int64_t line, int64_t s, int64_t e) {
    dom::element doc;
    auto err = ParseLine(data + s, static_cast<size_t>(e - s), options.max_depth, &doc);
    dom::object obj;
    std::string message;
    conv.err.detail.reset();
    if (err) {
      message = DescribeParseError(err, options.max_depth);
    } else if (doc.get_object().get(obj)) {
      message = std::string("a line must hold a JSON object, not ") + KindName(doc.type());
    } else if (!conv.Object(root, obj)) {
      if (!conv.status.ok() && !conv.status.IsInvalid()) return conv.status;
      message = conv.err.path.empty()
                    ? conv.err.message
                    : "field " + conv.err.path.substr(1) + ": " + conv.err.message;
    } else {
      ++*rows;
      return Status::OK();
    }
    Status error = Status::Invalid(message);
    if (conv.err.detail) error = error.WithDetail(*conv.err.detail);
    *bad = BadLine{line, std::move(error)};
    return Status::Invalid("stop");
  });
  return bad->has_value() ? Status::OK() : st;
}

}  // namespace alkaid::jsonl::internal
