// Record assembly from levels (see assemble.h).
#include "src/parquet/assemble.h"

#include "alkaid/bitmap.h"
#include "alkaid/builder.h"

namespace alkaid::parquet::internal {

namespace {

using alkaid::bit_util::BytesForBits;
using alkaid::bit_util::SetBitTo;

void Collect(const FieldNode& node, const SchemaDescriptor& schema, bool nested,
             std::vector<LeafSpec>* specs) {
  switch (node.kind) {
    case FieldNode::Kind::kLeaf: {
      LeafSpec& spec = (*specs)[static_cast<size_t>(node.column_index)];
      spec.column = &schema.column(node.column_index);
      spec.type = node.field->type();
      spec.slot_def = node.levels.slot_def;
      spec.keep_levels = nested;
      return;
    }
    case FieldNode::Kind::kStruct:
    case FieldNode::Kind::kList:
    case FieldNode::Kind::kMap:
      for (const auto& child : node.children) Collect(child, schema, true, specs);
      return;
  }
}

const FieldNode* FirstLeaf(const FieldNode& node) {
  if (node.kind == FieldNode::Kind::kLeaf) return &node;
  for (const auto& child : node.children) {
    if (const FieldNode* leaf = FirstLeaf(child)) return leaf;
  }
  return nullptr;
}

// The levels of one leaf, with absent arrays read as all zero.
struct Levels {
  const int16_t* def = nullptr;
  const int16_t* rep = nullptr;
  int64_t n = 0;
  int16_t Def(int64_t i) const { return def ? def[i] : 0; }
  int16_t Rep(int64_t i) const { return rep ? rep[i] : 0; }
};

Levels LevelsOf(const LeafData& leaf) {
  Levels out;
  out.n = leaf.num_entries;
  if (leaf.def_levels) out.def = leaf.def_levels->data_as<int16_t>();
  if (leaf.rep_levels) out.rep = leaf.rep_levels->data_as<int16_t>();
  return out;
}

class Assembler {
 public:
  Assembler(const std::vector<LeafData>& leaves, MemoryPool* pool)
      : leaves_(leaves), pool_(pool) {}

  Result<ArrayDataPtr> Build(const FieldNode& node, int64_t top_rows) {
    switch (node.kind) {
      case FieldNode::Kind::kLeaf:
        return leaves_[static_cast<size_t>(node.column_index)].values;
      case FieldNode::Kind::kStruct:
        return Struct(node, top_rows);
      case FieldNode::Kind::kList:
      case FieldNode::Kind::kMap:
        return List(node);
    }
    return Status::Invalid("unknown node kind");
  }

 private:
  Result<ArrayDataPtr> Struct(const FieldNode& node, int64_t top_rows) {
    const FieldNode* leaf = FirstLeaf(node);
    int64_t length = 0;
    BufferPtr validity;
    int64_t nulls = 0;
    if (leaf == nullptr) {
      // A struct without fields: its length is the enclosing count, known only at the top.
      if (node.levels.slot_rep > 0 || node.levels.slot_def > 0 ||
          node.levels.def_present > 0) {
        return Status::NotImplemented("a field-less group inside a list or optional group");
      }
      length = top_rows;
    } else {
      Levels lv = LevelsOf(leaves_[static_cast<size_t>(leaf->column_index)]);
      const int16_t slot_def = node.levels.slot_def, slot_rep = node.levels.slot_rep;
      const int16_t present = node.levels.def_present;
      const bool nullable = node.field->nullable() && present > slot_def;
      alkaid::BufferBuilder bits(pool_);
      if (nullable) ALKAID_RETURN_NOT_OK(bits.EnsureCapacity(BytesForBits(lv.n)));
      for (int64_t i = 0; i < lv.n; ++i) {
        int16_t d = lv.Def(i);
        if (d < slot_def || lv.Rep(i) > slot_rep) continue;
        if (nullable) {
          bool valid = d >= present;
          SetBitTo(bits.mutable_data(), length, valid);
          nulls += !valid;
        }
        ++length;
      }
      if (nulls > 0) {
        ALKAID_ASSIGN_OR_RAISE(validity, bits.FinishWithSize(BytesForBits(length)));
      }
    }
    ArrayDataVector children;
    for (const auto& child : node.children) {
      ALKAID_ASSIGN_OR_RAISE(auto data, Build(child, length));
      if (data->length != length) {
        return Status::Invalid("field ", child.field->name(), " of struct ", node.field->name(),
                               " has ", data->length, " values where the struct has ", length,
                               " (its levels disagree with its siblings')");
      }
      children.push_back(std::move(data));
    }
    DataTypePtr storage = node.extension ? checked_cast<ExtensionType>(*node.extension)
                                               .storage_type()
                                         : node.field->type();
    auto out = ArrayData::Make(node.extension ? node.extension : storage, length, {validity},
                               std::move(children), nulls);
    return out;
  }

