#include "src/parquet/writer/levels.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "alkaid/bitmap.h"

namespace alkaid::parquet::internal {

namespace {

enum class NodeKind : uint8_t {
  kGroup,          // struct: a validity bitmap over children that share its index space
  kList,           // int32 offsets
  kLargeList,      // int64 offsets
  kListView,       // int32 offsets and sizes
  kLargeListView,  // int64 offsets and sizes
  kFixedSizeList,  // list_size children per slot
};

// One group or list between the column and a leaf.
struct PathNode {
  NodeKind kind;
  const ArrayData* array;
  bool nullable;          // a null here is a definition level of its own
  int16_t rep_level;      // lists: the repetition level of their elements
  int32_t list_size = 0;  // fixed-size lists
  const uint8_t* validity = nullptr;  // null when no slot can be null
  std::string name;                   // dotted path, for messages
};

// The leaf at the end of the path.
struct LeafNode {
  const ArrayData* array;
  bool nullable;
  bool all_null;                      // the null type: no slot has a value
  const uint8_t* validity = nullptr;  // bit of logical index i at validity_offset + i
  int64_t validity_offset = 0;
  std::string name;
};

// The index in [from, to) where bit values stop being `value`, scanning a word at a time.
int64_t RunEnd(const uint8_t* bits, int64_t offset, int64_t from, int64_t to, bool value) {
  int64_t i = from;
  while (i < to) {
    int64_t n = std::min<int64_t>(64, to - i);
    uint64_t word = n == 64 ? bit_util::LoadWord(bits, offset + i)
                            : bit_util::LoadPartialWord(bits, offset + i, n);
    if (!value) word = ~word;
    if (n < 64) word |= ~uint64_t{0} << n;  // bits past the end never stop the run early
    word = ~word;                           // set where the run stops
    if (n < 64) word &= (uint64_t{1} << n) - 1;
    if (word != 0) return i + __builtin_ctzll(word);
    i += n;
  }
  return to;
}

// Fills the levels of one leaf by walking the path from the column down.
class LeafWalker {
 public:
  LeafWalker(const std::vector<PathNode>& path, const LeafNode& leaf, LeafLevels* out)
      : path_(path), leaf_(leaf), out_(out) {}

  Status Run(int64_t length) {
    int64_t expected = length;
    if (out_->max_def > 0) out_->def_levels.reserve(static_cast<size_t>(expected));
    if (out_->max_rep > 0) out_->rep_levels.reserve(static_cast<size_t>(expected));
    if (length > 0) ALKAID_RETURN_NOT_OK(Visit(0, 0, length, 0, 0, 0));
    out_->num_entries = out_->max_def > 0   ? static_cast<int64_t>(out_->def_levels.size())
                        : out_->max_rep > 0 ? static_cast<int64_t>(out_->rep_levels.size())
                                            : length;
    return Status::OK();
  }

 private:
  // Entries for slots [a, b) of node k (the leaf when k == path size), whose definition
  // level so far is `def`. The first slot's first entry repeats at `first_rep`, every
  // later slot's at `elem_rep` (the level of the list that iterates over these slots).
  Status Visit(size_t k, int64_t a, int64_t b, int16_t def, int16_t first_rep,
               int16_t elem_rep) {
    if (k == path_.size()) return VisitLeaf(a, b, def, first_rep, elem_rep);
    const PathNode& node = path_[k];
    if (node.kind == NodeKind::kGroup) return VisitGroup(k, a, b, def, first_rep, elem_rep);
    switch (node.kind) {
      case NodeKind::kList:
        return VisitList(k, a, b, def, first_rep, elem_rep, [&](int64_t i) {
          const int32_t* offsets = node.array->GetValues<int32_t>(1);
          return ElementRange{offsets[i], offsets[i + 1]};
        });
      case NodeKind::kLargeList:
        return VisitList(k, a, b, def, first_rep, elem_rep, [&](int64_t i) {
          const int64_t* offsets = node.array->GetValues<int64_t>(1);
          return ElementRange{offsets[i], offsets[i + 1]};
        });
      case NodeKind::kListView:
        return VisitList(k, a, b, def, first_rep, elem_rep, [&](int64_t i) {
          int64_t start = node.array->GetValues<int32_t>(1)[i];
          return ElementRange{start, start + node.array->GetValues<int32_t>(2)[i]};
        });
      case NodeKind::kLargeListView:
        return VisitList(k, a, b, def, first_rep, elem_rep, [&](int64_t i) {
          int64_t start = node.array->GetValues<int64_t>(1)[i];
          return ElementRange{start, start + node.array->GetValues<int64_t>(2)[i]};
        });
      default: {
        int64_t size = node.list_size;
        int64_t base = node.array->offset;
        return VisitList(k, a, b, def, first_rep, elem_rep, [&](int64_t i) {
          return ElementRange{(base + i) * size, (base + i + 1) * size};
        });
      }
    }
  }

