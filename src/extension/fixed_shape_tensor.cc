#include "alkaid/extension/fixed_shape_tensor.h"

#include <limits>

#include "extension_internal.h"
#include "extension_json.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kFixedShapeTensorName;

// Product of the dims, or an error when it does not fit a FixedSizeList size.
Result<int32_t> ElementCount(const std::vector<int64_t>& shape) {
  int64_t product = 1;
  for (int64_t dim : shape) {
    if (dim != 0 && product > std::numeric_limits<int32_t>::max() / dim) {
      return Status::CapacityError(kExt, ": shape has more than 2^31-1 elements");
    }
    product *= dim;
  }
  return static_cast<int32_t>(product);
}

Status CheckParameters(const std::vector<int64_t>& shape, const std::vector<int64_t>& permutation,
                       const std::vector<std::string>& dim_names) {
  ALKAID_RETURN_NOT_OK(ei::CheckShape(kExt, shape));
  auto ndim = static_cast<int64_t>(shape.size());
  ALKAID_RETURN_NOT_OK(ei::CheckPermutation(kExt, permutation, ndim));
  return ei::CheckDimNames(kExt, dim_names, ndim);
}

}  // namespace

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape, int64_t byte_width) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = byte_width;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

FixedShapeTensorType::FixedShapeTensorType(DataTypePtr storage, std::vector<int64_t> shape,
                                           std::vector<int64_t> permutation,
                                           std::vector<std::string> dim_names)
    : ExtensionType(std::move(storage)),
      shape_(std::move(shape)),
      permutation_(std::move(permutation)),
      dim_names_(std::move(dim_names)) {}

Result<std::shared_ptr<FixedShapeTensorType>> FixedShapeTensorType::Make(
    DataTypePtr value_type, std::vector<int64_t> shape, std::vector<int64_t> permutation,
    std::vector<std::string> dim_names) {
  if (value_type == nullptr) return Status::Invalid(kExt, ": value type is missing");
  ALKAID_RETURN_NOT_OK(CheckParameters(shape, permutation, dim_names));
  ALKAID_ASSIGN_OR_RAISE(int32_t list_size, ElementCount(shape));
  return std::shared_ptr<FixedShapeTensorType>(
      new FixedShapeTensorType(fixed_size_list(std::move(value_type), list_size), std::move(shape),
                               std::move(permutation), std::move(dim_names)));
}

Result<std::shared_ptr<FixedShapeTensorType>> FixedShapeTensorType::MakeFromStorage(
    DataTypePtr storage_type, std::vector<int64_t> shape, std::vector<int64_t> permutation,
    std::vector<std::string> dim_names) {
  ALKAID_RETURN_NOT_OK(
      ei::ExpectStorageId(kExt, storage_type, TypeId::kFixedSizeList, "a fixed_size_list"));
  ALKAID_RETURN_NOT_OK(CheckParameters(shape, permutation, dim_names));
  ALKAID_ASSIGN_OR_RAISE(int32_t expected, ElementCount(shape));
  int32_t list_size = checked_cast<FixedSizeListType>(*storage_type).list_size();
  if (list_size != expected) {
    return Status::Invalid(kExt, ": storage list size ", list_size,
                           " is not the product of the shape (", expected, ")");
  }
  return std::shared_ptr<FixedShapeTensorType>(new FixedShapeTensorType(
      std::move(storage_type), std::move(shape), std::move(permutation), std::move(dim_names)));
}

const DataTypePtr& FixedShapeTensorType::value_type() const {
  return checked_cast<FixedSizeListType>(*storage_type()).value_type();
}

int32_t FixedShapeTensorType::list_size() const {
  return checked_cast<FixedSizeListType>(*storage_type()).list_size();
}

std::vector<int64_t> FixedShapeTensorType::logical_shape() const {
  return ei::Permute(shape_, permutation_);
}

std::vector<int64_t> FixedShapeTensorType::strides() const {
  int64_t byte_width = ei::ElementByteWidth(*value_type());
  if (byte_width <= 0) return {};
  return RowMajorStrides(shape_, byte_width);
}

std::string FixedShapeTensorType::Serialize() const {
  ei::OrderedJson out = ei::OrderedJson::object();
  out["shape"] = shape_;
  if (!dim_names_.empty()) out["dim_names"] = dim_names_;
  if (!permutation_.empty()) out["permutation"] = permutation_;
  return ei::Dump(out);
}

Result<DataTypePtr> FixedShapeTensorType::Deserialize(DataTypePtr storage_type,
                                                      const std::string& serialized) const {
  ALKAID_ASSIGN_OR_RAISE(ei::Json obj, ei::ParseObject(kExt, serialized));
  ALKAID_ASSIGN_OR_RAISE(auto shape, ei::GetIntArray(kExt, obj, "shape", /*non_negative=*/true));
  if (!shape) return Status::Invalid(kExt, " metadata: 'shape' is required");
  ALKAID_ASSIGN_OR_RAISE(auto permutation,
                         ei::GetIntArray(kExt, obj, "permutation", /*non_negative=*/true));
  ALKAID_ASSIGN_OR_RAISE(auto dim_names, ei::GetStringArray(kExt, obj, "dim_names"));
  ALKAID_ASSIGN_OR_RAISE(auto type,
                         MakeFromStorage(std::move(storage_type), std::move(*shape),
                                         permutation.value_or(std::vector<int64_t>{}),
                                         dim_names.value_or(std::vector<std::string>{})));
  return DataTypePtr(std::move(type));
}

bool FixedShapeTensorType::ExtensionEquals(const ExtensionType& other) const {
  if (other.extension_name() != kFixedShapeTensorName) return false;
  const auto* o = dynamic_cast<const FixedShapeTensorType*>(&other);
  if (o == nullptr) return Serialize() == other.Serialize();
  return shape_ == o->shape_ && dim_names_ == o->dim_names_ &&
         ei::SamePermutation(permutation_, o->permutation_);
}

// ---------------------------------------------------------------------------
// Array access

Result<FixedShapeTensorArray> FixedShapeTensorArray::Make(ArrayDataPtr data) {
  ALKAID_ASSIGN_OR_RAISE(auto type, ei::ArrayTypeOf<FixedShapeTensorType>(kExt, data, 1));
  return FixedShapeTensorArray(std::move(data), std::move(type));
}

Result<TensorView> FixedShapeTensorArray::GetTensor(int64_t i) const {
  if (i < 0 || i >= data_->length) {
    return Status::IndexError(kExt, ": slot ", i, " is outside an array of length ", data_->length);
  }
  TensorView view;
  view.value_type = type_->value_type();
  view.num_elements = type_->list_size();
  view.element_offset = (data_->offset + i) * view.num_elements;
  view.shape = type_->shape();
  view.strides = type_->strides();
  view.logical_shape = type_->logical_shape();
  if (!view.strides.empty()) view.logical_strides = ei::Permute(view.strides, type_->permutation());
  const ArrayData& child = *data_->child_data[0];
  if (!view.strides.empty() && child.buffers.size() > 1 && child.buffers[1] != nullptr) {
    int64_t byte_width = ei::ElementByteWidth(*view.value_type);
    view.data = child.buffers[1]->data() + (child.offset + view.element_offset) * byte_width;
  }
  return view;
}

}  // namespace alkaid