  Result<ArrayDataPtr> List(const FieldNode& node) {
    const FieldNode* leaf = FirstLeaf(node);
    if (leaf == nullptr) return Status::NotImplemented("a list of field-less groups");
    Levels lv = LevelsOf(leaves_[static_cast<size_t>(leaf->column_index)]);
    const int16_t slot_def = node.levels.slot_def, slot_rep = node.levels.slot_rep;
    const int16_t present = node.levels.def_present, elem_def = node.elem_def;
    const int16_t elem_rep = static_cast<int16_t>(slot_rep + 1);
    const bool nullable = node.field->nullable() && present > slot_def;
    alkaid::BufferBuilder offsets(pool_), bits(pool_);
    ALKAID_RETURN_NOT_OK(offsets.EnsureCapacity((lv.n + 1) * 4));
    if (nullable) ALKAID_RETURN_NOT_OK(bits.EnsureCapacity(BytesForBits(lv.n)));
    auto* off = reinterpret_cast<int32_t*>(offsets.mutable_data());
    int64_t length = 0, nulls = 0, children = 0;
    for (int64_t i = 0; i < lv.n; ++i) {
      int16_t d = lv.Def(i), r = lv.Rep(i);
      if (d >= slot_def && r <= slot_rep) {
        if (children > INT32_MAX) return Status::CapacityError("list with more than 2^31 elements");
        off[length] = static_cast<int32_t>(children);
        if (nullable) {
          bool valid = d >= present;
          SetBitTo(bits.mutable_data(), length, valid);
          nulls += !valid;
        }
        ++length;
      }
      if (d >= elem_def && r <= elem_rep) ++children;
    }
    if (children > INT32_MAX) return Status::CapacityError("list with more than 2^31 elements");
    off[length] = static_cast<int32_t>(children);
    ALKAID_ASSIGN_OR_RAISE(auto child, Build(node.children[0], 0));
    if (child->length != children) {
      return Status::Invalid("list ", node.field->name(), " has ", children,
                             " elements by its levels but its element field has ",
                             child->length);
    }
    if (node.kind == FieldNode::Kind::kMap && child->child_data[0]->GetNullCount() > 0) {
      return Status::Invalid("map ", node.field->name(), " has a null key");
    }
    ALKAID_ASSIGN_OR_RAISE(auto offsets_buffer, offsets.FinishWithSize((length + 1) * 4));
    BufferPtr validity;
    if (nulls > 0) {
      ALKAID_ASSIGN_OR_RAISE(validity, bits.FinishWithSize(BytesForBits(length)));
    }
    return ArrayData::Make(node.field->type(), length, {validity, offsets_buffer}, {child}, nulls);
  }

  const std::vector<LeafData>& leaves_;
  MemoryPool* pool_;
};

}  // namespace

void CollectLeafSpecs(const FieldNode& node, const SchemaDescriptor& schema,
                      std::vector<LeafSpec>* specs_by_column) {
  Collect(node, schema, node.kind != FieldNode::Kind::kLeaf, specs_by_column);
}

Result<ArrayDataPtr> AssembleField(const FieldNode& node, const std::vector<LeafData>& leaves,
                                   int64_t num_rows, MemoryPool* pool) {
  Assembler assembler(leaves, pool);
  ALKAID_ASSIGN_OR_RAISE(auto out, assembler.Build(node, num_rows));
  if (out->length != num_rows) {
    return Status::Invalid("field ", node.field->name(), " has ", out->length,
                           " rows where the row group has ", num_rows);
  }
  return out;
}

}  // namespace alkaid::parquet::internal
