// Internal: one IPC dictionary's values grown by delta dictionary batches in
// place (see dictionary_accumulator.cc for why and how). Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"
#include "read_budget.h"

namespace alkaid::ipc::internal {

// One dictionary's values, grown by deltas in place (amortized O(delta) per
// delta) and handed out as snapshots that share the storage. Not for every
// type: see Supports(); the memo concatenates the others. Not thread-safe
// (owned by one reader core); snapshots may be used from any thread.
class ALKAID_EXPORT DictionaryAccumulator {
 public:
  // Whether values of `type` (and of every type inside it) can be grown in
  // place: everything except list views, unions, run-end encoded and
  // dictionary-encoded values.
  static bool Supports(const DataType& type);

  DictionaryAccumulator(DataTypePtr type, ReadBudgetPtr budget, MemoryPool* pool);
  ~DictionaryAccumulator();
  DictionaryAccumulator(const DictionaryAccumulator&) = delete;
  DictionaryAccumulator& operator=(const DictionaryAccumulator&) = delete;

  // Appends every slot of `values` (validated, of the accumulator's type).
  Status Append(const ArrayData& values);
  // The values so far, sharing the accumulator's storage.
  ArrayDataPtr Snapshot() const;
  int64_t length() const;

 private:
  struct Storage;
  struct Node;
  void Init(Node* node, DataTypePtr type);
  Status Reserve(Storage* s, int64_t new_size, bool rewrite_last);
  Status AppendBits(Storage* s, int64_t at, const uint8_t* bits, int64_t bits_offset, int64_t n);
  Status AppendBytes(Storage* s, const uint8_t* bytes, int64_t n);
  template <typename O>
  Status AppendOffsets(Storage* s, const O* offsets, int64_t n, int64_t base);
  Status AppendNode(Node* node, const ArrayData& a, int64_t begin, int64_t n);
  template <typename O>
  Status AppendBinary(Node* node, const ArrayData& a, int64_t at, int64_t n);
  template <typename O>
  Status AppendList(Node* node, const ArrayData& a, int64_t at, int64_t n);
  Status AppendViews(Node* node, const ArrayData& a, int64_t at, int64_t n);
  static ArrayDataPtr SnapshotNode(const Node& node);

  std::unique_ptr<Node> root_;
  ReadBudgetPtr budget_;
  MemoryPool* pool_;
};

}  // namespace alkaid::ipc::internal
