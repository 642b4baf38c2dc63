/// @file
/// DataType, the base class of every data type, and checked_cast to its
/// concrete classes (alkaid/type/primitive.h, binary.h, nested.h, encoded.h,
/// extension.h).
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
/// (The only internal mutation, the cached layout, is published atomically.)
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "alkaid/status.h"
#include "alkaid/type/layout.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Base of every Arrow data type: an id, child fields for nested types, and
/// the type's parameters in the concrete subclass.
///
/// Types are immutable after construction and shared through DataTypePtr;
/// every const member may be called from several threads at once. Not
/// copyable: compare with Equals(), share with shared_ptr. To act on the
/// concrete class, use VisitTypeInline (alkaid/visit_type.h) or
/// checked_cast after testing id().
class ALKAID_EXPORT DataType : public std::enable_shared_from_this<DataType> {
 public:
  /// Sets the id; subclasses fill in children_ and their own parameters.
  explicit DataType(TypeId id) : id_(id) {}
  /// Frees the cached layout.
  virtual ~DataType();
  DataType(const DataType&) = delete;             ///< Not copyable; share the pointer instead.
  DataType& operator=(const DataType&) = delete;  ///< Not assignable; types are immutable.

  /// Which kind of type this is; determines the concrete class.
  TypeId id() const { return id_; }
  /// Child fields of nested types (list item, struct members, union members,
  /// map entries, run_ends + values); empty for other types.
  const FieldVector& fields() const { return children_; }
  /// Number of child fields (0 for non-nested types).
  int num_fields() const { return static_cast<int>(children_.size()); }
  /// Child field `i`. Precondition: 0 <= i < num_fields() (not checked).
  const FieldPtr& field(int i) const { return children_[static_cast<size_t>(i)]; }

  /// Short lower-case name of the kind of type: "int32", "list", "timestamp".
  virtual std::string name() const = 0;
  /// Full notation with parameters: "timestamp[ms, tz=UTC]", "list<item: int32>".
  virtual std::string ToString() const = 0;
  /// The buffers of this type's arrays. Computed once per type instance:
  /// readers and validators ask for it for every array they touch.
  /// After the first call this is one acquire load (no call_once round trip).
  /// Safe to call from several threads; the reference lives as long as the type.
  const DataTypeLayout& layout() const {
    const DataTypeLayout* cached = layout_.load(std::memory_order_acquire);
    return cached != nullptr ? *cached : CacheLayout();
  }

  /// Structural equality. Names of struct/union/map children are compared;
  /// the item name of list-like types is not (conventions differ between
  /// implementations). Child nullability is compared; field metadata is
  /// compared only when `check_metadata` is true.
  bool Equals(const DataType& other, bool check_metadata = false) const;
  /// As Equals(const DataType&, bool); false when `other` is null.
  bool Equals(const DataTypePtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }

  /// Bits per slot of the main values buffer for fixed-width types, else -1.
  /// Booleans report 1, dictionaries the width of their index type,
  /// extension types that of their storage.
  virtual int bit_width() const { return -1; }
  /// bit_width() in whole bytes; -1 for types that are not fixed-width.
  /// Note that booleans (1 bit) report 0.
  int byte_width() const { int b = bit_width(); return b > 0 ? b / 8 : -1; }

  /// @name Classification helpers
  /// Predicates on id(); none of them looks through dictionary or extension types.
  ///@{

  /// Any of the eight signed or unsigned integer types.
  bool is_integer() const;
  /// int8, int16, int32 or int64.
  bool is_signed_integer() const;
  /// halffloat, float or double.
  bool is_floating() const;
  /// Any of decimal32, decimal64, decimal128, decimal256.
  bool is_decimal() const;
  /// Types with child fields, plus struct (which may have none).
  bool is_nested() const { return !children_.empty() || id_ == TypeId::kStruct; }
  /// Sparse or dense union.
  bool is_union() const { return id_ == TypeId::kSparseUnion || id_ == TypeId::kDenseUnion; }
  /// Offset-based byte strings: binary, utf8 and their large forms (not views).
  bool is_binary_like() const;
  /// binary_view or utf8_view.
  bool is_view() const { return id_ == TypeId::kBinaryView || id_ == TypeId::kStringView; }
  /// Types whose values must be valid UTF-8: utf8, large_utf8, utf8_view.
  bool is_utf8() const {
    return id_ == TypeId::kString || id_ == TypeId::kLargeString || id_ == TypeId::kStringView;
  }
  ///@}

 protected:
  /// Parameter comparison beyond id and children; `other` has the same id.
  virtual bool ParamsEqual(const DataType& other) const {
    (void)other;
    return true;
  }
  /// Whether child names take part in equality.
  virtual bool ChildNamesMatter() const { return true; }
  /// Builds the layout; called at most a few times per instance (see layout()).
  virtual DataTypeLayout ComputeLayout() const = 0;

  TypeId id_;            ///< The type id; set once by the constructor.
  FieldVector children_;  ///< Child fields; filled by subclass constructors, then never changed.

 private:
  const DataTypeLayout& CacheLayout() const;

  // Owned; published once (concurrent first callers race, one wins).
  mutable std::atomic<const DataTypeLayout*> layout_{nullptr};
};

/// Casting helper for code that has already checked the id.
/// A static_cast: undefined behaviour when `type` is not a `T`.
template <typename T>
const T& checked_cast(const DataType& type) {
  return static_cast<const T&>(type);
}

}  // namespace alkaid
