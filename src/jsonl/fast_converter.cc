// See fast_converter.h.
#include "fast_converter.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "../text/fast_values.h"
#include "../text/text_values.h"
#include "parse_line.h"

namespace alkaid::jsonl::internal {

namespace od = simdjson::ondemand;

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

namespace {

class FastConverter {
 public:
  static bool Object(Node* n, od::object& obj) {
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
  static bool List(Node* n, od::value& v) {
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

  // The On-Demand column of ByColumnType.
  struct Reads {
    Node* n;
    od::value& v;
    template <typename B, typename C> bool Signed() { return FastConverter::Signed<B, C>(n, v); }
    template <typename B, typename C> bool Unsigned() { return FastConverter::Unsigned<B, C>(n, v); }
    template <typename B, typename C> bool Floating() { return FastConverter::Floating<B, C>(n, v); }
    template <typename B, typename C> bool Temporal() { return FastConverter::Temporal<B, C>(n, v); }
    template <typename B> bool String() { return FastConverter::String<B>(n, v); }
    template <typename B> bool List() { return FastConverter::List<B>(n, v); }
    bool Bool() {
      bool b;
      if (v.get_bool().get(b)) return NullOr(n, v);
      return Put<BooleanBuilder>(n->builder, b);
    }
    bool Struct() {
      od::object obj;
      if (v.get_object().get(obj)) return NullOr(n, v);
      if (!static_cast<StructBuilder*>(n->builder)->Append(true).ok()) return false;
      return Object(n, obj);
    }
    bool Other() { return false; }  // not read on this path
  };

  static bool Value(Node* n, od::value& v) { return ByColumnType(n->id, Reads{n, v}); }
};

}  // namespace

FastResult OnDemandConvertBlock(const char* data, int64_t size, int64_t line_feeds,
                                int max_depth, Node* root, int64_t* rows, bool strict) {
  constexpr FastResult kFailed = FastResult::kFailed;
  thread_local od::parser parser;
  const size_t batch = std::max<size_t>(static_cast<size_t>(size) + 64, 1 << 16);
  if (parser.capacity() < batch || parser.max_depth() != static_cast<size_t>(max_depth)) {
    if (parser.allocate(batch, static_cast<size_t>(max_depth))) return kFailed;
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

}  // namespace alkaid::jsonl::internal
