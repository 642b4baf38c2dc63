// JSON Lines reader: blocks of whole lines (the CSV loader with quoting off).
// When the schema allows it (ScannerSupports), a block is first read by the
// line scanner (line_scanner.h), which walks the bytes once and gives up on
// anything unusual. Then, when every column type is one the On-Demand path
// reads (FastDepth), it is converted straight from simdjson's On-Demand
// iterate_many; on any surprise it is redone with the DOM parser
// (parse_many over the block, then line by line, which words the error),
// appended to the column builders through a tree of converters made once
// per block.
// See include/alkaid/jsonl/api.h for the behaviour.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "../text/fast_values.h"
#include "../csv/pipeline.h"
#include "../text/text_values.h"
#include "../csv/tokenizer.h"
#include "alkaid/builder.h"
#include "alkaid/decimal.h"
#include "alkaid/encode.h"
#include "alkaid/float16.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/thread_pool.h"
#include "line_scanner.h"
#include "node.h"

namespace alkaid::jsonl {
namespace {

namespace dom = simdjson::dom;
using csv::internal::Loader;
using internal::BuildNode;
using internal::Node;
using internal::Put;
using internal::PutString;
using csv::internal::RawBlock;

// A failure deep in a value: the message, and the field path built while
// the recursion unwinds.
struct PathError {
  std::string path;
  std::string message;
  bool too_wide = false;  // the inferred schema passed max_columns
  // Which ReadOptions change the outcome (Status::detail()), when some do.
  std::optional<StatusDetail> detail;
};

const char* KindName(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY: return "an array";
    case dom::element_type::OBJECT: return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64: return "an integer";
    case dom::element_type::DOUBLE: return "a number";
    case dom::element_type::STRING: return "a string";
    case dom::element_type::BOOL: return "a boolean";
    case dom::element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

// Parses one line with this thread's parser.
simdjson::error_code ParseLine(const char* p, size_t n, int max_depth, dom::element* out) {
  thread_local dom::parser parser;
  if (parser.capacity() < n || parser.max_depth() != static_cast<size_t>(max_depth)) {
    auto err = parser.allocate(std::max<size_t>(n, 1 << 16), static_cast<size_t>(max_depth));
    if (err) return err;
  }
  return parser.parse(p, n, false).get(*out);
}

std::string DescribeParseError(simdjson::error_code err, int max_depth) {
  if (err == simdjson::DEPTH_ERROR) {
    return "nesting deeper than " + std::to_string(max_depth) + " levels";
  }
  if (err == simdjson::NUMBER_ERROR || err == simdjson::NUMBER_OUT_OF_RANGE) {
    return std::string("a number that is not a valid 64-bit integer or double (") +
           simdjson::error_message(err) + ")";
  }
  return std::string("not valid JSON: ") + simdjson::error_message(err);
}

// Calls fn(line_index, begin, end) for every line of data[0, size) that is
// not blank; stops at the first non-OK status.
template <typename Fn>
Status ForEachLine(const char* data, int64_t size, Fn&& fn) {
  int64_t p = 0, line = 0;
  while (p < size) {
    const void* nl = std::memchr(data + p, '\n', static_cast<size_t>(size - p));
    int64_t end = nl ? static_cast<const char*>(nl) - data : size;
    int64_t b = p, e = end;
    while (b < e && (data[b] == ' ' || data[b] == '\t' || data[b] == '\r')) ++b;
    while (e > b && (data[e - 1] == ' ' || data[e - 1] == '\t' || data[e - 1] == '\r')) --e;
    if (e > b) ALKAID_RETURN_NOT_OK(fn(line, b, e));
    ++line;
    p = end + 1;
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Inference

// What inference may still do, shared by every node of one sample.
struct InferLimits {
  int64_t fields_left;  // how many more nodes the schema may grow by (max_columns)
  bool temporal;        // ReadOptions::infer_temporal
};

struct InferNode {
  enum Kind : int8_t { kNull, kBool, kInt, kUInt, kFloat, kString, kList, kStruct };
  Kind kind = kNull;
  bool negative = false;
  // kString: every string so far was a date or timestamp, or every one a
  // time of day (infer_temporal).
  bool temporal_possible = true;
  text::TemporalInference temporal;
  std::unique_ptr<InferNode> item;
  std::vector<std::pair<std::string, std::unique_ptr<InferNode>>> fields;
  std::unordered_map<std::string, size_t> index;

  static const char* Name(Kind k) {
    static constexpr const char* kNames[] = {"null", "a boolean", "an integer", "an integer",
                                             "a number", "a string", "an array", "an object"};
    return kNames[k];
  }

  // Fails when `limits->fields_left` would fall below zero (TooWide).
  bool Add(dom::element e, int depth, PathError* err, InferLimits* limits) {
    Kind k;
    switch (e.type()) {
      case dom::element_type::NULL_VALUE: return true;
      case dom::element_type::BOOL: k = kBool; break;
      case dom::element_type::INT64: {
        k = kInt;
        int64_t v = 0;
        if (e.get_int64().get(v)) v = 0;
        negative |= v < 0;
        break;
      }
      case dom::element_type::UINT64: k = kUInt; break;
      case dom::element_type::DOUBLE: k = kFloat; break;
      case dom::element_type::STRING: {
        k = kString;
        if (temporal_possible) {
          std::string_view text;
          temporal_possible = limits->temporal && !e.get_string().get(text) && temporal.Add(text);
        }
        break;
      }
      case dom::element_type::ARRAY: k = kList; break;
      case dom::element_type::OBJECT: k = kStruct; break;
      default:
        k = kString;
        temporal_possible = false;
    }
    auto numeric = [](Kind x) { return x == kInt || x == kUInt || x == kFloat; };
    if (kind == kNull) {
      kind = k;
    } else if (kind != k) {
      if (numeric(kind) && numeric(k)) {
        kind = (kind == kFloat || k == kFloat) ? kFloat : kUInt;
      } else {
        err->message = std::string(Name(k)) + " where earlier lines have " + Name(kind) +
                       " (give a schema to read it)";
        return false;
      }
    }
    if (kind == kUInt && negative) {
      err->message = "negative integers and integers above 2^63-1 in one field (give a schema, "
                     "e.g. float64 or decimal128)";
      return false;
    }
    if (k == kList) {
      if (!item) {
        if (--limits->fields_left < 0) return TooWide(err);
        item = std::make_unique<InferNode>();
      }
      int64_t i = 0;
      dom::array arr;
      if (e.get_array().get(arr)) return true;
      for (dom::element child : arr) {
        if (!item->Add(child, depth + 1, err, limits)) {
          err->path.insert(0, "[" + std::to_string(i) + "]");
          return false;
        }
        ++i;
      }
    } else if (k == kStruct) {
      dom::object obj;
      if (e.get_object().get(obj)) return true;
      for (dom::key_value_pair kv : obj) {
        auto it = index.find(std::string(kv.key));
        InferNode* child;
        if (it == index.end()) {
          if (--limits->fields_left < 0) return TooWide(err);
          index.emplace(std::string(kv.key), fields.size());
          fields.emplace_back(std::string(kv.key), std::make_unique<InferNode>());
          child = fields.back().second.get();
        } else {
          child = fields[it->second].second.get();
        }
        if (!child->Add(kv.value, depth + 1, err, limits)) {
          err->path.insert(0, "." + std::string(kv.key));
          return false;
        }
      }
    }
    return true;
  }

  static bool TooWide(PathError* err) {
    err->too_wide = true;  // InitSchema words the error
    return false;
  }

  DataTypePtr Type(bool whole_input) const {
    switch (kind) {
      case kNull: return whole_input ? null() : utf8();
      case kBool: return boolean();
      case kInt: return int64();
      case kUInt: return uint64();
      case kFloat: return float64();
      case kString: {
        DataTypePtr t = temporal_possible ? temporal.Type() : nullptr;
        return t ? t : utf8();
      }
      case kList: return list(item ? item->Type(whole_input) : null());
      case kStruct: {
        FieldVector f;
        for (const auto& [name, node] : fields) f.push_back(field(name, node->Type(whole_input)));
        return struct_(std::move(f));
      }
    }
    return utf8();
  }
};

// ---------------------------------------------------------------------------
// Conversion

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

// Numbers the nodes depth-first (Node::index); returns the count.
int NumberNodes(Node* n, int next = 0) {
  n->index = next++;
  for (Node& c : n->children) next = NumberNodes(&c, next);
  return next;
}

// Per node, the lines of the last block read and the slots and string bytes
// the node's builder had at its end: the next block reserves as much, scaled
// to its line count, instead of growing from nothing (each growth a fresh,
// zero-filled allocation and a copy).
struct SizeHint {
  int64_t lines = 0;
  int64_t length = 0;
  int64_t bytes = 0;
};

int64_t StringBytes(const Node& n) {
  switch (n.id) {
    case TypeId::kString: return static_cast<StringBuilder*>(n.builder)->value_data_length();
    case TypeId::kLargeString:
      return static_cast<LargeStringBuilder*>(n.builder)->value_data_length();
    default: return 0;
  }
}

void RecordSizes(const Node& n, int64_t lines, std::vector<SizeHint>* hints) {
  (*hints)[static_cast<size_t>(n.index)] = {lines, n.builder->length(), StringBytes(n)};
  for (const Node& c : n.children) RecordSizes(c, lines, hints);
}

// Reserves the builders below `n` for `lines` lines from the hints (the
// top-level columns' slots are reserved by the caller), each at most
// `ceiling` slots or bytes: a block of that many bytes holds no more values
// than bytes (short lines after a block of one long line must not scale the
// long line's thousands of values up by their count).
Status ReserveSizes(Node* n, int64_t lines, const std::vector<SizeHint>& hints, bool top,
                    int64_t ceiling) {
  for (Node& c : n->children) {
    const SizeHint& h = hints[static_cast<size_t>(c.index)];
    if (h.lines > 0) {
      auto scale = [&](int64_t v) {
        int64_t est = v / h.lines * lines + v % h.lines * lines / h.lines;
        return std::min(est + est / 8 + 16, ceiling);
      };
      if (!top && h.length > 0) ALKAID_RETURN_NOT_OK(c.builder->Reserve(scale(h.length)));
      if (h.bytes > 0) {
        int64_t bytes = scale(h.bytes);
        if (c.id == TypeId::kString) {
          // Not past what the offsets address; appends beyond it take the
          // checked path.
          bytes = std::min<int64_t>(bytes, StringBuilder::kMaxDataSize / 2);
          ALKAID_RETURN_NOT_OK(static_cast<StringBuilder*>(c.builder)->ReserveData(bytes));
          c.room = bytes;
        } else if (c.id == TypeId::kLargeString) {
          ALKAID_RETURN_NOT_OK(static_cast<LargeStringBuilder*>(c.builder)->ReserveData(bytes));
          c.room = bytes;
        }
      }
    }
    ALKAID_RETURN_NOT_OK(ReserveSizes(&c, lines, hints, false, ceiling));
  }
  return Status::OK();
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
        err.path.insert(0, "." + std::string(kv.key));
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
        err.path.insert(0, "[" + std::to_string(i) + "]");
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

  bool Value(Node* n, dom::element e) {
    if (e.is_null()) return Null(n);
    switch (n->type->id()) {
      case TypeId::kNull: return Mismatch(*n, e);
      case TypeId::kBool: {
        bool v;
        if (e.get_bool().get(v)) return Mismatch(*n, e);
        return Ok(static_cast<BooleanBuilder*>(n->builder)->Append(v));
      }
      case TypeId::kInt8: return Signed<Int8Builder, int8_t>(n, e);
      case TypeId::kInt16: return Signed<Int16Builder, int16_t>(n, e);
      case TypeId::kInt32: return Signed<Int32Builder, int32_t>(n, e);
      case TypeId::kInt64: return Signed<Int64Builder, int64_t>(n, e);
      case TypeId::kUInt8: return Unsigned<UInt8Builder, uint8_t>(n, e);
      case TypeId::kUInt16: return Unsigned<UInt16Builder, uint16_t>(n, e);
      case TypeId::kUInt32: return Unsigned<UInt32Builder, uint32_t>(n, e);
      case TypeId::kUInt64: return Unsigned<UInt64Builder, uint64_t>(n, e);
      case TypeId::kHalfFloat: return Floating<HalfFloatBuilder, uint16_t>(n, e);
      case TypeId::kFloat: return Floating<FloatBuilder, float>(n, e);
      case TypeId::kDouble: return Floating<DoubleBuilder, double>(n, e);
      case TypeId::kDuration: return Signed<DurationBuilder, int64_t>(n, e);
      case TypeId::kIntervalMonths: return Signed<MonthIntervalBuilder, int32_t>(n, e);
      case TypeId::kDate32: return Temporal<Date32Builder, int32_t>(n, e);
      case TypeId::kDate64: return Temporal<Date64Builder, int64_t>(n, e);
      case TypeId::kTimestamp: return Temporal<TimestampBuilder, int64_t>(n, e);
      case TypeId::kTime32: return Temporal<Time32Builder, int32_t>(n, e);
      case TypeId::kTime64: return Temporal<Time64Builder, int64_t>(n, e);
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
      case TypeId::kString: return Bytes<StringBuilder>(n, e, false);
      case TypeId::kLargeString: return Bytes<LargeStringBuilder>(n, e, false);
      case TypeId::kStringView: return Bytes<BinaryViewBuilder>(n, e, false);
      case TypeId::kBinary: return Bytes<BinaryBuilder>(n, e, true);
      case TypeId::kLargeBinary: return Bytes<LargeBinaryBuilder>(n, e, true);
      case TypeId::kBinaryView: return Bytes<BinaryViewBuilder>(n, e, true);
      case TypeId::kFixedSizeBinary: return Bytes<FixedSizeBinaryBuilder>(n, e, true);
      case TypeId::kList: return List<ListBuilder>(n, e);
      case TypeId::kLargeList: return List<LargeListBuilder>(n, e);
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
      case TypeId::kStruct: {
        dom::object obj;
        if (e.get_object().get(obj)) return Mismatch(*n, e);
        if (!Ok(static_cast<StructBuilder*>(n->builder)->Append(true))) return false;
        return Object(n, obj);
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
            err.path.insert(0, "[" + std::to_string(i) + "]");
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

// ---------------------------------------------------------------------------
// On-Demand conversion: the fast path for schemas of scalars, strings,
// temporals, lists and structs of them. The block goes through simdjson's
// On-Demand iterate_many (no DOM tape): each value is parsed straight from
// the text into its builder. Anything unusual (a type mismatch, a key with
// escapes, a key not in the schema, a repeated key, a null where none may be,
// "nan" strings in float columns...) makes the whole block fall back to the
// DOM path, which converts it the general way or finds and words the error.

namespace od = simdjson::ondemand;

// The deepest nesting the fast path reads for `type` (an object is a level),
// or -1 when a type in it is not read by the fast path.
int FastDepth(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBool: case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32:
    case TypeId::kInt64: case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32:
    case TypeId::kUInt64: case TypeId::kFloat: case TypeId::kDouble: case TypeId::kString:
    case TypeId::kLargeString: case TypeId::kStringView: case TypeId::kDate32:
    case TypeId::kDate64: case TypeId::kTimestamp: case TypeId::kTime32: case TypeId::kTime64:
    case TypeId::kDuration:
      return 0;
    case TypeId::kList: case TypeId::kLargeList: {
      int d = FastDepth(*type.field(0)->type());
      return d < 0 ? -1 : d + 1;
    }
    case TypeId::kStruct: {
      int d = 0;
      for (const auto& f : type.fields()) {
        // Keys are compared with the raw (unescaped) text of the input.
        for (char c : f->name()) {
          if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return -1;
        }
        int fd = FastDepth(*f->type());
        if (fd < 0) return -1;
        d = std::max(d, fd);
      }
      return d + 1;
    }
    default: return -1;
  }
}

class FastConverter {
 public:
  bool Object(Node* n, od::object& obj) {
    uint64_t gen = ++n->gen;
    size_t count = 0, guess = 0;
    const size_t nf = n->names.size();
    for (auto&& field_result : obj) {
      // A reference to the field inside the result: copying it out costs a
      // stalled store-to-load forward per field.
      if (field_result.error()) return false;
      od::field&& f = std::move(field_result).value_unsafe();
      const char* key = f.key().raw();
      // The key's bytes and what follows (inside the block's padding).
      uint64_t head;
      std::memcpy(&head, key, 8);
      auto is = [&](size_t k) { return n->KeyIs(k, key, head); };
      const size_t idx = n->FindField(guess, key, is);
      if (idx == nf) return false;
      guess = idx + 1;
      uint64_t& st = n->stamp[idx];
      if (st == gen) return false;
      st = gen;
      if (!Value(&n->children[idx], f.value())) return false;
      ++count;
    }
    if (count != nf) {
      for (size_t k = 0; k < nf; ++k) {
        if (n->stamp[k] == gen) continue;
        Node* c = &n->children[k];
        if (!c->nullable || !n->ChargeFill(k) || !c->builder->AppendNull().ok()) return false;
      }
    }
    return true;
  }

 private:
  // `v` must be null (the value did not have the column's form).
  static bool NullOr(Node* n, od::value& v) {
    bool is_null = false;
    if (v.is_null().get(is_null) || !is_null || !n->nullable) return false;
    return n->builder->AppendNull().ok();
  }
  template <typename B, typename C>
  static bool Signed(Node* n, od::value& v) {
    int64_t x;
    if (v.get_int64().get(x)) return NullOr(n, v);
    if (x < std::numeric_limits<C>::min() || x > std::numeric_limits<C>::max()) return false;
    return Put<B>(n->builder, static_cast<C>(x));
  }
  template <typename B, typename C>
  static bool Unsigned(Node* n, od::value& v) {
    uint64_t x;
    if (v.get_uint64().get(x)) return NullOr(n, v);
    if (x > std::numeric_limits<C>::max()) return false;
    return Put<B>(n->builder, static_cast<C>(x));
  }
  template <typename B, typename C>
  static bool Floating(Node* n, od::value& v) {
    double x;
    if (v.get_double().get(x)) return NullOr(n, v);
    if (std::fabs(x) >= 9e18) {
      // The DOM path rejects integer literals beyond 64 bits; leave any
      // integer literal this large to it.
      std::string_view raw = v.raw_json_token();
      if (raw.find_first_of(".eE") == std::string_view::npos) return false;
    } else if (x == 0 && std::signbit(x)) {
      // The DOM path holds the integer literal -0 as the integer 0, so it
      // reads +0.0; give the same value whichever path reads the block
      // ("-0.0" and "-0e0" stay -0.0 on both).
      std::string_view raw = v.raw_json_token();
      if (raw.find_first_of(".eE") == std::string_view::npos) x = 0.0;
    }
    return Put<B>(n->builder, static_cast<C>(x));
  }
  template <typename B, typename C>
  static bool Temporal(Node* n, od::value& v) {
    int64_t x;
    std::string_view s;
    if (v.get_string().get(s) == simdjson::SUCCESS) {
      if constexpr (std::is_same_v<B, TimestampBuilder>) {
        const auto& tt = checked_cast<TimestampType>(*n->type);
        if (text::fast::FixedTimestampAs(s.data(), s.size(), tt.unit(), !tt.timezone().empty(), &x)) {
          return Put<B>(n->builder, x);
        }
      }
      if (!text::ParseTemporal(s, *n->type, &x)) return false;
    } else if (v.get_int64().get(x) == simdjson::SUCCESS) {
      if (x < std::numeric_limits<C>::min() || x > std::numeric_limits<C>::max()) return false;
    } else {
      return NullOr(n, v);
    }
    return Put<B>(n->builder, static_cast<C>(x));
  }
  template <typename B>
  static bool String(Node* n, od::value& v) {
    std::string_view s;
    if (v.get_string().get(s)) return NullOr(n, v);
    if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
      return static_cast<B*>(n->builder)->Append(s).ok();
    } else {
      // Within the reserved bytes (Node::room) and slots, no checks.
      return PutString<B>(n, s);
    }
  }
  template <typename B>
  bool List(Node* n, od::value& v) {
    od::array arr;
    if (v.get_array().get(arr)) return NullOr(n, v);
    if (!static_cast<B*>(n->builder)->Append(true).ok()) return false;
    for (auto&& item : arr) {
      if (item.error()) return false;
      od::value&& iv = std::move(item).value_unsafe();
      if (!Value(&n->children[0], iv)) return false;
    }
    return true;
  }

  bool Value(Node* n, od::value& v) {
    switch (n->id) {
      case TypeId::kBool: {
        bool b;
        if (v.get_bool().get(b)) return NullOr(n, v);
        return Put<BooleanBuilder>(n->builder, b);
      }
      case TypeId::kInt8: return Signed<Int8Builder, int8_t>(n, v);
      case TypeId::kInt16: return Signed<Int16Builder, int16_t>(n, v);
      case TypeId::kInt32: return Signed<Int32Builder, int32_t>(n, v);
      case TypeId::kInt64: return Signed<Int64Builder, int64_t>(n, v);
      case TypeId::kUInt8: return Unsigned<UInt8Builder, uint8_t>(n, v);
      case TypeId::kUInt16: return Unsigned<UInt16Builder, uint16_t>(n, v);
      case TypeId::kUInt32: return Unsigned<UInt32Builder, uint32_t>(n, v);
      case TypeId::kUInt64: return Unsigned<UInt64Builder, uint64_t>(n, v);
      case TypeId::kFloat: return Floating<FloatBuilder, float>(n, v);
      case TypeId::kDouble: return Floating<DoubleBuilder, double>(n, v);
      case TypeId::kDuration: return Signed<DurationBuilder, int64_t>(n, v);
      case TypeId::kDate32: return Temporal<Date32Builder, int32_t>(n, v);
      case TypeId::kDate64: return Temporal<Date64Builder, int64_t>(n, v);
      case TypeId::kTimestamp: return Temporal<TimestampBuilder, int64_t>(n, v);
      case TypeId::kTime32: return Temporal<Time32Builder, int32_t>(n, v);
      case TypeId::kTime64: return Temporal<Time64Builder, int64_t>(n, v);
      case TypeId::kString: return String<StringBuilder>(n, v);
      case TypeId::kLargeString: return String<LargeStringBuilder>(n, v);
      case TypeId::kStringView: return String<BinaryViewBuilder>(n, v);
      case TypeId::kList: return List<ListBuilder>(n, v);
      case TypeId::kLargeList: return List<LargeListBuilder>(n, v);
      case TypeId::kStruct: {
        od::object obj;
        if (v.get_object().get(obj)) return NullOr(n, v);
        if (!static_cast<StructBuilder*>(n->builder)->Append(true).ok()) return false;
        return Object(n, obj);
      }
      default: return false;
    }
  }
};

// ---------------------------------------------------------------------------

struct Block {
  RawBlock raw;
  bool ok = true;
  int64_t lines = 0;
  int64_t error_line = 0;
  Status error;
  RecordBatchPtr batch;
  const char* data() const { return reinterpret_cast<const char*>(raw.buffer->data()); }
};

class JsonlReader final : public RecordBatchReader {
 public:
  JsonlReader(std::shared_ptr<io::InputStream> input, const ReadOptions& options)
      : options_(options), loader_(std::move(input), ToLoaderOptions(options)) {
    threads_ = options.num_threads > 0 ? options.num_threads : HardwareThreads();
  }

  static csv::internal::LoaderOptions ToLoaderOptions(const ReadOptions& o) {
    csv::internal::LoaderOptions l;
    l.quote = '\0';
    l.lone_cr = false;
    l.block_size = o.block_size;
    l.max_record_bytes = o.max_line_bytes;
    l.max_record_bytes_name = "max_line_bytes";
    l.pool = o.pool;
    return l;
  }

  const SchemaPtr& schema() const override { return schema_; }

  Status Init() {
    ALKAID_RETURN_NOT_OK(InitSchema());
    auto struct_type = DecodedType(struct_(schema_->fields()));
    int depth = FastDepth(*struct_type);
    fast_ = depth >= 0 && depth <= options_.max_depth;
    scan_ = fast_ && internal::ScannerSupports(*struct_type) && ScannerWanted();
    return Status::OK();
  }

  Status InitSchema() {
    if (options_.missing_nulls_per_byte < 0 || options_.missing_nulls_floor < 0 ||
        options_.max_columns < 0) {
      return Status::Invalid("JSON Lines: missing_nulls_per_byte, missing_nulls_floor and "
                             "max_columns must not be negative");
    }
    if (options_.block_size < 1 || options_.max_line_bytes < 1 || options_.max_depth < 1 ||
        options_.block_size + options_.max_line_bytes + 256 > csv::internal::kMaxBlockBytes) {
      return Status::Invalid("JSON Lines: block_size, max_line_bytes and max_depth must be "
                             "positive and the byte sizes sum to less than ",
                             csv::internal::kMaxBlockBytes)
          .WithDetail({StatusDetail::Kind::kLimit, {"block_size", "max_line_bytes"}});
    }
    ALKAID_RETURN_NOT_OK(loader_.Start());
    if (options_.schema) {
      schema_ = options_.schema;
      SizeBlocksForWidth();
      return Status::OK();
    }
    // Inference over the first inference_rows lines.
    InferNode root;
    root.kind = InferNode::kStruct;
    InferLimits limits{options_.max_columns > 0 ? options_.max_columns
                                                : std::numeric_limits<int64_t>::max(),
                       options_.infer_temporal};
    int64_t seen = 0;
    int64_t line_base = 1;
    bool whole = true;
    size_t i = 0;
    while (seen < options_.inference_rows) {
      if (i == pipeline_.pending().size()) {
        if (loader_.done()) break;
        ALKAID_RETURN_NOT_OK(LoadBlock());
        continue;
      }
      Block& b = pipeline_.pending()[i++];
      if (!b.raw.error.ok()) return Located(b.raw.error, line_base);
      Status st = ForEachLine(b.data(), b.raw.size, [&](int64_t line, int64_t s, int64_t e) {
        if (seen >= options_.inference_rows) {
          whole = false;
          return Status::OK();
        }
        ++seen;
        dom::element doc;
        auto err = ParseLine(b.data() + s, static_cast<size_t>(e - s), options_.max_depth, &doc);
        if (err) return Located(Status::Invalid(DescribeParseError(err, options_.max_depth)),
                                line_base + line);
        if (!doc.is_object()) {
          return Located(Status::Invalid("a line must hold a JSON object, not ",
                                         KindName(doc.type())),
                         line_base + line);
        }
        PathError perr;
        if (!root.Add(doc, 0, &perr, &limits)) {
          if (perr.too_wide) {
            return Located(
                csv::internal::TooManyColumns(
                    "the keys of the lines so far name more fields (nested ones included)",
                    options_.max_columns,
                    "give a schema of the fields wanted (and ignore unexpected ones)")
                    .WithDetail({StatusDetail::Kind::kLimit, {"max_columns", "schema"}}),
                line_base + line);
          }
          Status st = Status::Invalid("field ", perr.path.substr(1), ": ", perr.message);
          if (perr.detail) st = st.WithDetail(*perr.detail);
          return Located(st, line_base + line);
        }
        return Status::OK();
      });
      ALKAID_RETURN_NOT_OK(st);
      line_base += csv::internal::CountLineFeeds(b.data(), b.raw.size);
    }
    if (!loader_.done() || i < pipeline_.pending().size()) whole = false;
    FieldVector fields;
    for (const auto& [name, node] : root.fields) fields.push_back(field(name, node->Type(whole)));
    schema_ = alkaid::schema(std::move(fields));
    SizeBlocksForWidth();
    return Status::OK();
  }

  // Wide schemas: blocks after those read so far hold enough bytes a column
  // (csv::internal::BlockSizeForColumns).
  void SizeBlocksForWidth() {
    int64_t columns = 0;
    for (const auto& f : schema_->fields()) columns += 1 + CountDescendants(*f->type());
    loader_.SetBlockSize(csv::internal::BlockSizeForColumns(options_.block_size,
                                                            options_.max_line_bytes, columns));
  }

  static int64_t CountDescendants(const DataType& type) {
    int64_t n = 0;
    for (int i = 0; i < type.num_fields(); ++i) n += 1 + CountDescendants(*type.field(i)->type());
    return n;
  }

  Result<RecordBatchPtr> Next() override {
    return pipeline_.Next(
        loader_, threads_, [this] { return LoadBlock(); },
        [this](Block* b) { return ParseBlock(b); },
        [this](Block& b) -> Result<RecordBatchPtr> {
          if (!b.raw.error.ok()) return Located(b.raw.error, next_line_);
          if (!b.ok) return Located(b.error, next_line_ + b.error_line);
          next_line_ += b.lines;
          return std::move(b.batch);
        });
  }

 private:
  // The line scanner is on unless ALKAID_JSONL_SCANNER=0 is in the
  // environment when the reader starts (for tests and measurements that
  // compare it with the tiers after it).
  static bool ScannerWanted() {
    const char* env = std::getenv("ALKAID_JSONL_SCANNER");
    return env == nullptr || std::string_view(env) != "0";
  }
  static Status Located(const Status& st, int64_t line) {
    return st.WithContext("JSON Lines line " + std::to_string(line));
  }
  Status LoadBlock() {
    ALKAID_ASSIGN_OR_RAISE(RawBlock raw, loader_.Next());
    if (raw.buffer == nullptr && raw.error.ok()) return Status::OK();
    Block b;
    b.raw = std::move(raw);
    pipeline_.pending().push_back(std::move(b));
    return Status::OK();
  }

  // The start of the next line of [*p, size) with something besides blanks
  // (as ForEachLine trims them), or -1; *p moves past that line.
  static int64_t NextContent(const char* data, int64_t size, int64_t* p) {
    while (*p < size) {
      const void* nl = std::memchr(data + *p, '\n', static_cast<size_t>(size - *p));
      int64_t end = nl ? static_cast<const char*>(nl) - data : size;
      int64_t b = *p;
      while (b < end && (data[b] == ' ' || data[b] == '\t' || data[b] == '\r')) ++b;
      *p = end + 1;
      if (b < end) return b;
    }
    return -1;
  }

  // The whole block through one simdjson parse_many (one stage-1 pass over
  // the block instead of a parser call per line). True when every line with
  // content held exactly one object, starting the line, that converted;
  // anything else returns false and the caller redoes the block line by line
  // (which finds and words the error).
  bool ParseMany(const char* data, int64_t size, Node* root, Converter* conv, int64_t* rows) {
    thread_local dom::parser parser;
    const size_t batch = std::max<size_t>(static_cast<size_t>(size) + 64, 1 << 16);
    if (parser.capacity() < batch || parser.max_depth() != static_cast<size_t>(options_.max_depth)) {
      if (parser.allocate(batch, static_cast<size_t>(options_.max_depth))) return false;
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
      if (doc.get_object().get(obj) || !conv->Object(root, obj)) return false;
      ++*rows;
    }
    return stream.truncated_bytes() == 0 && NextContent(data, size, &p) < 0;
  }

  enum class FastResult { kOk, kFailed, kStrict };

  // The whole block through simdjson's On-Demand iterate_many, converted by
  // FastConverter. kOk when every line with content held exactly one
  // object, starting the line, that converted; kFailed otherwise (the
  // caller starts the block again on the DOM path).
  //
  // Unless `strict`, the line check is the cheap one for blocks without
  // blank lines or leading blanks: every object starts the block or follows
  // a line feed, and there are as many objects as lines (so, objects having
  // distinct starts, each line starts with one and holds no other). kStrict
  // when that does not hold: the caller redoes the block with `strict`,
  // which finds each line's first non-blank with memchr.
  FastResult ParseOnDemand(const char* data, int64_t size, int64_t line_feeds, Node* root,
                           int64_t* rows, bool strict) {
    constexpr FastResult kFailed = FastResult::kFailed;
    thread_local od::parser parser;
    const size_t batch = std::max<size_t>(static_cast<size_t>(size) + 64, 1 << 16);
    if (parser.capacity() < batch || parser.max_depth() != static_cast<size_t>(options_.max_depth)) {
      if (parser.allocate(batch, static_cast<size_t>(options_.max_depth))) return kFailed;
    }
    od::document_stream stream;
    if (parser.iterate_many(data, static_cast<size_t>(size), batch).get(stream)) return kFailed;
    FastConverter conv;
    int64_t p = 0;
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      const size_t at = it.current_index();
      if (strict) {
        int64_t start = NextContent(data, size, &p);
        if (start < 0 || at != static_cast<size_t>(start)) return kFailed;
      } else if (at != 0 && (at >= static_cast<size_t>(size) || data[at - 1] != '\n')) {
        return FastResult::kStrict;
      }
      od::document_reference doc;
      od::object obj;
      if ((*it).get(doc) || doc.get_object().get(obj) || !conv.Object(root, obj)) return kFailed;
      ++*rows;
    }
    if (stream.truncated_bytes() != 0) return kFailed;
    if (strict) return NextContent(data, size, &p) < 0 ? FastResult::kOk : kFailed;
    const int64_t lines = line_feeds + (size > 0 && data[size - 1] != '\n' ? 1 : 0);
    return *rows == lines ? FastResult::kOk : FastResult::kStrict;
  }

  // Parses one block into a batch; runs on any thread.
  Status ParseBlock(Block* b) {
    if (!b->raw.error.ok()) return Status::OK();
    // dictionary<…> / run_end_encoded<…> fields are parsed as their values
    // and encoded in Finish.
    auto struct_type = DecodedType(struct_(schema_->fields()));
    // One record per line: the columns are sized once for the block instead
    // of growing (each growth a fresh zero-filled allocation and a copy).
    b->lines = csv::internal::CountLineFeeds(b->data(), b->raw.size);
    ArrayBuilderPtr builder;
    Node root;
    std::vector<SizeHint> hints;
    // Each attempt at the block starts with the whole allowance.
    const int64_t allowance = FillAllowance(b->raw.size);
    int64_t fill_left = allowance;
    auto fresh = [&]() -> Status {
      ALKAID_ASSIGN_OR_RAISE(builder, MakeBuilder(struct_type, options_.pool));
      root = BuildNode(*struct_type, builder.get());
      fill_left = allowance;
      SetFillAllowance(&root, &fill_left);
      const int nodes = NumberNodes(&root);
      // Every row holds each top-level field as text (a byte at least) or
      // as a null charged to the allowance: rows beyond that bound cannot
      // come, so slots for them are not reserved (short lines over a wide
      // schema would otherwise take lines x fields slots up front).
      const int64_t fields = std::max(builder->num_children(), 1);
      const int64_t cells = allowance > std::numeric_limits<int64_t>::max() - b->raw.size
                                ? std::numeric_limits<int64_t>::max()
                                : b->raw.size + allowance;
      const int64_t rows = std::min(b->lines + 1, cells / fields + 1);
      for (int i = 0; i < builder->num_children(); ++i) {
        ALKAID_RETURN_NOT_OK(builder->child(i)->Reserve(rows));
      }
      if (hints.empty()) {
        std::lock_guard<std::mutex> lock(hints_mutex_);
        hints_.resize(static_cast<size_t>(nodes));
        hints = hints_;
      }
      return ReserveSizes(&root, rows, hints, true, b->raw.size + 64);
    };
    ALKAID_RETURN_NOT_OK(fresh());
    if (scan_) {
      int64_t rows = 0;
      if (internal::ScanLines(b->data(), b->raw.size, &root, &rows)) {
        return Finish(b, builder.get(), &root, rows);
      }
      ALKAID_RETURN_NOT_OK(fresh());
    }
    if (fast_) {
      int64_t rows = 0;
      FastResult r = ParseOnDemand(b->data(), b->raw.size, b->lines, &root, &rows, false);
      if (r == FastResult::kStrict) {
        ALKAID_RETURN_NOT_OK(fresh());
        rows = 0;
        r = ParseOnDemand(b->data(), b->raw.size, b->lines, &root, &rows, true);
      }
      if (r == FastResult::kOk) return Finish(b, builder.get(), &root, rows);
      ALKAID_RETURN_NOT_OK(fresh());
    }
    {
      Converter conv(options_, allowance);
      int64_t rows = 0;
      if (ParseMany(b->data(), b->raw.size, &root, &conv, &rows)) {
        return Finish(b, builder.get(), &root, rows);
      }
    }
    ALKAID_RETURN_NOT_OK(fresh());
    Converter conv(options_, allowance);
    int64_t rows = 0;
    Status st = ForEachLine(b->data(), b->raw.size, [&](int64_t line, int64_t s, int64_t e) {
      dom::element doc;
      auto err = ParseLine(b->data() + s, static_cast<size_t>(e - s), options_.max_depth, &doc);
      dom::object obj;
      std::string message;
      conv.err.detail.reset();
      if (err) {
        message = DescribeParseError(err, options_.max_depth);
      } else if (doc.get_object().get(obj)) {
        message = std::string("a line must hold a JSON object, not ") + KindName(doc.type());
      } else if (!conv.Object(&root, obj)) {
        if (!conv.status.ok() && !conv.status.IsInvalid()) return conv.status;
        message = conv.err.path.empty()
                      ? conv.err.message
                      : "field " + conv.err.path.substr(1) + ": " + conv.err.message;
      } else {
        ++rows;
        return Status::OK();
      }
      b->ok = false;
      b->error_line = line;
      b->error = Status::Invalid(message);
      if (conv.err.detail) b->error = b->error.WithDetail(*conv.err.detail);
      return Status::Invalid("stop");
    });
    if (!b->ok) return Status::OK();
    ALKAID_RETURN_NOT_OK(st);
    return Finish(b, builder.get(), &root, rows);
  }

  // Nulls for left-out keys a block of `bytes` bytes may add (see
  // ReadOptions::missing_nulls_per_byte).
  int64_t FillAllowance(int64_t bytes) const {
    return csv::internal::MissingAllowance(bytes, options_.missing_nulls_per_byte,
                                           options_.missing_nulls_floor);
  }

  Status Finish(Block* b, ArrayBuilder* builder, const Node* root, int64_t rows) {
    if (b->lines > 0) {
      std::vector<SizeHint> sizes(CountNodes(root));
      RecordSizes(*root, b->lines + 1, &sizes);
      std::lock_guard<std::mutex> lock(hints_mutex_);
      hints_ = std::move(sizes);
    }
    ArrayDataVector columns;
    for (int i = 0; i < builder->num_children(); ++i) {
      ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr col, builder->child(i)->Finish());
      const DataTypePtr& type = schema_->field(i)->type();
      if (HasEncodedParts(*type)) {
        auto encoded = EncodeAs(col, type, options_.pool);
        if (!encoded.ok()) return encoded.status().WithContext("field " + schema_->field(i)->name());
        col = std::move(*encoded);
      }
      columns.push_back(std::move(col));
    }
    b->batch = RecordBatch::Make(schema_, rows, std::move(columns));
    loader_.Recycle(std::move(b->raw.buffer));
    return Status::OK();
  }

  static size_t CountNodes(const Node* root) {
    size_t n = 1;
    for (const Node& c : root->children) n += CountNodes(&c);
    return n;
  }

  ReadOptions options_;
  std::mutex hints_mutex_;
  std::vector<SizeHint> hints_;  // see SizeHint
  bool fast_ = false;  // the schema is read by the On-Demand path first
  bool scan_ = false;  // and by the line scanner before that
  Loader loader_;
  int threads_ = 1;
  SchemaPtr schema_;
  csv::internal::BlockPipeline<Block> pipeline_;
  int64_t next_line_ = 1;
};

}  // namespace

Result<std::unique_ptr<RecordBatchReader>> MakeReader(std::shared_ptr<io::InputStream> input,
                                                      const ReadOptions& options) {
  return csv::internal::MakeTextReader<JsonlReader>(std::move(input), options);
}

Result<std::unique_ptr<RecordBatchReader>> OpenReader(const std::string& path,
                                                      const ReadOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto file, io::ReadableFile::Open(path, options.pool));
  return MakeReader(std::move(file), options);
}

Result<TablePtr> ReadTable(std::shared_ptr<io::InputStream> input, const ReadOptions& options) {
  return csv::internal::ReadTextTable<JsonlReader>(std::move(input), options);
}

Result<TablePtr> ReadString(std::string_view text, const ReadOptions& options) {
  return csv::internal::ReadTextString<JsonlReader>(text, options);
}

}  // namespace alkaid::jsonl
