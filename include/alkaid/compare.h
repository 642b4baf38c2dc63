// Logical equality of arrays: masked-out slots are ignored, slices compare by
// value, and layouts that encode the same values (e.g. different offsets or
// view buffers) are equal.
#pragma once

#include <string>

#include "alkaid/array_data.h"

namespace alkaid {

struct EqualOptions {
  // Treat NaN as equal to NaN.
  bool nans_equal = false;
  // Compare floating point values with an absolute tolerance.
  bool use_atol = false;
  double atol = 1e-5;
  // Also compare field metadata of nested types.
  bool check_metadata = false;

  static EqualOptions Defaults() { return {}; }
  EqualOptions& with_nans_equal(bool v = true) { nans_equal = v; return *this; }
  EqualOptions& with_atol(double v) { use_atol = true; atol = v; return *this; }
};

bool ArrayEquals(const ArrayData& left, const ArrayData& right,
                 const EqualOptions& options = EqualOptions::Defaults());

// Like ArrayEquals, but on a difference returns a description of the first one
// with its path, e.g. "at [3].b[1]: 5 != 7"; empty when equal.
std::string ArrayDiff(const ArrayData& left, const ArrayData& right,
                      const EqualOptions& options = EqualOptions::Defaults());

}  // namespace alkaid
