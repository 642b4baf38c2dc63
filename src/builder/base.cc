// The type-independent part of every builder (validity bitmap, finishing,
// resetting) and MakeBuilder, which picks the builder class for a type.
#include "alkaid/builder/base.h"

#include <algorithm>

#include "alkaid/builder.h"
#include "alkaid/visit_type.h"

namespace alkaid {

Status ArrayBuilder::CheckValidityLength(size_t values, size_t validity) {
  if (values == validity) return Status::OK();
  return Status::Invalid("the validity vector has ", validity, " entries for ", values,
                         " values");
}

Status ArrayBuilder::AppendValueBytes(std::string_view) {
  return Status::TypeError("the ", type_->ToString(),
                           " builder does not take values as raw bytes");
}

Status ArrayBuilder::Resize(int64_t capacity) {
  if (validity_.allocated()) {
    ALKAID_RETURN_NOT_OK(validity_.EnsureCapacity(bit_util::BytesForBits(capacity)));
  }
  capacity_ = capacity;
  return Status::OK();
}

Status ArrayBuilder::MaterializeValidity() {
  ALKAID_RETURN_NOT_OK(validity_.EnsureCapacity(bit_util::BytesForBits(std::max(capacity_, length_))));
  // Every slot so far was valid.
  bit_util::SetBitsTo(validity_.mutable_data(), 0, length_, true);
  return Status::OK();
}

Result<BufferPtr> ArrayBuilder::FinishValidity() {
  if (null_count_ == 0 || !validity_.allocated()) {
    validity_.Reset();
    return BufferPtr();
  }
  return validity_.FinishWithSize(bit_util::BytesForBits(length_));
}

Result<ArrayDataPtr> ArrayBuilder::Finish() {
  auto out = std::make_shared<ArrayData>();
  out->type = type_;
  out->length = length();
  out->null_count = null_count();
  Status st = FinishInto(out.get());
  Reset();
  if (!st.ok()) return st;
  return out;
}

Result<ArrayPtr> ArrayBuilder::FinishArray() {
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, Finish());
  return MakeArray(data);
}

void ArrayBuilder::Reset() {
  length_ = 0;
  null_count_ = 0;
  capacity_ = 0;
  validity_.Reset();
  for (auto& c : children_) c->Reset();
}

// MakeBuilder: one builder class per type, children made recursively.

namespace {

struct MakeBuilderVisitor {
  const DataTypePtr& type;
  MemoryPool* pool;
  ArrayBuilderPtr out;

  Result<ArrayBuilderPtr> Child(const DataTypePtr& child_type) { return MakeBuilder(child_type, pool); }
  // Makes the builder B of `type`: B(type, children..., pool).
  template <typename B, typename... Children>
  Status Make(Children&&... children) {
    out = std::make_unique<B>(type, std::forward<Children>(children)..., pool);
    return Status::OK();
  }

  Status Visit(const NullType&) { return Make<NullBuilder>(); }
  Status Visit(const BooleanType&) { return Make<BooleanBuilder>(); }
  Status Visit(const FixedSizeBinaryType&) { return Make<FixedSizeBinaryBuilder>(); }
  template <typename T>
    requires is_decimal_v<T>
  Status Visit(const T&) { return Make<DecimalBuilder>(); }
  template <typename T>
    requires has_c_type_v<T>
  Status Visit(const T&) { return Make<NumericBuilder<T>>(); }
  template <typename T>
    requires is_base_binary_v<T>
  Status Visit(const T&) { return Make<BaseBinaryBuilder<T>>(); }
  template <typename T>
    requires is_binary_view_v<T>
  Status Visit(const T&) { return Make<BinaryViewBuilder>(); }
  template <typename T>
    requires(std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType>)
  Status Visit(const T& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    return Make<BaseListBuilder<T>>(std::move(values));
  }
  template <typename T>
    requires is_list_view_v<T>
  Status Visit(const T& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    return Make<BaseListViewBuilder<T>>(std::move(values));
  }
  Status Visit(const FixedSizeListType& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    return Make<FixedSizeListBuilder>(std::move(values));
  }
  Result<std::vector<ArrayBuilderPtr>> Children(const DataType& parent) {
    std::vector<ArrayBuilderPtr> children;
    for (const auto& f : parent.fields()) {
      ALKAID_ASSIGN_OR_RAISE(auto c, Child(f->type()));
      children.push_back(std::move(c));
    }
    return children;
  }
  Status Visit(const StructType& struct_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(struct_type));
    return Make<StructBuilder>(std::move(children));
  }
  Status Visit(const MapType& map_type) {
    ALKAID_ASSIGN_OR_RAISE(auto keys, Child(map_type.key_type()));
    ALKAID_ASSIGN_OR_RAISE(auto items, Child(map_type.item_type()));
    return Make<MapBuilder>(std::move(keys), std::move(items));
  }
  Status Visit(const SparseUnionType& union_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(union_type));
    return Make<SparseUnionBuilder>(std::move(children));
  }
  Status Visit(const DenseUnionType& union_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(union_type));
    return Make<DenseUnionBuilder>(std::move(children));
  }
  Status Visit(const DictionaryType& dict_type) {
    if (!dict_type.index_type()->is_integer()) {
      return Status::TypeError("dictionary index type must be an integer, got ",
                               dict_type.index_type()->ToString());
    }
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(dict_type.value_type()));
    return Make<DictionaryBuilder>(std::move(values));
  }
  Status Visit(const RunEndEncodedType& ree_type) {
    ALKAID_RETURN_NOT_OK(RunEndEncodedType::CheckRunEndType(*ree_type.run_end_type()));
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(ree_type.value_type()));
    return Make<RunEndEncodedBuilder>(std::move(values));
  }
  Status Visit(const ExtensionType& ext_type) {
    ALKAID_ASSIGN_OR_RAISE(auto storage, Child(ext_type.storage_type()));
    out = std::make_unique<ExtensionBuilder>(type, std::move(storage), pool);
    return Status::OK();
  }
};

}  // namespace

Result<ArrayBuilderPtr> MakeBuilder(const DataTypePtr& type, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("MakeBuilder: null type");
  MakeBuilderVisitor visitor{type, pool, nullptr};
  ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, &visitor));
  return std::move(visitor.out);
}

}  // namespace alkaid
