/// @file
/// Logical equality of arrays: masked-out slots are ignored, slices compare by
/// value, and layouts that encode the same values (e.g. different offsets or
/// view buffers) are equal.
///
/// Rules per type:
///  - types must be equal (DataType::Equals; field metadata only with
///    check_metadata), lengths equal, null positions equal;
///  - values are compared in non-null slots only (whatever lies under a null
///    slot, including the children of a null struct or list slot, is ignored);
///  - floats are exact by default (+0 == -0, NaN != NaN); see EqualOptions;
///    half floats compare by value;
///  - list views, dense unions, binary views: by the values they reference;
///  - unions: same type code per slot, then the selected child values;
///  - dictionary arrays: by decoded value; a slot is null when its index is
///    null or the dictionary value it points to is null;
///  - run-end encoded arrays: by decoded value (run splits do not matter);
///  - extension arrays: extension types equal, then storage values.
/// Any input is safe: both arrays are fully validated (alkaid/validate.h)
/// before any value is read. An invalid array is equal to nothing (not even to
/// itself), and ArrayDiff then says "left array is invalid: <why>" (or right).
#pragma once

#include <string>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// How ArrayEquals, ArrayDiff and the Equals methods compare values. A plain
/// value; the defaults are exact comparison.
struct ALKAID_EXPORT EqualOptions {
  /// Treat NaN as equal to NaN.
  bool nans_equal = false;
  /// Compare floating point values with an absolute tolerance.
  bool use_atol = false;
  /// The tolerance used when use_atol is set: |left - right| <= atol counts as
  /// equal.
  double atol = 1e-5;
  /// Also compare field metadata of nested types.
  bool check_metadata = false;

  /// Exact comparison, NaN unequal to NaN, metadata ignored.
  static EqualOptions Defaults() { return {}; }
  /// Sets nans_equal; returns *this for chaining.
  EqualOptions& with_nans_equal(bool v = true) { nans_equal = v; return *this; }
  /// Turns on the absolute tolerance `v`; returns *this for chaining.
  EqualOptions& with_atol(double v) { use_atol = true; atol = v; return *this; }
};

/// True when `left` and `right` hold the same logical values by the rules at
/// the top of this file; false for an invalid array. Only reads
/// the arrays, so it may run on several threads at once.
ALKAID_EXPORT bool ArrayEquals(const ArrayData& left, const ArrayData& right,
                 const EqualOptions& options = EqualOptions::Defaults());

/// Like ArrayEquals, but on a difference returns a description of the first
/// one (lowest top-level slot first); empty when equal. Forms:
///   "type mismatch: int32 vs int64"
///   "length 5 vs 6"
///   "at [3]: 7 vs 8"                  values as rendered by FormatValue
///   "at [2].b[1]: null vs 4"          path: slot, struct field, list element
///   "at [1]: [1, 2] vs [1] (length 2 vs 1)"
///   "at [4]: 0: 5 vs 1: \"x\""        union slots show "type code: value"
ALKAID_EXPORT std::string ArrayDiff(const ArrayData& left, const ArrayData& right,
                      const EqualOptions& options = EqualOptions::Defaults());

}  // namespace alkaid
