/// @file
/// The types with children: list, large_list, list_view, large_list_view,
/// fixed_size_list, map, struct, and the sparse and dense unions.
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/schema.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Base of list, large list, list view, large list view, fixed-size list and map.
/// The single child field holds the list items; its name does not take part
/// in equality.
class ALKAID_EXPORT BaseListType : public DataType {
 public:
  /// A list-like type of id `id` whose items are described by `value_field`
  /// (must not be null).
  BaseListType(TypeId id, FieldPtr value_field) : DataType(id) {
    children_.push_back(std::move(value_field));
  }
  /// The item field (name, type, nullability of the items).
  const FieldPtr& value_field() const { return children_[0]; }
  /// The item type.
  const DataTypePtr& value_type() const;

 protected:
  /// False: list item names vary between implementations.
  bool ChildNamesMatter() const override { return false; }
};

/// The four offset-based list types.
///
/// Buffers: validity and offsets of OffsetT; list views add a sizes buffer.
/// For lists, list i is items [offsets[i], offsets[i + 1]); for list views it
/// is items [offsets[i], offsets[i] + sizes[i]).
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam OffsetT int32_t or int64_t
/// @tparam kId the TypeId of the concrete class
/// @tparam kView true for list views
template <typename Derived, typename OffsetT, TypeId kId, bool kView>
class ALKAID_EXPORT ListTypeOf : public BaseListType {
 public:
  using offset_type = OffsetT;  ///< Integer type of the offsets (and sizes) buffer.
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  static constexpr bool is_list_view = kView;  ///< Whether there is a sizes buffer.
  /// A list whose items are described by `value_field`.
  explicit ListTypeOf(FieldPtr value_field) : BaseListType(kId, std::move(value_field)) {}
  /// A list of nullable items of `value_type`, with the item field named "item".
  explicit ListTypeOf(DataTypePtr value_type)
      : BaseListType(kId, std::make_shared<Field>("item", std::move(value_type))) {}
  /// Derived::kName, e.g. "list".
  std::string name() const override { return Derived::kName; }
  /// "name<item field>", e.g. "list<item: int32>".
  std::string ToString() const override;
  /// Validity, offsets, and for list views sizes.
  DataTypeLayout ComputeLayout() const override {
    constexpr int kWidth = static_cast<int>(sizeof(OffsetT));
    DataTypeLayout l{{BufferSpec::Validity(),
                      kView ? BufferSpec::ViewOffsets(kWidth) : BufferSpec::Offsets(kWidth)},
                     false};
    if (kView) l.buffers.push_back(BufferSpec::Sizes(kWidth));
    return l;
  }
};

/// Lists with 32-bit offsets. Also the base of MapType.
class ALKAID_EXPORT ListType : public ListTypeOf<ListType, int32_t, TypeId::kList, false> {
 public:
  static constexpr const char* kName = "list";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.

 protected:
  /// Map reuses the list layout under its own id.
  ListType(TypeId id, FieldPtr value_field) : ListTypeOf(std::move(value_field)) { id_ = id; }
};
/// Lists with 64-bit offsets.
class ALKAID_EXPORT LargeListType final : public ListTypeOf<LargeListType, int64_t, TypeId::kLargeList, false> {
 public:
  static constexpr const char* kName = "large_list";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};
/// Lists as 32-bit (offset, size) pairs; lists may overlap or be out of order.
class ALKAID_EXPORT ListViewType final : public ListTypeOf<ListViewType, int32_t, TypeId::kListView, true> {
 public:
  static constexpr const char* kName = "list_view";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};
/// Lists as 64-bit (offset, size) pairs.
class ALKAID_EXPORT LargeListViewType final
    : public ListTypeOf<LargeListViewType, int64_t, TypeId::kLargeListView, true> {
 public:
  static constexpr const char* kName = "large_list_view";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};

/// map<key, item>: a list of non-null struct<key: K not null, value: V>.
///
/// Equality compares key and item types, item nullability and keys_sorted,
/// but none of the entries/key/value names (writers name them differently).
class ALKAID_EXPORT MapType final : public ListType {
 public:
  static constexpr TypeId type_id = TypeId::kMap;  ///< Compile-time id.
  /// A map with canonical names: entries "entries", key "key" (not null),
  /// item "value" (nullable).
  MapType(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
  /// A map from given key and item fields (wrapped in a non-null "entries"
  /// struct). Unchecked: `key_field` should be non-nullable.
  MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted = false);
  /// From an entries field that must be a non-null struct of two children with
  /// a non-null key; names are kept as given (non-canonical names round-trip).
  /// Invalid when those conditions do not hold.
  static Result<DataTypePtr> Make(FieldPtr entries, bool keys_sorted);

  /// The key field (first child of the entries struct).
  const FieldPtr& key_field() const { return value_type()->field(0); }
  /// The item field (second child of the entries struct).
  const FieldPtr& item_field() const { return value_type()->field(1); }
  /// The key type.
  const DataTypePtr& key_type() const { return key_field()->type(); }
  /// The item type.
  const DataTypePtr& item_type() const { return item_field()->type(); }
  /// Whether the writer promises keys sorted within each map (not checked).
  bool keys_sorted() const { return keys_sorted_; }
  /// "map".
  std::string name() const override { return "map"; }
  /// "map<key type, item type>", plus ", keys_sorted" when set.
  std::string ToString() const override;

