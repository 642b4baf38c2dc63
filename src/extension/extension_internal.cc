#include "extension_internal.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>

#include "alkaid/visit_type.h"
#include "extension_json.h"

namespace alkaid::extension_internal {

namespace {

// Enough of the offending text to recognise it without flooding the message.
std::string Excerpt(const std::string& text) {
  constexpr size_t kMax = 80;
  if (text.size() <= kMax) return "'" + text + "'";
  return "'" + text.substr(0, kMax) + "...'";
}

}  // namespace

Result<Json> ParseObject(std::string_view ext, const std::string& text) {
  Json parsed;
  try {
    parsed = Json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  } catch (const std::exception& e) {
    return Status::Invalid(ext, " metadata: not valid JSON (", e.what(), "): ", Excerpt(text));
  }
  if (parsed.is_discarded()) {
    return Status::Invalid(ext, " metadata: not valid JSON: ", Excerpt(text));
  }
  if (!parsed.is_object()) {
    return Status::Invalid(ext, " metadata: must be a JSON object, got ", Excerpt(text));
  }
  return parsed;
}

std::string Dump(const OrderedJson& value) {
  try {
    return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
  } catch (const std::exception&) {
    return std::string();  // unreachable with the replace handler
  }
}

Result<std::optional<std::vector<int64_t>>> GetIntArray(std::string_view ext, const Json& obj,
                                                        const char* key, bool non_negative) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<std::vector<int64_t>>();
  const char* what = non_negative ? "non-negative integers" : "integers";
  if (!it->is_array()) {
    return Status::Invalid(ext, " metadata: '", key, "' must be an array of ", what);
  }
  std::vector<int64_t> out;
  out.reserve(it->size());
  for (const Json& element : *it) {
    bool fits = element.is_number_integer() &&
                (!element.is_number_unsigned() ||
                 element.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX));
    if (!fits || (non_negative && element.get<int64_t>() < 0)) {
      return Status::Invalid(ext, " metadata: '", key, "' must be an array of ", what);
    }
    out.push_back(element.get<int64_t>());
  }
  return std::optional<std::vector<int64_t>>(std::move(out));
}

Result<std::optional<std::vector<std::string>>> GetStringArray(std::string_view ext,
                                                               const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::optional<std::vector<std::string>>();
  if (!it->is_array()) {
    return Status::Invalid(ext, " metadata: '", key, "' must be an array of strings");
  }
  std::vector<std::string> out;
  out.reserve(it->size());
  for (const Json& element : *it) {
    if (!element.is_string()) {
      return Status::Invalid(ext, " metadata: '", key, "' must be an array of strings");
    }
    out.push_back(element.get<std::string>());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

Status ExpectEmptyMetadata(std::string_view ext, const std::string& serialized) {
  if (!serialized.empty()) {
    return Status::Invalid(ext, " metadata: must be empty, got ", Excerpt(serialized));
  }
  return Status::OK();
}

Status CheckShape(std::string_view ext, const std::vector<int64_t>& shape) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return Status::Invalid(ext, ": shape[", i, "] is ", shape[i],
                             "; dimensions must be non-negative");
    }
  }
  return Status::OK();
}

Status CheckPermutation(std::string_view ext, const std::vector<int64_t>& permutation,
                        int64_t ndim) {
  if (permutation.empty()) return Status::OK();
  if (static_cast<int64_t>(permutation.size()) != ndim) {
    return Status::Invalid(ext, ": permutation has ", permutation.size(),
                           " entries but the tensor has ", ndim, " dimensions");
  }
  std::vector<bool> seen(permutation.size(), false);
  for (size_t i = 0; i < permutation.size(); ++i) {
    int64_t p = permutation[i];
    if (p < 0 || p >= ndim || seen[static_cast<size_t>(p)]) {
      return Status::Invalid(ext, ": permutation is not a permutation of 0..", ndim - 1, " (entry ",
                             i, " is ", p, ")");
    }
    seen[static_cast<size_t>(p)] = true;
  }
  return Status::OK();
}

Status CheckDimNames(std::string_view ext, const std::vector<std::string>& dim_names,
                     int64_t ndim) {
  if (!dim_names.empty() && static_cast<int64_t>(dim_names.size()) != ndim) {
    return Status::Invalid(ext, ": dim_names has ", dim_names.size(),
                           " entries but the tensor has ", ndim, " dimensions");
  }
  return Status::OK();
}

bool SamePermutation(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  auto is_identity = [](const std::vector<int64_t>& p) {
    for (size_t i = 0; i < p.size(); ++i) {
      if (p[i] != static_cast<int64_t>(i)) return false;
    }
    return true;
  };
  if (a.empty() || b.empty()) return is_identity(a) && is_identity(b);
  return a == b;
}

std::vector<int64_t> Permute(const std::vector<int64_t>& values,
                             const std::vector<int64_t>& permutation) {
  if (permutation.empty()) return values;
  std::vector<int64_t> out(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) {
    out[i] = values[static_cast<size_t>(permutation[i])];
  }
  return out;
}

Status ExpectStorageId(std::string_view ext, const DataTypePtr& storage, TypeId id,
                       std::string_view expected) {
  if (storage == nullptr) return Status::Invalid(ext, ": storage type is missing");
  if (storage->id() != id) {
    return Status::Invalid(ext, ": storage must be ", expected, ", got ", storage->ToString());
  }
  return Status::OK();
}

int64_t ElementByteWidth(const DataType& type) {
  if (type.id() == TypeId::kDictionary || type.id() == TypeId::kExtension) return -1;
  DataTypeLayout layout = type.layout();
  if (layout.buffers.size() != 2 || layout.buffers[1].kind != BufferSpec::kFixedWidth) return -1;
  int bits = type.bit_width();
  return bits > 0 && bits % 8 == 0 ? bits / 8 : -1;
}

namespace {

struct IntegerReader {
  const ArrayData& data;
  int64_t i;
  int64_t value = 0;

  template <typename T>
  Status Visit(const T&) {
    if constexpr (has_c_type_v<T>) {
      if constexpr (std::is_integral_v<typename T::c_type>) {
        typename T::c_type v;
        std::memcpy(&v, data.buffers[1]->data() + (data.offset + i) * sizeof(v), sizeof(v));
        value = static_cast<int64_t>(v);
        return Status::OK();
      }
    }
    return Status::TypeError("not an integer type");
  }
};

}  // namespace

int64_t ReadInteger(const ArrayData& data, int64_t i) {
  IntegerReader reader{data, i};
  const DataType* type = &data.storage_type();
  // Dictionary arrays keep their indices where the values of others live.
  if (type->id() == TypeId::kDictionary)
    type = checked_cast<DictionaryType>(*type).index_type().get();
  (void)VisitTypeInline(*type, &reader);
  return reader.value;
}

}  // namespace alkaid::extension_internal
