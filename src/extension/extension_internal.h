// Helpers shared by the canonical extension types: metadata and storage checks, and parameter
// checks common to both tensor types. The JSON helpers for metadata are in extension_json.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid::extension_internal {

// Empty metadata is required by parameterless types.
Status ExpectEmptyMetadata(std::string_view ext, const std::string& serialized);

// The type of an array handed to the array view of extension type T: the array must be present,
// of type T, with `children` (1 or 2) storage children, none null.
template <typename T>
Result<std::shared_ptr<const T>> ArrayTypeOf(std::string_view ext, const ArrayDataPtr& data,
                                            size_t children) {
  if (data == nullptr || data->type == nullptr) return Status::Invalid(ext, ": array is missing");
  auto type = std::dynamic_pointer_cast<const T>(data->type);
  if (type == nullptr) {
    return Status::TypeError(ext, ": array has type ", data->type->ToString());
  }
  bool present = data->child_data.size() == children;
  for (size_t i = 0; present && i < children; ++i) present = data->child_data[i] != nullptr;
  if (!present) {
    return Status::Invalid(ext, ": storage array must have ",
                           children == 1 ? "exactly one child" : "two children");
  }
  return type;
}

// Tensor parameter checks; messages start with "<ext>: ".
Status CheckShape(std::string_view ext, const std::vector<int64_t>& shape);
Status CheckPermutation(std::string_view ext, const std::vector<int64_t>& permutation,
                        int64_t ndim);
Status CheckDimNames(std::string_view ext, const std::vector<std::string>& dim_names, int64_t ndim);
// An empty permutation and the identity describe the same layout.
bool SamePermutation(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// shape[permutation[i]] for each i (shape itself when no permutation).
std::vector<int64_t> Permute(const std::vector<int64_t>& values,
                             const std::vector<int64_t>& permutation);

// The extension's storage checked to be of `id`.
Status ExpectStorageId(std::string_view ext, const DataTypePtr& storage, TypeId id,
                       std::string_view expected);

// Bytes per element when values sit in one fixed-width buffer (numbers,
// temporals, fixed-size binary, decimals), else -1 (bool, dictionary, nested,
// variable-size).
int64_t ElementByteWidth(const DataType& type);

// Integer value `i` (relative to data.offset) of an integer array of any width.
int64_t ReadInteger(const ArrayData& data, int64_t i);

}  // namespace alkaid::extension_internal
