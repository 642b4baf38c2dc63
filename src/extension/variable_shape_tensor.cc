#include "alkaid/extension/variable_shape_tensor.h"

#include <limits>
#include <sstream>

#include "alkaid/bitmap.h"
#include "alkaid/extension/fixed_shape_tensor.h"
#include "extension_internal.h"
#include "extension_json.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kVariableShapeTensorName;

Status CheckUniformShape(const std::vector<std::optional<int64_t>>& uniform_shape, int64_t ndim) {
  if (uniform_shape.empty()) return Status::OK();
  if (static_cast<int64_t>(uniform_shape.size()) != ndim) {
    return Status::Invalid(kExt, ": uniform_shape has ", uniform_shape.size(),
                           " entries but the tensor has ", ndim, " dimensions");
  }
  for (size_t i = 0; i < uniform_shape.size(); ++i) {
    const auto& dim = uniform_shape[i];
    if (dim && (*dim < 0 || *dim > std::numeric_limits<int32_t>::max())) {
      return Status::Invalid(kExt, ": uniform_shape[", i, "] is ", *dim,
                             "; sizes must be null or an int32 >= 0");
    }
  }
  return Status::OK();
}

Status CheckParameters(int64_t ndim, const std::vector<int64_t>& permutation,
                       const std::vector<std::string>& dim_names,
                       const std::vector<std::optional<int64_t>>& uniform_shape) {
  ALKAID_RETURN_NOT_OK(ei::CheckPermutation(kExt, permutation, ndim));
  ALKAID_RETURN_NOT_OK(ei::CheckDimNames(kExt, dim_names, ndim));
  return CheckUniformShape(uniform_shape, ndim);
}

// Finds the "data" and "shape" fields and returns ndim.
Status InspectStorage(const DataTypePtr& storage, int* data_index, int* shape_index,
                      int32_t* ndim) {
  ALKAID_RETURN_NOT_OK(ei::ExpectStorageId(kExt, storage, TypeId::kStruct,
                                           "struct<data: list, shape: fixed_size_list<int32>>"));
  const auto& st = checked_cast<StructType>(*storage);
  *data_index = st.GetFieldIndex("data");
  *shape_index = st.GetFieldIndex("shape");
  if (st.num_fields() != 2 || *data_index < 0 || *shape_index < 0) {
    return Status::Invalid(kExt,
                           ": storage must be a struct of exactly the fields 'data' and "
                           "'shape', got ",
                           storage->ToString());
  }
  const DataTypePtr& data = st.field(*data_index)->type();
  if (data->id() != TypeId::kList) {
    return Status::Invalid(kExt, ": storage field 'data' must be a list, got ", data->ToString());
  }
  const DataTypePtr& shape = st.field(*shape_index)->type();
  if (shape->id() != TypeId::kFixedSizeList ||
      checked_cast<FixedSizeListType>(*shape).value_type()->id() != TypeId::kInt32) {
    return Status::Invalid(kExt, ": storage field 'shape' must be fixed_size_list<int32>, got ",
                           shape->ToString());
  }
  *ndim = checked_cast<FixedSizeListType>(*shape).list_size();
  return Status::OK();
}

Result<std::vector<std::optional<int64_t>>> ParseUniformShape(const ei::Json& obj) {
  std::vector<std::optional<int64_t>> out;
  auto it = obj.find("uniform_shape");
  if (it == obj.end()) return out;
  auto fail = [] {
    return Status::Invalid(kExt,
                           " metadata: 'uniform_shape' must be an array of non-negative "
                           "integers and nulls");
  };
  if (!it->is_array()) return fail();
  for (const ei::Json& element : *it) {
    if (element.is_null()) {
      out.emplace_back();
    } else if (element.is_number_unsigned() &&
               element.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)) {
      out.emplace_back(element.get<int64_t>());
    } else if (element.is_number_integer() && element.get<int64_t>() >= 0) {
      out.emplace_back(element.get<int64_t>());
    } else {
      return fail();
    }
  }
  return out;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? ", " : "") << shape[i];
  out << ']';
  return out.str();
}

}  // namespace

VariableShapeTensorType::VariableShapeTensorType(DataTypePtr storage, int32_t ndim, int data_index,
                                                 int shape_index, std::vector<int64_t> permutation,
                                                 std::vector<std::string> dim_names,
                                                 std::vector<std::optional<int64_t>> uniform_shape)
    : ExtensionType(std::move(storage)),
      ndim_(ndim),
      data_index_(data_index),
      shape_index_(shape_index),
      permutation_(std::move(permutation)),
      dim_names_(std::move(dim_names)),
      uniform_shape_(std::move(uniform_shape)) {}

Result<std::shared_ptr<VariableShapeTensorType>> VariableShapeTensorType::Make(
    DataTypePtr value_type, int32_t ndim, std::vector<int64_t> permutation,
    std::vector<std::string> dim_names, std::vector<std::optional<int64_t>> uniform_shape) {
  if (value_type == nullptr) return Status::Invalid(kExt, ": value type is missing");
  if (ndim < 0) return Status::Invalid(kExt, ": ndim is ", ndim, "; it must be >= 0");
  auto storage = struct_({alkaid::field("data", list(std::move(value_type))),
                          alkaid::field("shape", fixed_size_list(int32(), ndim))});
  return MakeFromStorage(std::move(storage), std::move(permutation), std::move(dim_names),
                         std::move(uniform_shape));
}

