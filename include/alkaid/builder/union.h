/// @file
/// Builders of sparse and dense unions: Append(type_code) picks the child, then
/// the caller appends the value to child_builder(type_code).
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Shared by both union modes: child builders addressed by type code.
/// Type codes are the ones the union type declares, not child indices.
class ALKAID_EXPORT UnionBuilderBase : public ArrayBuilder {
 public:
  /// The union type being built.
  const UnionType& union_type() const { return checked_cast<UnionType>(*type_); }
  /// The builder of the child declared with `type_code` (nullptr if undeclared).
  ArrayBuilder* child_builder(int8_t type_code) const {
    int index = union_type().child_index(type_code);
    return index < 0 ? nullptr : child(index);
  }
  /// Unions have no validity bitmap: the children carry the nulls.
  int64_t null_count() const override { return 0; }
  void Reset() override;

 protected:
  /// Takes ownership of one builder per child of the union type, in child
  /// order.
  UnionBuilderBase(DataTypePtr type, std::vector<ArrayBuilderPtr> children, MemoryPool* pool);
  Status Resize(int64_t capacity) override;
  /// Invalid unless the type declares `type_code`.
  Status CheckTypeCode(int8_t type_code) const;
  /// Writes the type code of slot length() and counts the slot; capacity must have been reserved.
  void UnsafeAppendTypeCode(int8_t code) {
    types_.mutable_data()[length_] = static_cast<uint8_t>(code);
    ++length_;
  }

  BufferBuilder types_;  ///< One int8 type code per slot.
};

/// sparse_union: Append(code) records the code and appends an empty value to
/// every other child; the caller then appends the value to child_builder(code).
/// AppendNull appends a null to the first child (empty values to the rest).
/// Finish fails with Invalid unless every child holds one value per slot.
class ALKAID_EXPORT SparseUnionBuilder final : public UnionBuilderBase {
 public:
  /// A builder of `type` (a sparse union) owning one builder per child, in child order.
  SparseUnionBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                     MemoryPool* pool = default_memory_pool())
      : UnionBuilderBase(std::move(type), std::move(children), pool) {}

  /// Invalid for a type code the union does not declare. After it, exactly one
  /// value goes to child_builder(type_code).
  Status Append(int8_t type_code);
  /// Appends `n` slots selecting the first child, holding nulls there (empty
  /// values in the other children); Invalid for a union without children.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots selecting the first child, every child getting its
  /// empty value; Invalid for a union without children.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;
};

/// dense_union: Append(code) records the code and the selected child's current
/// length as the offset; the caller then appends the value to child_builder(code).
class ALKAID_EXPORT DenseUnionBuilder final : public UnionBuilderBase {
 public:
  /// A builder of `type` (a dense union) owning one builder per child, in child order.
  DenseUnionBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                    MemoryPool* pool = default_memory_pool())
      : UnionBuilderBase(std::move(type), std::move(children), pool), offsets_(pool) {}

  /// Invalid for a type code the union does not declare; CapacityError when the
  /// child's length no longer fits an int32 offset. After it, exactly one value
  /// goes to child_builder(type_code).
  Status Append(int8_t type_code);
  /// Appends `n` nulls to the first child and slots pointing at them; Invalid
  /// for a union without children.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` empty values to the first child and slots pointing at them.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status AppendToFirstChild(int64_t n, bool null);

  BufferBuilder offsets_;
};

}  // namespace alkaid
