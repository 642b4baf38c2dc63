/// @file
/// ArrayBuilder, the base class of every builder, and MakeBuilder(), which makes
/// the right builder tree for any type. The concrete builders are in the other
/// headers of alkaid/builder/ (alkaid/builder.h includes them all).
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

class ArrayBuilder;
/// Builders are owned uniquely: by the caller, or by their parent builder.
using ArrayBuilderPtr = std::unique_ptr<ArrayBuilder>;

/// Base class of every builder: the slot count, the validity bitmap, the
/// child builders and the type-independent part of the interface.
///
/// A builder appends slots to the end only; Finish() hands everything out as an
/// ArrayData and leaves the builder empty and reusable. Errors come back as
/// Status (CapacityError when offsets or indices of the type would overflow,
/// Invalid for misuse such as a child with the wrong number of values,
/// OutOfMemory when the pool fails); after an error the builder may be
/// inconsistent and should be Reset() or dropped. Not thread-safe.
///
/// A builder of your own derives from this class, implements AppendNulls,
/// AppendEmptyValues and FinishInto, and overrides Resize and Reset when it
/// keeps per-slot buffers (BufferBuilder) of its own.
class ALKAID_EXPORT ArrayBuilder {
 public:
  /// Starts an empty builder of `type` allocating from `pool` (which must
  /// outlive the builder). Prefer MakeBuilder(), which also creates the children.
  ArrayBuilder(DataTypePtr type, MemoryPool* pool)
      : type_(std::move(type)), pool_(pool), validity_(pool) {}
  /// Frees everything appended and not yet finished, children included.
  virtual ~ArrayBuilder() = default;
  /// Builders own buffers and children and are not copyable.
  ArrayBuilder(const ArrayBuilder&) = delete;
  /// Not copy-assignable either.
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  /// The type of the array being built (the finished data carries it).
  const DataTypePtr& type() const { return type_; }
  /// The pool every buffer of this builder is allocated from.
  MemoryPool* pool() const { return pool_; }
  /// Slots appended so far (wrappers such as ExtensionBuilder report their
  /// inner builder's count).
  virtual int64_t length() const { return length_; }
  /// Null slots appended so far (0 for types without a validity bitmap).
  virtual int64_t null_count() const { return null_count_; }
  /// Slots that fit before the per-slot buffers grow again; see Reserve().
  int64_t capacity() const { return capacity_; }

  /// Makes room for `additional` more slots so Unsafe appends need no checks.
  /// Only the per-slot buffers grow (not value data or children), at least
  /// doubling; an OutOfMemory status when the pool fails.
  Status Reserve(int64_t additional) {
    int64_t needed = length_ + additional;
    if (needed <= capacity_) return Status::OK();
    int64_t doubled = capacity_ * 2;
    return Resize(needed > doubled ? needed : (doubled < 32 ? 32 : doubled));
  }

  /// Appends one null slot; see AppendNulls().
  virtual Status AppendNull() { return AppendNulls(1); }
  /// Appends `n` null slots. Nested builders also append whatever their
  /// children need to stay aligned (e.g. struct children get nulls too).
  virtual Status AppendNulls(int64_t n) = 0;
  /// A non-null default value (zero, empty string, empty list, struct of
  /// empty values, ...): what sparse unions put in their unselected children.
  virtual Status AppendEmptyValue() { return AppendEmptyValues(1); }
  /// Appends `n` non-null default values; see AppendEmptyValue().
  virtual Status AppendEmptyValues(int64_t n) = 0;

  /// Appends one value given as its raw bytes: the little-endian value for
  /// fixed-width types (one byte 0/1 for booleans), the bytes themselves for
  /// binary-like types. Dictionary and run-end encoded builders use this to
  /// memoize values of any primitive type. Other builders return TypeError.
  virtual Status AppendValueBytes(std::string_view bytes);

  /// Returns everything appended so far and resets the builder to empty.
  /// The builder is reset even when finishing fails. The data is not
  /// re-validated; builders produce valid data by construction.
  Result<ArrayDataPtr> Finish();
  /// The same as a typed array view (MakeArray of the data).
  Result<ArrayPtr> FinishArray();
  /// Arrow C++ style: stores the finished array in *out, either as the generic
  /// ArrayPtr or as its typed class (std::shared_ptr<StringArray>, ...); a
  /// class that does not match the type is a TypeError (the builder is reset
  /// either way).
  template <typename ArrayT>
    requires std::is_base_of_v<Array, ArrayT>
  Status Finish(std::shared_ptr<ArrayT>* out) {
    ALKAID_ASSIGN_OR_RAISE(ArrayPtr array, FinishArray());
    if constexpr (std::is_same_v<ArrayT, Array>) {
      *out = std::move(array);
    } else {
      auto typed = std::dynamic_pointer_cast<ArrayT>(std::move(array));
      if (typed == nullptr) {
        return Status::TypeError("the finished ", type_->ToString(),
                                 " array is not of the requested array class");
      }
      *out = std::move(typed);
    }
    return Status::OK();
  }
  /// Drops everything appended (children too).
  /// Frees the buffers and sets length, null count and capacity to zero.
  virtual void Reset();

