// The dictionaries of an IPC reader by id: replacements, deltas (queued and
// concatenated once, or grown in place by a DictionaryAccumulator) and the
// dictionaries nested in other dictionaries' values.
#include "dictionary_memo.h"

#include <algorithm>
#include <limits>

#include "alkaid/concatenate.h"

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
  // Which dictionaries live inside which: a field's dictionary is nested in
  // an id when its path extends that id's (first) path.
  for (auto& [id, entry] : entries_) {
    for (const DictionaryField& f : fields) {
      if (f.id == id || f.path.size() <= entry.path.size()) continue;
      if (std::equal(entry.path.begin(), entry.path.end(), f.path.begin()) &&
          std::find(entry.nested_ids.begin(), entry.nested_ids.end(), f.id) ==
              entry.nested_ids.end()) {
        entry.nested_ids.push_back(f.id);
      }
    }
  }
  num_pending_ = 0;
  return Status::OK();
}

Status DictionaryMemo::Apply(int64_t id, bool is_delta, ArrayDataPtr values,
                             const ReadBudgetPtr& budget, MemoryPool* pool) {
  Entry* entry = Find(id);
  if (entry == nullptr) return Status::KeyError("dictionary id ", id, " is unknown");
  const int64_t bytes = BufferBytes(*values);
  if (!is_delta) {
    if (!entry->pending.empty()) --num_pending_;
    entry->pending.clear();
    entry->pending_bytes = 0;
    entry->grown.reset();
    entry->concatenated_bytes = 0;
    entry->values = std::move(values);
    entry->values_bytes = bytes;
    return Status::OK();
  }
  if (entry->values == nullptr && entry->pending.empty()) {
    return Status::Invalid("delta dictionary batch for id ", id,
                           " before any dictionary batch defined it");
  }
  // The dictionary will be materialized at its full size: refuse growth the
  // budget cannot hold now rather than after queueing gigabytes of deltas.
  const int64_t grown = entry->values_bytes + entry->pending_bytes + bytes;
  ALKAID_RETURN_NOT_OK(budget->Check(grown, "a dictionary grown by deltas"));
  if (values->length == 0) return Status::OK();
  if (entry->pending.empty()) ++num_pending_;
  entry->pending.push_back(std::move(values));
  entry->pending_bytes += bytes;
  return Status::OK();
}

Status DictionaryMemo::Materialize(int64_t id, const ReadBudgetPtr& budget, MemoryPool* pool) {
  Entry* entry = Find(id);
  if (entry == nullptr || entry->pending.empty()) return Status::OK();
  for (int64_t nested : entry->nested_ids) {
    ALKAID_RETURN_NOT_OK(Materialize(nested, budget, pool));
  }
  if (DictionaryAccumulator::Supports(*entry->value_type)) return Grow(entry, budget, pool);
  // Other types are concatenated whole, O(dictionary) per materialization:
  // cap the total copied so that alternating deltas and batches stay linear
  // in what the budget allows rather than quadratic.
  const int64_t total = entry->values_bytes + entry->pending_bytes;
  const int64_t max_copied = budget->limit() > std::numeric_limits<int64_t>::max() / 4
                                 ? std::numeric_limits<int64_t>::max()
                                 : budget->limit() * 4;
  if (total > max_copied - entry->concatenated_bytes) {
    return Status::OutOfMemory(
        "dictionary id ", id, " of type ", entry->value_type->ToString(),
        ": concatenating its deltas would copy more than ", max_copied,
        " bytes in all (four times the read budget; these values cannot grow in place)");
  }
  entry->concatenated_bytes += total;
  ALKAID_ASSIGN_OR_RAISE(Charge charge,
                         Charge::Take(budget, total, "concatenating a dictionary with its deltas"));
  ArrayDataVector parts;
  parts.reserve(entry->pending.size() + 1);
  if (entry->values != nullptr) parts.push_back(entry->values);
  for (ArrayDataPtr& p : entry->pending) parts.push_back(std::move(p));
  entry->pending.clear();
  entry->pending_bytes = 0;
  --num_pending_;
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr joined, Concatenate(parts, pool));
  parts.clear();
  entry->values_bytes = BufferBytes(*joined);
  // The charge follows the dictionary: released when the memo and every
  // batch using it have let go.
  entry->values = AttachCharge(std::move(joined), std::move(charge));
  return Status::OK();
}

Status DictionaryMemo::Grow(Entry* entry, const ReadBudgetPtr& budget, MemoryPool* pool) {
  std::vector<ArrayDataPtr> pending = std::move(entry->pending);
  entry->pending.clear();
  entry->pending_bytes = 0;
  --num_pending_;
  ArrayDataPtr base = std::move(entry->values);  // storage it shares may now be rewritten
  entry->values = nullptr;
  Status st;
  if (entry->grown == nullptr) {
    entry->grown = std::make_unique<DictionaryAccumulator>(entry->value_type, budget, pool);
    if (base != nullptr) st = entry->grown->Append(*base);
  }
  base.reset();
  for (size_t i = 0; st.ok() && i < pending.size(); ++i) {
    st = entry->grown->Append(*pending[i]);
    pending[i].reset();
  }
  if (!st.ok()) {
    // A half-appended accumulator is unusable: the dictionary is gone, and
    // batches that need it fail clearly.
    entry->grown.reset();
    entry->values_bytes = 0;
    return st;
  }
  entry->values = entry->grown->Snapshot();
  entry->values_bytes = BufferBytes(*entry->values);
  return Status::OK();
}

Status DictionaryMemo::MaterializeAll(const ReadBudgetPtr& budget, MemoryPool* pool) {
  if (num_pending_ == 0) return Status::OK();
  for (auto& [id, entry] : entries_) {
    ALKAID_RETURN_NOT_OK(Materialize(id, budget, pool));
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
