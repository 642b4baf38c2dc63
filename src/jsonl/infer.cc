// See infer.h.
#include "infer.h"

#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../text/block_limits.h"
#include "../text/text_values.h"
#include "parse_line.h"

namespace alkaid::jsonl::internal {

namespace dom = simdjson::dom;

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
          err->PrependIndex(i);
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
          err->PrependKey(kv.key);
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


SchemaInference::SchemaInference(const ReadOptions& options)
    : options_(options),
      root_(std::make_unique<InferNode>()),
      limits_{options.max_columns > 0 ? options.max_columns
                                      : std::numeric_limits<int64_t>::max(),
              options.infer_temporal} {
  root_->kind = InferNode::kStruct;
}

SchemaInference::~SchemaInference() = default;

Status SchemaInference::AddLine(const char* text, size_t size) {
  dom::element doc;
  auto err = ParseLine(text, size, options_.max_depth, &doc);
  if (err) return Status::Invalid(DescribeParseError(err, options_.max_depth));
  if (!doc.is_object()) {
    return Status::Invalid("a line must hold a JSON object, not ", KindName(doc.type()));
  }
  PathError perr;
  if (!root_->Add(doc, 0, &perr, &limits_)) {
    if (perr.too_wide) {
      return text::internal::TooManyColumns(
                 "the keys of the lines so far name more fields (nested ones included)",
                 options_.max_columns,
                 "give a schema of the fields wanted (and ignore unexpected ones)")
          .WithDetail({StatusDetail::Kind::kLimit, {"max_columns", "schema"}});
    }
    Status st = Status::Invalid("field ", perr.path.substr(1), ": ", perr.message);
    if (perr.detail) st = st.WithDetail(*perr.detail);
    return st;
  }
  return Status::OK();
}

SchemaPtr SchemaInference::Schema(bool whole_input) const {
  FieldVector fields;
  for (const auto& [name, node] : root_->fields) {
    fields.push_back(field(name, node->Type(whole_input)));
  }
  return alkaid::schema(std::move(fields));
}

}  // namespace alkaid::jsonl::internal
