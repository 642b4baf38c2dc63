// Internal: the record batch body loader of the IPC readers, which turns the
// field nodes and buffers of one RecordBatch header into ArrayData by one
// walk of a load plan (load_plan.h). Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/options.h"
#include "../array/buffer_scan.h"
#include "load_plan.h"
#include "message_body.h"
#include "metadata.h"
#include "read_budget.h"

namespace alkaid::ipc::internal {

struct LoaderParams {
  const RecordBatchMeta* meta = nullptr;
  // Borrowed for the duration of one load; the slice arena takes the one
  // owning reference the batch needs. Every buffer of `meta` lies inside it
  // (ReadRecordBatchHeader checked that against the same body size).
  const MessageBody* body = nullptr;
  fb::MetadataVersion version = fb::MetadataVersion::V5;
  const Codec* codec = nullptr;  // null: uncompressed body
  bool swap_endian = false;
  const IpcReadOptions* options = nullptr;
  int64_t max_decompressed_bytes = 0;  // for the whole message
  // Decompressed buffers and copies are charged here.
  const ReadBudgetPtr* budget = nullptr;
  const LoadPlan* plan = nullptr;
};

// Turns the nodes and buffers of one RecordBatch header into ArrayData by
// one walk of a LoadPlan: each buffer is cut from the body and its size
// checked against the layout as it is cut, and child lengths against their
// parent as children are made, so what comes out satisfies every structural
// rule of ValidateArray (only the data pass remains). Reusable across
// batches (Reset keeps the capacity of its scratch vectors).
class ArrayLoader {
 public:
  void Reset(const LoaderParams& params);

  // Loads the plan node `root` (a root of the plan) and its subtree into an
  // ArrayData the caller allocated (default-constructed).
  Status LoadInto(int32_t root, ArrayData* out);
  // Same, allocating the ArrayData.
  Status Load(int32_t root, ArrayDataPtr* out);
  // Consumes the nodes and buffers of a root without touching its bytes.
  Status Skip(int32_t root);
  // Field nodes consumed so far (the memory budget charges per node).
  size_t nodes_used() const { return node_index_; }
  // Buffers consumed so far (the selected columns' buffers, for projection).
  size_t buffers_used() const { return buffer_index_; }
  // Checks that every node, buffer and variadic count was used, then
  // decompresses, aligns and byte-swaps the buffers that need it (checking
  // decompressed sizes against the layout).
  Status Finish();
  // What was learned about decompressed buffers of this message while they
  // were in cache (for the data pass of full validation); sealed, valid
  // until the next Reset, and only while the loaded buffers are unchanged.
  const alkaid::internal::ScannedBuffers& scanned() const { return scanned_; }

 private:
  // A buffer whose bytes still need decompression, alignment or swapping.
  struct Deferred {
    ArrayData* target;
    int slot;
    int alignment;
    ByteSwap swap;
    int64_t buffer_index;
    int64_t max_size;  // what the node justifies; -1 unbounded
    int64_t needed;    // what the layout requires (checked after decompression)
    int32_t node;      // plan index, for errors
    const BufferRule* rule;  // for errors
    bool owned = false;  // the buffer is a fresh allocation (decompressed)
  };

  Status LoadNode(int32_t index, ArrayData* out);
  Status LoadChildren(int32_t index, ArrayData* out);
  Status CheckChildren(int32_t index, const ArrayData& out) const;
  Status LoadVariadic(int32_t index, ArrayData* out);
  // Cuts out->buffers[slot] from the next buffer of the header.
  [[gnu::always_inline]] inline Status CutBuffer(int32_t index, int slot, const BufferRule& rule,
                                                 ArrayData* out);
  // The rarer cases of CutBuffer: decompression, byte swapping or a copy
  // for alignment.
  [[gnu::noinline]] Status FixUpBuffer(int32_t index, int slot, const BufferRule& rule,
                                       size_t buffer_index, int64_t needed, int64_t justified,
                                       ArrayData* out);
  [[gnu::cold, gnu::noinline]] Status TooFewBuffers(int32_t index) const;
  [[gnu::cold, gnu::noinline]] Status TooFewNodes(int32_t index) const;
  [[gnu::cold, gnu::noinline]] Status EmptyValidity(int32_t index, int64_t null_count) const;
  [[gnu::cold, gnu::noinline]] Status BufferTooSmall(int32_t index, const BufferRule& rule,
                                                     int64_t length, size_t buffer_index,
                                                     int64_t size, int64_t needed) const;
  Status TakeVariadicCount(int32_t index, int64_t* count);
  Status FinishDeferred();
  [[gnu::cold, gnu::noinline]] Status Error(int32_t index, const std::string& what) const;
  std::string FieldPathString(int32_t index) const;

  LoaderParams params_;
  const PlanNode* nodes_ = nullptr;  // params_.plan->nodes
  std::shared_ptr<SliceArena> arena_;  // slices of params_.body
  size_t node_index_ = 0;
  size_t buffer_index_ = 0;
  size_t variadic_index_ = 0;
  std::vector<Deferred> deferred_;
  std::vector<BufferPtr> encoded_scratch_;
  std::vector<BufferPtr> decoded_scratch_;
  std::vector<alkaid::internal::BufferScan> scans_scratch_;
  std::vector<uint8_t> facts_scratch_;
  alkaid::internal::ScannedBuffers scanned_;
};

}  // namespace alkaid::ipc::internal