Result<std::shared_ptr<VariableShapeTensorType>> VariableShapeTensorType::MakeFromStorage(
    DataTypePtr storage_type, std::vector<int64_t> permutation, std::vector<std::string> dim_names,
    std::vector<std::optional<int64_t>> uniform_shape) {
  int data_index = -1, shape_index = -1;
  int32_t ndim = 0;
  ALKAID_RETURN_NOT_OK(InspectStorage(storage_type, &data_index, &shape_index, &ndim));
  ALKAID_RETURN_NOT_OK(CheckParameters(ndim, permutation, dim_names, uniform_shape));
  return std::shared_ptr<VariableShapeTensorType>(new VariableShapeTensorType(
      std::move(storage_type), ndim, data_index, shape_index, std::move(permutation),
      std::move(dim_names), std::move(uniform_shape)));
}

const DataTypePtr& VariableShapeTensorType::value_type() const {
  return checked_cast<ListType>(*storage_type()->field(data_index_)->type()).value_type();
}

std::string VariableShapeTensorType::Serialize() const {
  if (dim_names_.empty() && permutation_.empty() && uniform_shape_.empty()) return "";
  ei::OrderedJson out = ei::OrderedJson::object();
  if (!dim_names_.empty()) out["dim_names"] = dim_names_;
  if (!permutation_.empty()) out["permutation"] = permutation_;
  if (!uniform_shape_.empty()) {
    ei::OrderedJson dims = ei::OrderedJson::array();
    for (const auto& dim : uniform_shape_) {
      dims.push_back(dim ? ei::OrderedJson(*dim) : ei::OrderedJson(nullptr));
    }
    out["uniform_shape"] = std::move(dims);
  }
  return ei::Dump(out);
}

Result<DataTypePtr> VariableShapeTensorType::Deserialize(DataTypePtr storage_type,
                                                         const std::string& serialized) const {
  std::vector<int64_t> permutation;
  std::vector<std::string> dim_names;
  std::vector<std::optional<int64_t>> uniform_shape;
  if (!serialized.empty()) {
    ALKAID_ASSIGN_OR_RAISE(ei::Json obj, ei::ParseObject(kExt, serialized));
    ALKAID_ASSIGN_OR_RAISE(auto perm, ei::GetIntArray(kExt, obj, "permutation", true));
    ALKAID_ASSIGN_OR_RAISE(auto names, ei::GetStringArray(kExt, obj, "dim_names"));
    ALKAID_ASSIGN_OR_RAISE(uniform_shape, ParseUniformShape(obj));
    if (perm) permutation = std::move(*perm);
    if (names) dim_names = std::move(*names);
  }
  ALKAID_ASSIGN_OR_RAISE(auto type,
                         MakeFromStorage(std::move(storage_type), std::move(permutation),
                                         std::move(dim_names), std::move(uniform_shape)));
  return DataTypePtr(std::move(type));
}

bool VariableShapeTensorType::ExtensionEquals(const ExtensionType& other) const {
  if (other.extension_name() != kVariableShapeTensorName) return false;
  const auto* o = dynamic_cast<const VariableShapeTensorType*>(&other);
  if (o == nullptr) return Serialize() == other.Serialize();
  return ndim_ == o->ndim_ && dim_names_ == o->dim_names_ && uniform_shape_ == o->uniform_shape_ &&
         ei::SamePermutation(permutation_, o->permutation_);
}

// ---------------------------------------------------------------------------
// Array access

Result<VariableShapeTensorArray> VariableShapeTensorArray::Make(ArrayDataPtr data) {
  ALKAID_ASSIGN_OR_RAISE(auto type, ei::ArrayTypeOf<VariableShapeTensorType>(kExt, data, 2));
  const ArrayData& shape = *data->child_data[static_cast<size_t>(type->shape_field_index())];
  if (shape.child_data.size() != 1 || shape.child_data[0] == nullptr) {
    return Status::Invalid(kExt, ": 'shape' array must have one child");
  }
  const ArrayData& list = *data->child_data[static_cast<size_t>(type->data_field_index())];
  if (list.child_data.size() != 1 || list.child_data[0] == nullptr) {
    return Status::Invalid(kExt, ": 'data' array must have one child");
  }
  return VariableShapeTensorArray(std::move(data), std::move(type));
}

