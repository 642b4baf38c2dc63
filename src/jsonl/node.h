// The JSON Lines reader's per-block tree of column builders (internal): one
// Node per type in the schema, shared by the converters (dom_converter.cc,
// fast_converter.cc) and the line scanner (line_scanner.cc), with the
// appends they have in common.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "alkaid/builder.h"
#include "alkaid/type.h"
#include "../text/fast_values.h"

namespace alkaid::jsonl::internal {

// Structs with more fields than this find keys out of schema order through
// a hash of the names instead of trying every field.
inline constexpr size_t kHashedFields = 16;

struct Node {
  const DataType* type = nullptr;
  TypeId id = TypeId::kNull;  // type->id(), one load less per value
  bool nullable = true;
  ArrayBuilder* builder = nullptr;
  std::vector<Node> children;
  // Position in a depth-first walk from the root (the size hints' index).
  int index = 0;
  // String columns on the scanner and On-Demand paths: value bytes reserved
  // and not yet used, so appends within it need no capacity check.
  int64_t room = 0;
  // Structs (and the top level): field names, and which were set in the
  // object being read (stamp == gen).
  std::vector<std::string> names;
  std::unordered_map<std::string_view, int> by_name;  // for wide structs
  std::vector<uint64_t> stamp;
  uint64_t gen = 0;
  int guess = 0;
  std::string scratch;
  // The key test of the scanner and the On-Demand path (KeyIs): per field,
  // the name and its closing quote as one little-endian word with a mask of
  // its bytes (names of up to 7 bytes; longer ones have mask 0 and are
  // compared word by word).
  std::vector<uint64_t> key_word, key_mask;
  // Nulls one null of this node appends, its own and its children's (a
  // struct's null is a null in every field below it): what a left-out key
  // costs. At least 1, so that the work of the fill is counted too.
  int64_t fill_cells = 1;
  // Structs: the block's allowance of such nulls, shared by every node of
  // the tree (see ReadOptions::missing_nulls_per_byte); null means none set.
  int64_t* fill_left = nullptr;

  int Find(std::string_view key) {
    int n = static_cast<int>(names.size());
    if (guess < n && names[static_cast<size_t>(guess)] == key) return guess;
    if (static_cast<size_t>(n) > kHashedFields) {
      auto it = by_name.find(key);
      return it == by_name.end() ? -1 : it->second;
    }
    for (int i = 0; i < n; ++i) {
      if (names[static_cast<size_t>(i)] == key) return i;
    }
    return -1;
  }
  // The field a key names, tried first at `guess` (the field after the last
  // one found, as keys usually come in schema order), then from the start,
  // or through the hash of names for wide structs: `is(k)` tests field k,
  // `key` is the key's raw text (just after its opening quote; the block's
  // padding ends any scan of it); names.size() when no field matches.
  template <typename Is>
  __attribute__((always_inline)) size_t FindField(size_t guess, const char* key, Is&& is) const {
    const size_t nf = names.size();
    if (guess < nf && is(guess)) return guess;
    if (nf > kHashedFields) return FindByRawKey(key);
    for (size_t k = 0; k < nf; ++k) {
      if (is(k)) return k;
    }
    return nf;
  }
  // The field whose name is the raw key text up to its closing quote;
  // names.size() for none, and for a key with an escape or a control byte
  // (never in a name on these paths: the general path reads such keys).
  size_t FindByRawKey(const char* key) const {
    const char* end = key;
    while (static_cast<unsigned char>(*end) >= 0x20 && *end != '"' && *end != '\\') ++end;
    if (*end != '"') return names.size();
    auto it = by_name.find(std::string_view(key, static_cast<size_t>(end - key)));
    return it == by_name.end() ? names.size() : static_cast<size_t>(it->second);
  }
  // Counts a null for left-out field k against the block's allowance;
  // false when the allowance is spent (before anything is appended).
  __attribute__((always_inline)) bool ChargeFill(size_t k) {
    return fill_left == nullptr || (*fill_left -= children[k].fill_cells) >= 0;
  }

  // Whether the key text at `key` (just after its opening quote) is field
  // k's name followed by the closing quote; `head` holds its first 8 bytes
  // (the block's padding makes them readable).
  __attribute__((always_inline)) bool KeyIs(size_t k, const char* key, uint64_t head) const {
    const uint64_t mask = key_mask[k];
    if (mask != 0) return (head & mask) == key_word[k];
    // Word by word, stopping at the first difference: the key's closing
    // quote (never in a name here) differs by the word that holds it, so
    // the reads stay within the key and the padding after it.
    const std::string& name = names[k];
    size_t i = 0;
    for (; i + 8 <= name.size(); i += 8) {
      if (text::fast::Load8(key + i) != text::fast::Load8(name.data() + i)) return false;
    }
    for (; i < name.size(); ++i) {
      if (key[i] != name[i]) return false;
    }
    return key[i] == '"';
  }
  void SetFields(const DataType& struct_type) {
    for (const auto& f : struct_type.fields()) names.push_back(f->name());
    stamp.assign(names.size(), 0);
    for (const std::string& name : names) {
      uint64_t word = 0, mask = 0;
      if (name.size() < 8) {
        std::string quoted = name + '"';
        std::memcpy(&word, quoted.data(), quoted.size());
        mask = quoted.size() == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * quoted.size())) - 1;
      }
      key_word.push_back(word);
      key_mask.push_back(mask);
    }
    if (names.size() > kHashedFields) {
      for (size_t i = 0; i < names.size(); ++i) by_name.emplace(names[i], static_cast<int>(i));
    }
  }
};