  Status VisitGroup(size_t k, int64_t a, int64_t b, int16_t def, int16_t first_rep,
                    int16_t elem_rep) {
    const PathNode& node = path_[k];
    const int64_t base = node.array->offset;  // children share the group's offset
    const int16_t inner = static_cast<int16_t>(def + (node.nullable ? 1 : 0));
    if (node.validity == nullptr) return Visit(k + 1, a + base, b + base, inner, first_rep, elem_rep);
    for (int64_t i = a; i < b;) {
      bool valid = bit_util::GetBit(node.validity, base + i);
      int64_t j = RunEnd(node.validity, base, i, b, valid);
      int16_t rep = i == a ? first_rep : elem_rep;
      if (valid) {
        ALKAID_RETURN_NOT_OK(Visit(k + 1, i + base, j + base, inner, rep, elem_rep));
      } else {
        if (!node.nullable) return NullInRequired(node.name, i);
        AddEntries(def, rep, elem_rep, j - i);
      }
      i = j;
    }
    return Status::OK();
  }

  template <typename Bounds>
  Status VisitList(size_t k, int64_t a, int64_t b, int16_t def, int16_t first_rep,
                   int16_t elem_rep, Bounds&& bounds) {
    const PathNode& node = path_[k];
    const int64_t base = node.array->offset;
    const int16_t present = static_cast<int16_t>(def + (node.nullable ? 1 : 0));
    for (int64_t i = a; i < b; ++i) {
      int16_t rep = i == a ? first_rep : elem_rep;
      if (node.validity != nullptr && !bit_util::GetBit(node.validity, base + i)) {
        if (!node.nullable) return NullInRequired(node.name, i);
        AddEntries(def, rep, rep, 1);
        continue;
      }
      ElementRange r = bounds(i);
      if (r.begin >= r.end) {
        AddEntries(present, rep, rep, 1);
      } else {
        ALKAID_RETURN_NOT_OK(Visit(k + 1, r.begin, r.end, static_cast<int16_t>(present + 1), rep,
                                   node.rep_level));
      }
    }
    return Status::OK();
  }

  Status VisitLeaf(int64_t a, int64_t b, int16_t def, int16_t first_rep, int16_t elem_rep) {
    const int64_t n = b - a;
    auto& ranges = out_->ranges;
    if (!ranges.empty() && ranges.back().end == a) {
      ranges.back().end = b;
    } else {
      ranges.push_back({a, b});
    }
    if (out_->max_rep > 0) {
      auto& reps = out_->rep_levels;
      reps.push_back(first_rep);
      reps.insert(reps.end(), static_cast<size_t>(n - 1), elem_rep);
    }
    if (!leaf_.nullable && leaf_.validity != nullptr) {
      int64_t valid = bit_util::CountSetBits(leaf_.validity, leaf_.validity_offset + a, n);
      if (valid != n) {
        int64_t first_null = RunEnd(leaf_.validity, leaf_.validity_offset, a, b, true);
        return NullInRequired(leaf_.name, first_null);
      }
    }
    if (out_->max_def == 0) return Status::OK();
    auto& defs = out_->def_levels;
    if (leaf_.all_null || leaf_.validity == nullptr || !leaf_.nullable) {
      int16_t level = static_cast<int16_t>(def + (leaf_.nullable && !leaf_.all_null ? 1 : 0));
      defs.insert(defs.end(), static_cast<size_t>(n), level);
      return Status::OK();
    }
    size_t start = defs.size();
    defs.resize(start + static_cast<size_t>(n));
    int16_t* out = defs.data() + start;
    int64_t pos = 0;
    bit_util::VisitWords(leaf_.validity, leaf_.validity_offset + a, n,
                         [&](uint64_t word, int64_t count) {
                           for (int64_t i = 0; i < count; ++i) {
                             out[pos + i] = static_cast<int16_t>(def + ((word >> i) & 1));
                           }
                           pos += count;
                         });
    return Status::OK();
  }

