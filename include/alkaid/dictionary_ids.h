// Dictionary ids are a property of serialized data (IPC and integration JSON),
// not of the in-memory type: they say which dictionary batch feeds which
// dictionary-encoded field. A FieldPath walks from the schema root through
// child indices to the field (e.g. {2, 0} is the first child of column 2).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

using FieldPath = std::vector<int>;

class ALKAID_EXPORT DictionaryIds {
 public:
  void Set(const FieldPath& path, int64_t id) { ids_[path] = id; }
  std::optional<int64_t> Get(const FieldPath& path) const {
    auto it = ids_.find(path);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }
  bool empty() const { return ids_.empty(); }
  const std::map<FieldPath, int64_t>& entries() const { return ids_; }
  // Ids 0, 1, 2, ... for every dictionary-encoded field in depth-first
  // pre-order (a dictionary's value type is walked after its field).
  static DictionaryIds AssignSequential(const Schema& schema);

 private:
  std::map<FieldPath, int64_t> ids_;
};

}  // namespace alkaid
