/// @file
/// The encoded types: dictionary (indices into a dictionary of values) and
/// run-end encoded (run ends plus one value per run). Functions that encode
/// arrays this way are in alkaid/encode.h.
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
#pragma once

#include <memory>
#include <string>

#include "alkaid/status.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/primitive.h"
#include "alkaid/type/schema.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Dictionary encoding: the array stores integer indices; the values live in
/// a separate dictionary array of value_type(). Arrays have the layout of
/// the index type.
class ALKAID_EXPORT DictionaryType final : public FixedWidthType {
 public:
  static constexpr TypeId type_id = TypeId::kDictionary;  ///< Compile-time id.
  /// Unchecked: `index_type` should be an integer type (use Make on
  /// untrusted input).
  DictionaryType(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false)
      : FixedWidthType(type_id), index_type_(std::move(index_type)),
        value_type_(std::move(value_type)), ordered_(ordered) {}
  /// Index type must be an integer type; TypeError otherwise.
  static Result<DataTypePtr> Make(DataTypePtr index_type, DataTypePtr value_type,
                                  bool ordered = false);
  /// Integer type of the indices.
  const DataTypePtr& index_type() const { return index_type_; }
  /// Type of the dictionary values.
  const DataTypePtr& value_type() const { return value_type_; }
  /// Whether the order of the dictionary values is meaningful (for sorting).
  bool ordered() const { return ordered_; }
  /// Width of the index type.
  int bit_width() const override { return index_type_->bit_width(); }
  /// "dictionary".
  std::string name() const override { return "dictionary"; }
  /// "dictionary<values=..., indices=...>", plus ", ordered" when set.
  std::string ToString() const override;

 protected:
  /// Compares index type, value type and ordered().
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr index_type_;
  DataTypePtr value_type_;
  bool ordered_;
};

/// Run-end encoding: two children, "run_ends" (non-null int16/32/64, strictly
/// increasing logical end positions) and "values" (one value per run). No
/// buffers of its own, not even validity.
class ALKAID_EXPORT RunEndEncodedType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kRunEndEncoded;  ///< Compile-time id.
  /// Unchecked: `run_end_type` should be int16, int32 or int64. Children are
  /// named "run_ends" (not null) and "values" (nullable).
  RunEndEncodedType(DataTypePtr run_end_type, DataTypePtr value_type);
  /// Run end type must be int16, int32 or int64 (TypeError otherwise).
  static Result<DataTypePtr> Make(DataTypePtr run_end_type, DataTypePtr value_type);
  /// From given child fields, names kept: TypeError for a run end type other
  /// than int16/32/64, Invalid when `run_ends_field` is nullable.
  static Result<DataTypePtr> Make(FieldPtr run_ends_field, FieldPtr values_field);
  /// The rule for run end types, stated once (by VisitRunEndType in
  /// visit_width.h): OK for int16, int32 and int64, TypeError naming `type`
  /// for anything else.
  static Status CheckRunEndType(const DataType& type);
  /// Type of the run ends (int16, int32 or int64).
  const DataTypePtr& run_end_type() const { return children_[0]->type(); }
  /// Type of the run values.
  const DataTypePtr& value_type() const { return children_[1]->type(); }
  /// "run_end_encoded".
  std::string name() const override { return "run_end_encoded"; }
  /// "run_end_encoded<run_ends: ..., values: ...>".
  std::string ToString() const override;
  /// No buffers: everything lives in the two children.
  DataTypeLayout ComputeLayout() const override { return {}; }

 protected:
  /// False: child names are not compared.
  bool ChildNamesMatter() const override { return false; }

 private:
  RunEndEncodedType(FieldPtr run_ends, FieldPtr values, int);
};

}  // namespace alkaid