 protected:
  /// Compares keys_sorted, key and item types, and item nullability.
  bool ParamsEqual(const DataType& other) const override;
  /// False: entry, key and value names are not compared.
  bool ChildNamesMatter() const override { return false; }

 private:
  MapType(FieldPtr entries, bool keys_sorted, int);
  bool keys_sorted_;
};

/// Lists that all have list_size() items; item i of list j is child slot
/// j * list_size() + i. Only a validity buffer of its own.
class ALKAID_EXPORT FixedSizeListType final : public BaseListType {
 public:
  static constexpr TypeId type_id = TypeId::kFixedSizeList;  ///< Compile-time id.
  /// Unchecked: `list_size` should be >= 0 (use Make on untrusted input).
  FixedSizeListType(FieldPtr value_field, int32_t list_size)
      : BaseListType(type_id, std::move(value_field)), list_size_(list_size) {}
  /// As above with a nullable item field named "item".
  FixedSizeListType(DataTypePtr value_type, int32_t list_size)
      : FixedSizeListType(std::make_shared<Field>("item", std::move(value_type)), list_size) {}
  /// Checked construction: Invalid when `list_size` is negative.
  static Result<DataTypePtr> Make(FieldPtr value_field, int32_t list_size);
  /// Items per list.
  int32_t list_size() const { return list_size_; }
  /// "fixed_size_list".
  std::string name() const override { return "fixed_size_list"; }
  /// "fixed_size_list<item field>[size]".
  std::string ToString() const override;
  /// Validity bitmap only; the items live in the child array.
  DataTypeLayout ComputeLayout() const override { return {{BufferSpec::Validity()}, false}; }

 protected:
  /// Compares list_size().
  bool ParamsEqual(const DataType& other) const override;

 private:
  int32_t list_size_;
};

/// A struct: named child fields whose arrays have the struct's length.
/// Child names need not be unique; the lookups below return the first match.
class ALKAID_EXPORT StructType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kStruct;  ///< Compile-time id.
  /// A struct of `fields` in order (may be empty).
  explicit StructType(FieldVector fields) : DataType(type_id) { children_ = std::move(fields); }
  /// Index of the first child with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  /// The first child with this name, or nullptr.
  FieldPtr GetFieldByName(std::string_view name) const;
  /// "struct".
  std::string name() const override { return "struct"; }
  /// "struct<field, field, ...>".
  std::string ToString() const override;
  /// Validity bitmap only; the values live in the children.
  DataTypeLayout ComputeLayout() const override { return {{BufferSpec::Validity()}, false}; }
};

/// Base of sparse and dense unions: each slot holds a value of one of the
/// children, chosen by an int8 type code in the types buffer. Unions have
/// no validity bitmap; nullness comes from the chosen child.
class ALKAID_EXPORT UnionType : public DataType {
 public:
  static constexpr int kMaxTypeCode = 127;  ///< Largest allowed type code.
  static constexpr int kInvalidChild = -1;  ///< child_index() result for an undeclared code.

  /// type_codes[i] is the id written in the types buffer for child i.
  const std::vector<int8_t>& type_codes() const { return type_codes_; }
  /// Child index for a type code, or kInvalidChild when the code is undeclared.
  int child_index(int8_t code) const {
    return code < 0 ? kInvalidChild : child_of_code_[static_cast<size_t>(code)];
  }
  /// The lookup table behind child_index(): 128 entries indexed by type code.
  const std::vector<int>& child_of_code() const { return child_of_code_; }
  /// Sparse or dense, from the id.
  UnionMode mode() const { return id_ == TypeId::kSparseUnion ? UnionMode::kSparse : UnionMode::kDense; }
  /// "sparse_union<field=code, ...>" or "dense_union<...>".
  std::string ToString() const override;
  /// Type ids (1 byte per slot), plus int32 offsets for dense unions.
  DataTypeLayout ComputeLayout() const override;

  /// Checks type codes (0..127, distinct, one per child) and builds the type.
  /// Empty `type_codes` means 0, 1, 2, ...; Invalid otherwise.
  static Result<DataTypePtr> Make(FieldVector fields, std::vector<int8_t> type_codes,
                                  UnionMode mode);

 protected:
  /// Unchecked; empty `type_codes` means 0, 1, 2, ...
  UnionType(TypeId id, FieldVector fields, std::vector<int8_t> type_codes);
  /// Compares the type codes.
  bool ParamsEqual(const DataType& other) const override;

 private:
  std::vector<int8_t> type_codes_;
  std::vector<int> child_of_code_;  // 128 entries
};

/// Union whose children all have the union's length; slot i of the union
/// is slot i of the child its type code selects.
class ALKAID_EXPORT SparseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kSparseUnion;  ///< Compile-time id.
  /// Unchecked (see UnionType::Make). Empty type_codes means 0, 1, 2, ...
  explicit SparseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  /// "sparse_union".
  std::string name() const override { return "sparse_union"; }
};

/// Union with an int32 offsets buffer: slot i is slot offsets[i] of the
/// child its type code selects.
class ALKAID_EXPORT DenseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kDenseUnion;  ///< Compile-time id.
  /// Unchecked (see UnionType::Make). Empty type_codes means 0, 1, 2, ...
  explicit DenseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  /// "dense_union".
  std::string name() const override { return "dense_union"; }
};

}  // namespace alkaid
