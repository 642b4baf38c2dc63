#include <algorithm>

#include "reader_internal.h"

namespace alkaid::ipc::internal {

Status DictionaryMemo::Init(const Schema& schema, const DictionaryIds& ids,
                            const std::vector<bool>& selected) {
  entries_.clear();
  ALKAID_ASSIGN_OR_RAISE(std::vector<DictionaryField> fields, CollectDictionaryFields(schema, ids));
  for (const DictionaryField& f : fields) {
    bool needed = !f.path.empty() && f.path[0] >= 0 &&
                  static_cast<size_t>(f.path[0]) < selected.size() &&
                  selected[static_cast<size_t>(f.path[0])];
    auto [it, inserted] = entries_.try_emplace(f.id);
    Entry& entry = it->second;
    if (inserted) {
      entry.value_type = f.type->value_type();
      entry.path = f.path;
      entry.needed = needed;
    } else {
      // A shared id is needed when any of its fields is selected.
      entry.needed = entry.needed || needed;
    }
  }
  // A dictionary nested inside a needed dictionary's values is needed too,
  // even when the outer id's first field (whose path we load under) was
  // projected away. Outer fields come before inner ones in pre-order, so one
  // pass in order settles it.
  for (const DictionaryField& f : fields) {
    Entry& entry = entries_[f.id];
    if (entry.needed) continue;
    for (const auto& [id, outer] : entries_) {
      if (!outer.needed || outer.path.size() >= f.path.size()) continue;
      if (std::equal(outer.path.begin(), outer.path.end(), f.path.begin())) {
        entry.needed = true;
        break;
      }
    }
  }
  return Status::OK();
}

DictionaryMemo::Entry* DictionaryMemo::Find(int64_t id) {
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : &it->second;
}

const DictionaryMemo::Entry* DictionaryMemo::Find(int64_t id) const {
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : &it->second;
}

}  // namespace alkaid::ipc::internal