  // `count` entries that stop above the leaf at level `def`.
  void AddEntries(int16_t def, int16_t first_rep, int16_t elem_rep, int64_t count) {
    if (out_->max_def > 0) out_->def_levels.insert(out_->def_levels.end(), static_cast<size_t>(count), def);
    if (out_->max_rep > 0) {
      out_->rep_levels.push_back(first_rep);
      out_->rep_levels.insert(out_->rep_levels.end(), static_cast<size_t>(count - 1), elem_rep);
    }
  }

  static Status NullInRequired(const std::string& name, int64_t slot) {
    return Status::Invalid("column '", name, "': slot ", slot,
                           " is null but the field is not nullable");
  }

  const std::vector<PathNode>& path_;
  const LeafNode& leaf_;
  LeafLevels* out_;
};

// The type whose layout Parquet sees: extension types are their storage, run-end encoded
// and dictionary types their values.
const DataType& ParquetShape(const DataType& type) {
  switch (type.id()) {
    case TypeId::kExtension:
      return ParquetShape(*checked_cast<ExtensionType>(type).storage_type());
    case TypeId::kRunEndEncoded:
      return ParquetShape(*checked_cast<RunEndEncodedType>(type).value_type());
    case TypeId::kDictionary:
      return ParquetShape(*checked_cast<DictionaryType>(type).value_type());
    default:
      return type;
  }
}

bool IsListLike(TypeId id) {
  return id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kListView ||
         id == TypeId::kLargeListView || id == TypeId::kFixedSizeList || id == TypeId::kMap;
}

bool IsNestedForParquet(const DataType& type) {
  const DataType& shape = ParquetShape(type);
  return shape.id() == TypeId::kStruct || IsListLike(shape.id()) || shape.is_union();
}

// Dictionary index `i` of an index buffer of integer type `id`, widened (a uint64 index past
// INT64_MAX reads as negative, which callers reject as out of range).
int64_t ReadIndex(TypeId id, const uint8_t* indices, int64_t i) {
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, indices + i * static_cast<int64_t>(sizeof(v)), sizeof(v));
    return static_cast<int64_t>(v);
  };
  switch (id) {
    case TypeId::kInt8: return load(int8_t{});
    case TypeId::kUInt8: return load(uint8_t{});
    case TypeId::kInt16: return load(int16_t{});
    case TypeId::kUInt16: return load(uint16_t{});
    case TypeId::kInt32: return load(int32_t{});
    case TypeId::kUInt32: return load(uint32_t{});
    default: return load(int64_t{});
  }
}

// Walks the Arrow type tree of one column, keeping the path of groups and lists, and
// computes the levels of each leaf it reaches.
class ColumnWalker {
 public:
  ColumnWalker(MemoryPool* pool, std::vector<LeafLevels>* out) : pool_(pool), out_(out) {}