// Node::fill_cells of `n` from its children's: a null list (of any kind)
// has no elements, a fixed-size list's null holds `size` null elements, any
// other parent's null is a null in each child. Saturates far below overflow.
inline int64_t FillCells(const Node& n) {
  constexpr int64_t kMax = int64_t{1} << 40;
  switch (n.id) {
    case TypeId::kList: case TypeId::kLargeList: case TypeId::kListView:
    case TypeId::kLargeListView: case TypeId::kMap:
      return 1;
    case TypeId::kFixedSizeList: {
      const int64_t size = checked_cast<FixedSizeListType>(*n.type).list_size();
      const int64_t child = n.children.empty() ? 1 : n.children[0].fill_cells;
      return size > 0 && child > kMax / size ? kMax : 1 + size * child;
    }
    default: {
      int64_t cells = 1;
      for (const Node& c : n.children) cells = std::min(kMax, cells + c.fill_cells);
      return cells;
    }
  }
}

// Points every struct of the tree at the block's allowance of nulls for
// left-out keys.
inline void SetFillAllowance(Node* n, int64_t* left) {
  n->fill_left = left;
  for (Node& c : n->children) SetFillAllowance(&c, left);
}

// The tree of nodes for `type` over `builder` and its children.
inline Node BuildNode(const DataType& type, ArrayBuilder* builder, bool nullable = true) {
  Node n;
  n.type = &type;
  n.id = type.id();
  n.nullable = nullable;
  n.builder = builder;
  if (type.id() == TypeId::kExtension) {
    n.children.push_back(BuildNode(*checked_cast<ExtensionType>(type).storage_type(),
                                   builder->child(0)));
    return n;
  }
  if (type.id() == TypeId::kDictionary || type.id() == TypeId::kRunEndEncoded) return n;
  for (int i = 0; i < type.num_fields(); ++i) {
    n.children.push_back(
        BuildNode(*type.field(i)->type(), builder->child(i), type.field(i)->nullable()));
  }
  if (type.id() == TypeId::kStruct) n.SetFields(type);
  n.fill_cells = FillCells(n);
  return n;
}

// The one table from a column's type to its builder class and value type, for
// the types every tier reads alike (the line scanner's PickFn, the On-Demand
// and DOM converters' Value): `r` supplies Signed, Unsigned, Floating and
// Temporal<Builder, C>(), String and List<Builder>(), Bool(), Struct(), and
// Other() for the rest (what only one tier reads, or what it refuses).
template <typename R>
__attribute__((always_inline)) inline auto ByColumnType(TypeId id, R&& r) {
  switch (id) {
    case TypeId::kBool: return r.Bool();
    case TypeId::kInt8: return r.template Signed<Int8Builder, int8_t>();
    case TypeId::kInt16: return r.template Signed<Int16Builder, int16_t>();
    case TypeId::kInt32: return r.template Signed<Int32Builder, int32_t>();
    case TypeId::kInt64: return r.template Signed<Int64Builder, int64_t>();
    case TypeId::kUInt8: return r.template Unsigned<UInt8Builder, uint8_t>();
    case TypeId::kUInt16: return r.template Unsigned<UInt16Builder, uint16_t>();
    case TypeId::kUInt32: return r.template Unsigned<UInt32Builder, uint32_t>();
    case TypeId::kUInt64: return r.template Unsigned<UInt64Builder, uint64_t>();
    case TypeId::kFloat: return r.template Floating<FloatBuilder, float>();
    case TypeId::kDouble: return r.template Floating<DoubleBuilder, double>();
    case TypeId::kDuration: return r.template Signed<DurationBuilder, int64_t>();
    case TypeId::kDate32: return r.template Temporal<Date32Builder, int32_t>();
    case TypeId::kDate64: return r.template Temporal<Date64Builder, int64_t>();
    case TypeId::kTimestamp: return r.template Temporal<TimestampBuilder, int64_t>();
    case TypeId::kTime32: return r.template Temporal<Time32Builder, int32_t>();
    case TypeId::kTime64: return r.template Temporal<Time64Builder, int64_t>();
    case TypeId::kString: return r.template String<StringBuilder>();
    case TypeId::kLargeString: return r.template String<LargeStringBuilder>();
    case TypeId::kStringView: return r.template String<BinaryViewBuilder>();
    case TypeId::kList: return r.template List<ListBuilder>();
    case TypeId::kLargeList: return r.template List<LargeListBuilder>();
    case TypeId::kStruct: return r.Struct();
    default: return r.Other();
  }
}

// A fixed-width value appended without a call when there is room (the
// top-level columns are reserved for every line of the block).
template <typename B, typename V>
__attribute__((always_inline)) inline bool Put(ArrayBuilder* builder, V x) {
  auto* b = static_cast<B*>(builder);
  if (b->length() < b->capacity()) {
    b->UnsafeAppend(x);
    return true;
  }
  return b->Append(x).ok();
}

// A string appended to a utf8 / large_utf8 column within the value bytes
// reserved (Node::room) without checks; past them, more is reserved first.
template <typename B>
__attribute__((always_inline)) inline bool PutString(Node* n, std::string_view s) {
  auto* b = static_cast<B*>(n->builder);
  const auto size = static_cast<int64_t>(s.size());
  if (b->length() >= b->capacity() && !b->Reserve(1).ok()) return false;
  if (size > n->room) {
    const int64_t more = std::max<int64_t>(size, 1 << 14);
    if (!b->ReserveData(more).ok()) {
      // Near the offsets' limit: exactly what is needed, or the error.
      if (!b->ReserveData(size).ok()) return false;
      n->room = size;
    } else {
      n->room = more;
    }
  }
  b->UnsafeAppend(s);
  n->room -= size;
  return true;
}

}  // namespace alkaid::jsonl::internal
