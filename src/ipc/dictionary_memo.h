// Internal: the dictionaries an IPC reader holds, by id. Not installed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "dictionary_accumulator.h"
#include "read_budget.h"
#include "schema_codec.h"

namespace alkaid::ipc::internal {

// Dictionaries by id: the value type, the path of the first field using the
// id, and the current values. Deltas are queued and concatenated once, when
// the dictionary is next needed (a batch or a dictionary nested in another
// is loaded), so that N deltas cost O(total size), not O(N * size).
class ALKAID_EXPORT DictionaryMemo {  // exported for its unit tests (shared builds)
 public:
  struct Entry {
    DataTypePtr value_type;
    FieldPath path;
    ArrayDataPtr values;  // null until the first dictionary batch
    // Deltas received since `values` was last materialized, in order.
    std::vector<ArrayDataPtr> pending;
    int64_t pending_bytes = 0;
    int64_t values_bytes = 0;
    // Ids of dictionaries used inside this one's value type (their paths
    // extend `path`): they must be current before its batches are loaded.
    std::vector<int64_t> nested_ids;
    // False when projection removed every field using this id: its batches
    // are skipped without being decoded.
    bool needed = true;
    // Storage that deltas grow in place (created by the first delta for
    // types it supports; dropped when a replacement arrives).
    std::unique_ptr<DictionaryAccumulator> grown;
    // Bytes copied so far by concatenating deltas of unsupported types, which
    // costs O(dictionary) per delta: capped so that it stays linear in input.
    int64_t concatenated_bytes = 0;
  };

  // `selected[i]`: whether top-level field i is materialized.
  Status Init(const Schema& schema, const DictionaryIds& ids, const std::vector<bool>& selected);
  Entry* Find(int64_t id);
  const Entry* Find(int64_t id) const;
  size_t size() const { return entries_.size(); }

  // Replaces or (is_delta) appends to dictionary `id`; deltas are queued.
  Status Apply(int64_t id, bool is_delta, ArrayDataPtr values, const ReadBudgetPtr& budget,
               MemoryPool* pool);
  // Concatenates the queued deltas of `id` (and of the ids nested in it).
  Status Materialize(int64_t id, const ReadBudgetPtr& budget, MemoryPool* pool);
  Status MaterializeAll(const ReadBudgetPtr& budget, MemoryPool* pool);
  bool has_pending() const { return num_pending_ > 0; }

 private:
  Status Grow(Entry* entry, const ReadBudgetPtr& budget, MemoryPool* pool);

  std::map<int64_t, Entry> entries_;
  int64_t num_pending_ = 0;  // entries with queued deltas
};

}  // namespace alkaid::ipc::internal