namespace {

// Reads and checks the shape of storage row `row` (already offset by the
// struct's offset); `slot` is only for messages.
Status ReadShape(const ArrayData& shape_array, int32_t ndim, int64_t row, int64_t slot,
                 std::vector<int64_t>* out) {
  if (shape_array.IsNull(row)) {
    return Status::Invalid(kExt, ": slot ", slot, ": shape is null in a non-null tensor");
  }
  const ArrayData& values = *shape_array.child_data[0];
  const int32_t* dims = values.GetValues<int32_t>(1);
  int64_t first = (shape_array.offset + row) * ndim;
  out->resize(static_cast<size_t>(ndim));
  for (int32_t k = 0; k < ndim; ++k) {
    if (values.MayHaveNulls() && values.IsNull(first + k)) {
      return Status::Invalid(kExt, ": slot ", slot, ": shape[", k, "] is null");
    }
    int32_t dim = dims[first + k];
    if (dim < 0) {
      return Status::Invalid(kExt, ": slot ", slot, ": shape[", k, "] is ", dim,
                             "; dimensions must be non-negative");
    }
    (*out)[static_cast<size_t>(k)] = dim;
  }
  return Status::OK();
}

// Element range of storage row `row` in the data list's child.
Status ReadDataRange(const ArrayData& list, int64_t row, int64_t slot, int64_t* begin,
                     int64_t* count) {
  if (list.IsNull(row)) {
    return Status::Invalid(kExt, ": slot ", slot, ": data is null in a non-null tensor");
  }
  const int32_t* offsets = list.GetValues<int32_t>(1);
  *begin = offsets[row];
  *count = static_cast<int64_t>(offsets[row + 1]) - offsets[row];
  return Status::OK();
}

}  // namespace

Result<std::vector<int64_t>> VariableShapeTensorArray::GetShape(int64_t i) const {
  if (i < 0 || i >= data_->length) {
    return Status::IndexError(kExt, ": slot ", i, " is outside an array of length ", data_->length);
  }
  if (data_->IsNull(i)) return Status::Invalid(kExt, ": slot ", i, " is null");
  std::vector<int64_t> shape;
  const ArrayData& shape_array =
      *data_->child_data[static_cast<size_t>(type_->shape_field_index())];
  ALKAID_RETURN_NOT_OK(ReadShape(shape_array, type_->ndim(), data_->offset + i, i, &shape));
  return shape;
}

Result<VariableTensorView> VariableShapeTensorArray::GetTensor(int64_t i) const {
  ALKAID_ASSIGN_OR_RAISE(std::vector<int64_t> shape, GetShape(i));
  const ArrayData& list = *data_->child_data[static_cast<size_t>(type_->data_field_index())];
  VariableTensorView view;
  view.value_type = type_->value_type();
  ALKAID_RETURN_NOT_OK(
      ReadDataRange(list, data_->offset + i, i, &view.element_offset, &view.num_elements));
  int64_t byte_width = ei::ElementByteWidth(*view.value_type);
  if (byte_width > 0) {
    view.strides = RowMajorStrides(shape, byte_width);
    const ArrayData& values = *list.child_data[0];
    if (values.buffers.size() > 1 && values.buffers[1] != nullptr) {
      view.data = values.buffers[1]->data() + (values.offset + view.element_offset) * byte_width;
    }
  }
  view.logical_shape = ei::Permute(shape, type_->permutation());
  view.shape = std::move(shape);
  return view;
}

Status VariableShapeTensorArray::ValidateFull() const {
  const ArrayData& shape_array =
      *data_->child_data[static_cast<size_t>(type_->shape_field_index())];
  const ArrayData& list = *data_->child_data[static_cast<size_t>(type_->data_field_index())];
  const auto& uniform = type_->uniform_shape();
  const int32_t ndim = type_->ndim();
  std::vector<int64_t> shape;
  Status status;
  const uint8_t* validity = data_->MayHaveNulls() ? data_->validity() : nullptr;
  // Skips null slots a word at a time; stops checking after the first error.
  bit_util::VisitSetBits(validity, data_->offset, data_->length, [&](int64_t i) {
    if (!status.ok()) return;
    int64_t row = data_->offset + i;
    status = ReadShape(shape_array, ndim, row, i, &shape);
    if (!status.ok()) return;
    // Dims are < 2^31 each; past kCap no list can hold that many elements,
    // so multiplying stops there (a later zero dim still makes it 0).
    constexpr int64_t kCap = int64_t{1} << 32;
    int64_t expected = 1;
    bool any_zero = false;
    for (int32_t k = 0; k < ndim; ++k) {
      int64_t dim = shape[static_cast<size_t>(k)];
      const auto& fixed = uniform.empty() ? std::nullopt : uniform[static_cast<size_t>(k)];
      if (fixed && *fixed != dim) {
        status = Status::Invalid(kExt, ": slot ", i, ": shape[", k, "] is ", dim,
                                 " but uniform_shape[", k, "] is ", *fixed);
        return;
      }
      if (dim == 0) {
        any_zero = true;
      } else if (expected <= kCap) {
        expected *= dim;
      }
    }
    if (any_zero) expected = 0;
    int64_t begin = 0, count = 0;
    status = ReadDataRange(list, row, i, &begin, &count);
    if (!status.ok()) return;
    if (count != expected) {
      status = Status::Invalid(
          kExt, ": slot ", i, ": data holds ", count, " elements but shape ", ShapeText(shape),
          " needs ", expected > kCap ? std::string("more than 2^32") : std::to_string(expected));
    }
  });
  return status;
}

}  // namespace alkaid
