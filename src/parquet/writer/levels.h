// Definition and repetition levels of Arrow arrays: how the writer turns one Arrow column
// (nested or not) into the Parquet leaf columns it stores. Internal to the parquet module.
//
// The Parquet shape of an Arrow field follows the usual Arrow mapping, and these rules are
// what the levels count:
//   - a nullable field is OPTIONAL (one definition level), a non-nullable one REQUIRED;
//   - struct is a group; its children are the leaves below it, in order;
//   - list, large list, list view, large list view, fixed-size list and map are the
//     three-level LIST/MAP form: the (optional or required) outer group, a REPEATED group
//     (one definition and one repetition level), and the element (or the key_value struct);
//   - dictionary arrays are leaves whose values are the dictionary entries their indices
//     select; run-end encoded arrays are expanded to their plain form; extension arrays
//     are their storage; the null type is an OPTIONAL leaf whose every slot is null.
// Unions have no Parquet form (NotImplemented).
//
// For each leaf, ComputeLeafLevels yields the levels of every entry and the elements of the
// leaf array those entries stand for, as ranges in order: an entry whose definition level is
// at least `slot_def` has a slot in the leaf array (null or not), the next one in the ranges;
// an entry at max_def is a present value. List views may select overlapping elements, and
// then the ranges repeat them.
//
// Pure functions over immutable arrays: any number of threads may call them at once.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// Elements [begin, end) of a leaf array (logical indices, before its offset).
struct ElementRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  bool operator==(const ElementRange&) const = default;
};

/// The levels and values of one Parquet leaf column for one Arrow array.
struct ALKAID_EXPORT LeafLevels {
  /// The leaf's values: the Arrow leaf array with extension types unwrapped and run-end
  /// encoding expanded (a dictionary array stays a dictionary array).
  ArrayDataPtr leaf;
  /// Whether a slot of `leaf` may be null (its field is nullable, or it is of the null type).
  bool leaf_nullable = false;
  /// Validity of `leaf` when it differs from leaf's own bitmap (a dictionary whose entries
  /// include nulls): bit i is slot i of the leaf (logical index, offset already applied).
  /// Null when leaf's own bitmap (or none) applies.
  BufferPtr validity_override;

  int16_t max_def = 0;   ///< highest definition level of the leaf column
  int16_t max_rep = 0;   ///< highest repetition level of the leaf column
  int16_t slot_def = 0;  ///< entries at or above this level have a slot in `leaf`
  int64_t num_entries = 0;  ///< levels in the column (rows when max_rep == 0)
  /// One per entry; empty when max_def == 0 (every entry is then a present value).
  std::vector<int16_t> def_levels;
  /// One per entry; empty when max_rep == 0 (every entry then starts a row).
  std::vector<int16_t> rep_levels;
  /// The slots of `leaf` the entries reach, in entry order; adjacent ranges are merged.
  std::vector<ElementRange> ranges;

  /// The validity bitmap of the leaf's slots and its bit offset for logical index 0 (null
  /// bitmap: every slot valid).
  const uint8_t* validity(int64_t* bit_offset) const;
};

/// How deep a type may nest (groups and lists from the column down to a leaf). Levels are
/// 16-bit in the writer; far fewer suffice for any real schema, and the walk recurses once
/// per level.
inline constexpr int kMaxNestingDepth = 200;

/// The leaf columns of one Arrow column (`field` describes `array`; its nullability decides
/// OPTIONAL or REQUIRED), depth-first in Parquet schema order. Fails with Invalid when a
/// non-nullable field holds a null that would be written (a null below a null parent is not
/// written and is fine), NotImplemented for unions and dictionaries of nested types.
ALKAID_EXPORT Result<std::vector<LeafLevels>> ComputeLeafLevels(
    const Field& field, const ArrayData& array, MemoryPool* pool = default_memory_pool());

/// The number of Parquet leaf columns `type` becomes (0 for a union or an empty struct,
/// which cannot be written).
ALKAID_EXPORT int CountLeaves(const DataType& type);

/// The plain form of a run-end encoded array whose values are fixed-width, boolean or
/// binary-like (offsets or views): one slot per logical element.
Result<ArrayDataPtr> ExpandRunEndEncoded(const ArrayData& array, MemoryPool* pool);

}  // namespace alkaid::parquet::internal