  Status Descend(const Field& field, const ArrayData& array, const std::string& name) {
    if (path_.size() >= static_cast<size_t>(kMaxNestingDepth)) {
      return Status::NotImplemented("column '", name, "': nested more than ", kMaxNestingDepth,
                                    " levels deep");
    }
    const DataType& type = array.storage_type();
    const ArrayData* data = &array;
    if (array.type->id() == TypeId::kExtension) {
      // The storage carries the bytes; the extension lives on in the ARROW:schema key.
      auto storage = std::make_shared<ArrayData>(array);
      storage->type = checked_cast<ExtensionType>(*array.type).storage_type();
      while (storage->type->id() == TypeId::kExtension)
        storage->type = checked_cast<ExtensionType>(*storage->type).storage_type();
      data = Keep(std::move(storage));
    }
    const bool nullable = field.nullable();
    switch (type.id()) {
      case TypeId::kStruct: {
        if (type.num_fields() == 0) {
          return Status::NotImplemented("column '", name,
                                        "': a struct without fields has no Parquet form "
                                        "(a group needs at least one child)");
        }
        PushNode(NodeKind::kGroup, *data, nullable, name);
        for (int i = 0; i < type.num_fields(); ++i) {
          const Field& child = *type.field(i);
          ALKAID_RETURN_NOT_OK(Descend(child, *data->child_data[static_cast<size_t>(i)],
                                       name + "." + child.name()));
        }
        path_.pop_back();
        return Status::OK();
      }
      case TypeId::kList:
      case TypeId::kMap:
        return DescendList(NodeKind::kList, type, *data, nullable, name);
      case TypeId::kLargeList:
        return DescendList(NodeKind::kLargeList, type, *data, nullable, name);
      case TypeId::kListView:
        return DescendList(NodeKind::kListView, type, *data, nullable, name);
      case TypeId::kLargeListView:
        return DescendList(NodeKind::kLargeListView, type, *data, nullable, name);
      case TypeId::kFixedSizeList:
        return DescendList(NodeKind::kFixedSizeList, type, *data, nullable, name);
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        return Status::NotImplemented("column '", name, "': Parquet has no form for ",
                                      type.ToString());
      case TypeId::kRunEndEncoded: {
        const auto& ree = checked_cast<RunEndEncodedType>(type);
        if (IsNestedForParquet(*ree.value_type())) {
          return Status::NotImplemented("column '", name,
                                        "': run-end encoded values of a nested type (",
                                        ree.value_type()->ToString(), ") are not written");
        }
        ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr plain, ExpandRunEndEncoded(*data, pool_));
        const ArrayData* kept = Keep(std::move(plain));
        return Descend(Field(field.name(), kept->type, nullable), *kept, name);
      }
      case TypeId::kDictionary: {
        const auto& dict = checked_cast<DictionaryType>(type);
        if (IsNestedForParquet(*dict.value_type())) {
          return Status::NotImplemented("column '", name, "': dictionaries of a nested type (",
                                        dict.value_type()->ToString(), ") are not written");
        }
        return AddLeaf(*data, nullable, name);
      }
      default:
        return AddLeaf(*data, nullable, name);
    }
  }

 private:
  const ArrayData* Keep(ArrayDataPtr data) {
    kept_.push_back(std::move(data));
    return kept_.back().get();
  }

  void PushNode(NodeKind kind, const ArrayData& array, bool nullable, const std::string& name) {
    PathNode node;
    node.kind = kind;
    node.array = &array;
    node.nullable = nullable;
    node.rep_level = 0;
    node.validity = array.MayHaveNulls() ? array.validity() : nullptr;
    node.name = name;
    path_.push_back(std::move(node));
  }

  Status DescendList(NodeKind kind, const DataType& type, const ArrayData& array, bool nullable,
                     const std::string& name) {
    PushNode(kind, array, nullable, name);
    int16_t reps = 0;
    for (const PathNode& node : path_) reps = static_cast<int16_t>(reps + (node.kind != NodeKind::kGroup));
    path_.back().rep_level = reps;
    if (kind == NodeKind::kFixedSizeList)
      path_.back().list_size = checked_cast<FixedSizeListType>(type).list_size();
    const Field& item = *type.field(0);
    const char* inner = type.id() == TypeId::kMap ? ".key_value" : ".list.element";
    ALKAID_RETURN_NOT_OK(Descend(item, *array.child_data[0], name + inner));
    path_.pop_back();
    return Status::OK();
  }

  Status AddLeaf(const ArrayData& array, bool nullable, const std::string& name) {
    LeafNode leaf;
    leaf.array = &array;
    leaf.all_null = array.type->id() == TypeId::kNull;
    leaf.nullable = nullable || leaf.all_null;
    leaf.name = name;
    LeafLevels levels;
    // A copy of the ArrayData header keeps the buffers alive for the writer without
    // copying any of them.
    levels.leaf = std::make_shared<ArrayData>(array);
    if (array.type->id() == TypeId::kDictionary) {
      ALKAID_ASSIGN_OR_RAISE(levels.validity_override, DictionaryValidity(array));
    }
    if (levels.validity_override != nullptr) {
      leaf.validity = levels.validity_override->data();
    } else if (!leaf.all_null && array.MayHaveNulls()) {
      leaf.validity = array.validity();
      leaf.validity_offset = array.offset;
    }
    int16_t def = 0, rep = 0;
    for (const PathNode& node : path_) {
      def = static_cast<int16_t>(def + (node.nullable ? 1 : 0) + (node.kind != NodeKind::kGroup));
      rep = static_cast<int16_t>(rep + (node.kind != NodeKind::kGroup));
    }
    levels.slot_def = def;
    levels.max_def = static_cast<int16_t>(def + (leaf.nullable ? 1 : 0));
    levels.max_rep = rep;
    levels.leaf_nullable = leaf.nullable;
    int64_t length = path_.empty() ? array.length : path_[0].array->length;
    LeafWalker walker(path_, leaf, &levels);
    ALKAID_RETURN_NOT_OK(walker.Run(length));
    out_->push_back(std::move(levels));
    return Status::OK();
  }

  // A dictionary's slot is null when its index is null or the entry it selects is null.
  // Returns null when the entries have no nulls (the index bitmap then says it all).
  Result<BufferPtr> DictionaryValidity(const ArrayData& array) {
    const ArrayData* dict = array.dictionary.get();
    if (dict == nullptr || !dict->MayHaveNulls() || dict->GetNullCount() == 0) return BufferPtr();
    ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBitmap(array.length, false, pool_));
    uint8_t* out = bits->mutable_data();
    const uint8_t* index_valid = array.MayHaveNulls() ? array.validity() : nullptr;
    const uint8_t* entry_valid = dict->validity();
    const DataType& index_type = *checked_cast<DictionaryType>(array.storage_type()).index_type();
    const uint8_t* indices = array.buffers[1]->data();
    for (int64_t i = 0; i < array.length; ++i) {
      if (index_valid != nullptr && !bit_util::GetBit(index_valid, array.offset + i)) continue;
      int64_t index = ReadIndex(index_type.id(), indices, array.offset + i);
      if (index < 0 || index >= dict->length) {
        return Status::Invalid("dictionary index ", index, " at slot ", i,
                               " is past the dictionary of ", dict->length, " entries");
      }
      if (bit_util::GetBit(entry_valid, dict->offset + index)) bit_util::SetBit(out, i);
    }
    return BufferPtr(std::move(bits));
  }

  MemoryPool* pool_;
  std::vector<LeafLevels>* out_;
  std::vector<PathNode> path_;
  std::vector<ArrayDataPtr> kept_;  // unwrapped or expanded arrays the path points into
};

}  // namespace

const uint8_t* LeafLevels::validity(int64_t* bit_offset) const {
  if (validity_override != nullptr) {
    *bit_offset = 0;
    return validity_override->data();
  }
  *bit_offset = leaf->offset;
  if (leaf->type->id() == TypeId::kNull || !leaf->MayHaveNulls()) return nullptr;
  return leaf->validity();
}

Result<std::vector<LeafLevels>> ComputeLeafLevels(const Field& field, const ArrayData& array,
                                                  MemoryPool* pool) {
  std::vector<LeafLevels> out;
  ColumnWalker walker(pool, &out);
  ALKAID_RETURN_NOT_OK(walker.Descend(field, array, field.name()));
  return out;
}

int CountLeaves(const DataType& type) {
  const DataType& shape = ParquetShape(type);
  if (shape.is_union()) return 0;
  if (IsListLike(shape.id())) return CountLeaves(*shape.field(0)->type());
  if (shape.id() != TypeId::kStruct) return 1;
  int n = 0;
  for (const auto& child : shape.fields()) n += CountLeaves(*child->type());
  return n;
}

}  // namespace alkaid::parquet::internal