  /// Number of child builders (0 for flat types).
  int num_children() const { return static_cast<int>(children_.size()); }
  /// Child builder `i`, owned by this builder (unchecked: 0 <= i < num_children()).
  ArrayBuilder* child(int i) const { return children_[static_cast<size_t>(i)].get(); }

  /// The check of every AppendValues(values, is_valid) overload, made before
  /// anything is appended: Invalid unless the validity vector has one entry
  /// (`validity`) per value (`values`).
  static Status CheckValidityLength(size_t values, size_t validity);

 protected:
  /// Grows every per-slot buffer to hold `capacity` slots; overrides must call
  /// the base version, which grows the validity bitmap and sets capacity_.
  virtual Status Resize(int64_t capacity);
  /// Fills out->buffers / child_data / dictionary; type, length and
  /// null_count are already set.
  virtual Status FinishInto(ArrayData* out) = 0;

  /// Marks the next slot valid; capacity must have been reserved.
  void UnsafeAppendValid() {
    if (validity_.allocated()) bit_util::SetBit(validity_.mutable_data(), length_);
    ++length_;
  }
  /// Marks the next `n` slots valid; capacity must have been reserved.
  void UnsafeAppendValid(int64_t n) {
    if (validity_.allocated() && n > 0) bit_util::SetBitsTo(validity_.mutable_data(), length_, n, true);
    length_ += n;
  }
  /// Marks the next n slots null (allocating the bitmap the first time);
  /// capacity must have been reserved.
  /// OutOfMemory only when the bitmap has to be allocated.
  Status AppendNullBits(int64_t n) {
    if (!validity_.allocated()) ALKAID_RETURN_NOT_OK(MaterializeValidity());
    length_ += n;  // the bits are already clear
    null_count_ += n;
    return Status::OK();
  }
  /// Marks the next slot valid or null; capacity must have been reserved.
  Status AppendValidity(bool valid) {
    if (valid) {
      UnsafeAppendValid();
      return Status::OK();
    }
    return AppendNullBits(1);
  }
  /// Marks the next `n` slots all valid or all null; capacity must have been
  /// reserved.
  Status AppendValidity(int64_t n, bool valid) {
    if (valid) {
      UnsafeAppendValid(n);
      return Status::OK();
    }
    return AppendNullBits(n);
  }
  /// Reserves and appends `n` slots, all valid or all null, whose bytes in the
  /// per-slot buffers stay zero (the zeroed capacity): zero values, empty
  /// views, index 0. What AppendNulls and AppendEmptyValues of flat builders do.
  Status AppendZeroedSlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    return AppendValidity(n, valid);
  }
  /// The validity buffer for the finished array: nullptr when nothing is null.
  /// Resets the bitmap builder either way.
  Result<BufferPtr> FinishValidity();
  /// Allocates the validity bitmap (sized for capacity()) and sets the bits of
  /// every slot appended so far; called when the first null arrives.
  Status MaterializeValidity();

  DataTypePtr type_;  ///< Type of the array being built.
  MemoryPool* pool_;  ///< Allocator for every buffer; not owned.
  int64_t length_ = 0;  ///< Slots appended so far.
  int64_t null_count_ = 0;  ///< Null slots appended so far.
  int64_t capacity_ = 0;  ///< Slots the per-slot buffers can hold.
  BufferBuilder validity_;  ///< Validity bitmap; unallocated until the first null.
  std::vector<ArrayBuilderPtr> children_;  ///< Child builders, in the order of the type's children.
};

/// Creates a builder (and recursively its child builders) for `type`.
/// @param type Any type, nested and extension types included.
/// @param pool Allocator for every buffer of the tree; must outlive it.
/// @return The builder; Invalid for a null type, TypeError for a dictionary
///         or run-end encoded type with an unusable index or run-end type.
ALKAID_EXPORT Result<ArrayBuilderPtr> MakeBuilder(const DataTypePtr& type, MemoryPool* pool = default_memory_pool());

/// MakeBuilder, checked down-cast to the concrete builder class.
/// TypeError when the builder MakeBuilder() picks for `type` is not a BuilderT.
template <typename BuilderT>
Result<std::unique_ptr<BuilderT>> MakeBuilderAs(const DataTypePtr& type,
                                                MemoryPool* pool = default_memory_pool()) {
  ALKAID_ASSIGN_OR_RAISE(ArrayBuilderPtr generic, MakeBuilder(type, pool));
  auto* typed = dynamic_cast<BuilderT*>(generic.get());
  if (typed == nullptr) {
    return Status::TypeError("the builder for ", type->ToString(),
                             " is not of the requested builder class");
  }
  generic.release();
  return std::unique_ptr<BuilderT>(typed);
}

}  // namespace alkaid
