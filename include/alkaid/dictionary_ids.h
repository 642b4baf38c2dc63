/// @file
/// Dictionary ids are a property of serialized data (IPC and integration JSON),
/// not of the in-memory type: they say which dictionary batch feeds which
/// dictionary-encoded field. A FieldPath walks from the schema root through
/// child indices to the field (e.g. {2, 0} is the first child of column 2).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Position of a field in a schema: the column index, then a child index per
/// level of nesting (see the file comment).
using FieldPath = std::vector<int>;

/// Map from the path of each dictionary-encoded field to its dictionary id.
/// A plain value type: const use from several threads is safe, Set is not.
class ALKAID_EXPORT DictionaryIds {
 public:
  /// Gives the field at `path` the dictionary id `id`, replacing any earlier id.
  /// Several paths may share one id (they then share a dictionary).
  void Set(const FieldPath& path, int64_t id) { ids_[path] = id; }
  /// The id of the field at `path`, or nullopt when none was set.
  std::optional<int64_t> Get(const FieldPath& path) const {
    auto it = ids_.find(path);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }
  /// Whether no id has been set.
  bool empty() const { return ids_.empty(); }
  /// Every (path, id) pair, ordered by path (lexicographically).
  const std::map<FieldPath, int64_t>& entries() const { return ids_; }
  /// Ids 0, 1, 2, ... for every dictionary-encoded field in depth-first
  /// pre-order (a dictionary's value type is walked after its field).
  /// Extension types are looked through to their storage; children of a
  /// dictionary's value type get paths below the dictionary field's path.
  static DictionaryIds AssignSequential(const Schema& schema);

 private:
  std::map<FieldPath, int64_t> ids_;
};

}  // namespace alkaid
