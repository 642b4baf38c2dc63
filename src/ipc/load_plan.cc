// Load plans: each field of a schema (or of a dictionary's value type) as a
// pre-order node carrying its type's layout, its place in the tree and its
// dictionary, made once when a reader gets its schema.
#include "load_plan.h"

#include <iterator>
#include <optional>

namespace alkaid::ipc::internal {

namespace {

// What full validation would read of the buffer, which the reader checks
// right after decompressing it (BufferRule::scan).
alkaid::internal::BufferScan ScanFor(const BufferSpec& spec, TypeId storage) {
  if (spec.kind == BufferSpec::kOffsets && spec.offsets_plus_one) {
    if (spec.byte_width == 4) return alkaid::internal::BufferScan::kOffsets32;
    if (spec.byte_width == 8) return alkaid::internal::BufferScan::kOffsets64;
  }
  if (spec.kind == BufferSpec::kData &&
      (storage == TypeId::kString || storage == TypeId::kLargeString)) {
    return alkaid::internal::BufferScan::kUtf8;
  }
  return alkaid::internal::BufferScan::kNone;
}

// What the loader needs of one buffer: the layout's statement of it.
BufferRule RuleFor(const BufferSpec& spec, TypeId storage) {
  BufferRule r;
  r.scan = ScanFor(spec, storage);
  r.kind = spec.kind;
  r.width = spec.byte_width;
  r.one_more = spec.offsets_plus_one;
  // Alignments are powers of two (IsAligned masks with alignment - 1).
  r.alignment = spec.alignment >= 1 && (spec.alignment & (spec.alignment - 1)) == 0 ? spec.alignment : 1;
  r.swap = ByteSwap{spec.swap, spec.byte_width};
  return r;
}

PlanNode::Shape ShapeOf(TypeId id) {
  using Shape = PlanNode::Shape;
  switch (id) {
    case TypeId::kNull: return Shape::kNull;
    case TypeId::kBinaryView:
    case TypeId::kStringView: return Shape::kViews;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap:
    case TypeId::kListView:
    case TypeId::kLargeListView: return Shape::kList;
    case TypeId::kFixedSizeList: return Shape::kFixedSizeList;
    case TypeId::kStruct: return Shape::kStruct;
    case TypeId::kSparseUnion: return Shape::kSparseUnion;
    case TypeId::kDenseUnion: return Shape::kDenseUnion;
    case TypeId::kDictionary: return Shape::kDictionary;
    case TypeId::kRunEndEncoded: return Shape::kRunEnd;
    default: return Shape::kBuffers;
  }
}

class PlanBuilder {
 public:
  PlanBuilder(const DictionaryIds& ids, const DictionaryMemo& memo, int max_depth, LoadPlan* plan)
      : ids_(ids), memo_(memo), max_depth_(max_depth), plan_(plan) {}

  Status Add(const FieldPtr& field, int32_t parent, int32_t child_index, FieldPath* path,
             int depth) {
    if (field == nullptr || field->type() == nullptr) {
      return Status::Invalid("a field of the schema has no type");
    }
    if (depth >= max_depth_) {
      return Status::Invalid("field ", field->name(), ": type nesting deeper than the limit of ",
                             max_depth_);
    }
    const DataType* storage = field->type().get();
    for (int layer = 0; storage->id() == TypeId::kExtension; ++layer) {
      storage = static_cast<const ExtensionType*>(storage)->storage_type().get();
      if (storage == nullptr || layer > max_depth_) {
        return Status::Invalid("field ", field->name(), ": extension type without usable storage");
      }
    }
    const DataTypeLayout& layout = storage->layout();
    const auto index = static_cast<int32_t>(plan_->nodes.size());
    {
      PlanNode node;
      node.type = field->type();
      node.field = field.get();
      node.parent = parent;
      node.child_index = child_index;
      node.shape = ShapeOf(storage->id());
      node.is_map = storage->id() == TypeId::kMap;
      if (layout.buffers.size() > std::size(node.buffers)) {
        return Status::NotImplemented("field ", field->name(), ": a layout of ",
                                      layout.buffers.size(), " buffers");
      }
      node.num_buffers = static_cast<uint8_t>(layout.buffers.size());
      for (size_t b = 0; b < layout.buffers.size(); ++b) {
        node.buffers[b] = RuleFor(layout.buffers[b], storage->id());
      }
      if (storage->id() == TypeId::kFixedSizeList) {
        node.list_size = static_cast<const FixedSizeListType*>(storage)->list_size();
      }
      if (node.shape == PlanNode::Shape::kDictionary) {
        if (std::optional<int64_t> id = ids_.Get(*path)) {
          node.dictionary_id = *id;
          node.dictionary = memo_.Find(*id);
        }
      } else {
        node.num_children = storage->num_fields();
      }
      plan_->nodes.push_back(std::move(node));
    }
    for (int32_t i = 0; i < plan_->nodes[static_cast<size_t>(index)].num_children; ++i) {
      path->push_back(i);
      ALKAID_RETURN_NOT_OK(Add(storage->field(i), index, i, path, depth + 1));
      path->pop_back();
    }
    plan_->nodes[static_cast<size_t>(index)].end = static_cast<int32_t>(plan_->nodes.size());
    return Status::OK();
  }

 private:
  const DictionaryIds& ids_;
  const DictionaryMemo& memo_;
  int max_depth_;
  LoadPlan* plan_;
};

}  // namespace

Status BuildLoadPlan(const FieldVector& fields, const FieldPath& base_path, int first_index,
                     const DictionaryIds& ids, const DictionaryMemo& memo, int max_recursion_depth,
                     LoadPlan* out) {
  out->nodes.clear();
  out->roots.clear();
  out->base_path = base_path;
  out->nodes.reserve(fields.size());
  out->roots.reserve(fields.size());
  PlanBuilder builder(ids, memo, max_recursion_depth, out);
  FieldPath path = base_path;
  for (size_t i = 0; i < fields.size(); ++i) {
    const int32_t root_index = first_index + static_cast<int32_t>(i);
    out->roots.push_back(static_cast<int32_t>(out->nodes.size()));
    path.push_back(root_index);
    ALKAID_RETURN_NOT_OK(builder.Add(fields[i], -1, root_index, &path, 0));
    path.pop_back();
  }
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
