// arrow.fixed_shape_tensor: every slot holds a tensor of one fixed shape,
// stored row-major in a FixedSizeList<value_type>[product(shape)].
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kFixedShapeTensorName = "arrow.fixed_shape_tensor";

class ALKAID_EXPORT FixedShapeTensorType final : public ExtensionType {
 public:
  // Checks every parameter: shape dims >= 0 with a product that fits a
  // FixedSizeList size, dim_names empty or one per dimension, permutation
  // empty or a permutation of 0..ndim-1.
  static Result<std::shared_ptr<FixedShapeTensorType>> Make(
      DataTypePtr value_type, std::vector<int64_t> shape, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {});
  // Same checks, plus the storage must be a FixedSizeList whose size is the
  // product of `shape`.
  static Result<std::shared_ptr<FixedShapeTensorType>> MakeFromStorage(
      DataTypePtr storage_type, std::vector<int64_t> shape, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {});

  std::string extension_name() const override { return kFixedShapeTensorName; }
  // {"shape":[...]} plus "dim_names" and "permutation" when set.
  std::string Serialize() const override;
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

  const DataTypePtr& value_type() const;
  int32_t list_size() const;
  int ndim() const { return static_cast<int>(shape_.size()); }
  // Physical (row-major) shape.
  const std::vector<int64_t>& shape() const { return shape_; }
  // Empty when not given.
  const std::vector<int64_t>& permutation() const { return permutation_; }
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  // Logical dimension i is physical dimension permutation[i].
  std::vector<int64_t> logical_shape() const;
  // Row-major strides in bytes of the physical layout; empty when the value
  // type is not a whole number of bytes wide (e.g. bool, strings).
  std::vector<int64_t> strides() const;

 private:
  FixedShapeTensorType(DataTypePtr storage, std::vector<int64_t> shape,
                       std::vector<int64_t> permutation, std::vector<std::string> dim_names);

  std::vector<int64_t> shape_;
  std::vector<int64_t> permutation_;
  std::vector<std::string> dim_names_;
};

// One slot of a fixed shape tensor array seen as a tensor.
struct ALKAID_EXPORT TensorView {
  DataTypePtr value_type;
  // First element of the tensor as an index into the storage child array
  // (the child's own offset not included).
  int64_t element_offset = 0;
  int64_t num_elements = 0;
  // Address of the first element for fixed-width value types, else nullptr.
  const uint8_t* data = nullptr;
  std::vector<int64_t> shape;    // physical
  std::vector<int64_t> strides;  // physical, bytes; empty when not byte addressable
  std::vector<int64_t> logical_shape;
  std::vector<int64_t> logical_strides;
};

// Read access to an array whose type is FixedShapeTensorType.
class ALKAID_EXPORT FixedShapeTensorArray {
 public:
  // Fails unless data's type is arrow.fixed_shape_tensor with FixedSizeList storage.
  static Result<FixedShapeTensorArray> Make(ArrayDataPtr data);

  const FixedShapeTensorType& tensor_type() const { return *type_; }
  int64_t length() const { return data_->length; }
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  // The tensor in slot i (0 <= i < length).
  Result<TensorView> GetTensor(int64_t i) const;

 private:
  FixedShapeTensorArray(ArrayDataPtr data, std::shared_ptr<const FixedShapeTensorType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const FixedShapeTensorType> type_;
};

// Row-major strides in bytes for a shape and element width.
ALKAID_EXPORT std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape, int64_t byte_width);

}  // namespace alkaid
