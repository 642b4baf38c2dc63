// Record batch bodies → ArrayData. When a reader gets its schema it turns
// each field into a LoadPlan (load_plan.h); a batch is then one walk
// of the plan in which each array takes one FieldNode and the buffers its
// layout prescribes, each buffer's size checked against the layout as it is
// cut. Buffers are zero-copy slices of the body unless they are compressed,
// misaligned for their element type, or in non-native byte order.
#include "array_loader.h"

#include <algorithm>
#include <cstring>

#include "alkaid/visit_type.h"
#include "batch_pipeline.h"
#include "body_buffer.h"
#include "body_decompression.h"
#include "endian_swap.h"

namespace alkaid::ipc::internal {

namespace {

// count * width, or -1 when that overflows (the caller then relies on the
// message-wide decompression cap alone).
int64_t BytesFor(int64_t count, int64_t width) {
  int64_t bytes;
  if (count < 0 || width < 0 || __builtin_mul_overflow(count, width, &bytes)) return -1;
  return bytes;
}

// Bytes of length + 1 offsets (without overflowing on a hostile length).
int64_t OffsetsBytes(int64_t length, int64_t width) {
  return length < 0 || length == INT64_MAX ? -1 : BytesFor(length + 1, width);
}

int64_t BitmapBytes(int64_t length) { return length < 0 ? -1 : (length / 8) + (length % 8 != 0); }

// Largest declared uncompressed size accepted for a buffer whose node needs
// `needed` bytes: a little slack for writers that pad buffers.
int64_t AllowedDecompressedSize(int64_t needed) {
  if (needed < 0 || needed > INT64_MAX - 256) return -1;
  return RoundUpToMultipleOf64(needed) + 64;
}

// Alignments are powers of two: a mask, not a division (this runs for every
// buffer of every batch).
bool IsAligned(const uint8_t* p, int alignment) {
  return (reinterpret_cast<uintptr_t>(p) & (static_cast<uintptr_t>(alignment) - 1)) == 0;
}

}  // namespace

void ArrayLoader::Reset(const LoaderParams& params) {
  params_ = params;
  nodes_ = params.plan->nodes.data();
  arena_.reset();
  node_index_ = 0;
  buffer_index_ = 0;
  variadic_index_ = 0;
  deferred_.clear();
  scanned_.Clear();
}

Status ArrayLoader::Load(int32_t root, ArrayDataPtr* out) {
  auto data = std::make_shared<ArrayData>();
  ALKAID_RETURN_NOT_OK(LoadNode(root, data.get()));
  *out = std::move(data);
  return Status::OK();
}

Status ArrayLoader::LoadInto(int32_t root, ArrayData* out) { return LoadNode(root, out); }

Status ArrayLoader::Skip(int32_t root) {
  const RecordBatchMeta& meta = *params_.meta;
  const int32_t end = nodes_[root].end;
  for (int32_t i = root; i < end; ++i) {
    const PlanNode& node = nodes_[i];
    if (node_index_ >= meta.nodes.size()) [[unlikely]] return TooFewNodes(i);
    ++node_index_;
    size_t wire = node.num_buffers;
    if ((node.shape == PlanNode::Shape::kSparseUnion ||
         node.shape == PlanNode::Shape::kDenseUnion) &&
        params_.version < fb::MetadataVersion::V5) {
      ++wire;  // the pre-V5 union validity buffer
    }
    if (meta.buffers.size() - buffer_index_ < wire) [[unlikely]] return TooFewBuffers(i);
    buffer_index_ += wire;
    if (node.shape == PlanNode::Shape::kViews) {
      int64_t count;
      ALKAID_RETURN_NOT_OK(TakeVariadicCount(i, &count));
      buffer_index_ += static_cast<size_t>(count);
    }
  }
  return Status::OK();
}

std::string ArrayLoader::FieldPathString(int32_t index) const {
  std::vector<int32_t> chain;
  for (int32_t i = index; i >= 0; i = nodes_[i].parent) chain.push_back(i);
  std::string out;
  for (size_t k = chain.size(); k-- > 0;) {
    out += nodes_[chain[k]].field->name();
    if (k > 0) out += '.';
  }
  out += " (path [";
  bool first = true;
  for (int element : params_.plan->base_path) {
    if (!first) out += ", ";
    out += std::to_string(element);
    first = false;
  }
  for (size_t k = chain.size(); k-- > 0;) {
    if (!first) out += ", ";
    out += std::to_string(nodes_[chain[k]].child_index);
    first = false;
  }
  out += "])";
  return out;
}

Status ArrayLoader::Error(int32_t index, const std::string& what) const {
  return Status::Invalid("field ", FieldPathString(index), ": ", what);
}

Status ArrayLoader::TooFewNodes(int32_t index) const {
  return Error(index, "the record batch has only " + std::to_string(params_.meta->nodes.size()) +
                          " field nodes, fewer than the schema needs");
}

Status ArrayLoader::TooFewBuffers(int32_t index) const {
  return Error(index, "the record batch has only " +
                          std::to_string(params_.meta->buffers.size()) +
                          " buffers, fewer than the schema needs");
}

Status ArrayLoader::EmptyValidity(int32_t index, int64_t null_count) const {
  return Error(index, "the node declares " + std::to_string(null_count) +
                          " nulls but validity buffer " + std::to_string(buffer_index_ - 1) +
                          " is empty");
}

namespace {


}  // namespace

Status ArrayLoader::BufferTooSmall(int32_t index, const BufferRule& rule, int64_t length,
                                   size_t buffer_index, int64_t size, int64_t needed) const {
  std::string what;
  switch (rule.kind) {
    case BufferSpec::kValidity:
    case BufferSpec::kBitmapValues:
      what = std::to_string(length) + " bits for length " + std::to_string(length);
      break;
    default:
      what = (rule.one_more ? "length + 1 = " + std::to_string(length) + " + 1"
                            : "length = " + std::to_string(length)) +
             " elements of " + std::to_string(rule.width) + " bytes";
      break;
  }
  if (needed < 0) {
    return Error(index, std::string(BufferSpec::KindName(rule.kind)) + " buffer (buffer " +
                            std::to_string(buffer_index) +
                            " of the record batch) would need more than 2^63 bytes (" + what +
                            ")");
  }
  return Error(index, std::string(BufferSpec::KindName(rule.kind)) + " buffer (buffer " +
                          std::to_string(buffer_index) + " of the record batch) has " +
                          std::to_string(size) + " bytes but " + std::to_string(needed) +
                          " are needed (" + what + ")");
}

// The common case (an aligned slice of an uncompressed native-order body)
// stays short; everything else, errors included, is out of line.
Status ArrayLoader::CutBuffer(int32_t index, int slot, const BufferRule& rule, ArrayData* out) {
  const auto& buffers = params_.meta->buffers;
  if (buffer_index_ >= buffers.size()) [[unlikely]] return TooFewBuffers(index);
  const size_t buffer_index = buffer_index_++;
  const BufferMeta& meta = buffers[buffer_index];
  BufferPtr& target = out->buffers[static_cast<size_t>(slot)];
  const int64_t length = out->length;
  // Bytes the layout needs for `length` slots, and (for compressed bodies)
  // the most it justifies.
  int64_t needed;
  int64_t justified;
  switch (rule.kind) {
    case BufferSpec::kValidity:
      if (out->null_count == 0) {
        // No nulls: the bitmap (if any was written) is not needed at all.
        target = nullptr;
        return Status::OK();
      }
      if (meta.length == 0) [[unlikely]] return EmptyValidity(index, out->null_count);
      [[fallthrough]];
    case BufferSpec::kBitmapValues:
      needed = justified = BitmapBytes(length);
      break;
    case BufferSpec::kData:
      needed = 0;
      justified = -1;
      break;
    default:
      if (rule.one_more) {
        justified = OffsetsBytes(length, rule.width);
        needed = length == 0 ? 0 : justified;
      } else {
        needed = justified = BytesFor(length, rule.width);
      }
      break;
  }
  // An uncompressed buffer is checked now; a compressed one once it is
  // decompressed (Finish). An empty one is never decompressed.
  if ((params_.codec == nullptr || meta.length == 0) && !(meta.length >= needed && needed >= 0))
      [[unlikely]] {
    return BufferTooSmall(index, rule, length, buffer_index, meta.length, needed);
  }
  if (meta.length == 0) {
    target = EmptyBodyBuffer();
    return Status::OK();
  }
  if (!arena_) arena_ = std::make_shared<SliceArena>(*params_.body, buffers.size());
  SliceArena::SliceInto(arena_, meta.offset, meta.length, &target);
  const bool needs_swap = params_.swap_endian && rule.swap.kind != BufferSpec::kSwapNone;
  if (params_.codec != nullptr || needs_swap || !IsAligned(target->data(), rule.alignment))
      [[unlikely]] {
    return FixUpBuffer(index, slot, rule, buffer_index, needed, justified, out);
  }
  return Status::OK();
}

Status ArrayLoader::FixUpBuffer(int32_t index, int slot, const BufferRule& rule,
                                size_t buffer_index, int64_t needed, int64_t justified,
                                ArrayData* out) {
  if (params_.codec != nullptr || (params_.swap_endian && rule.swap.kind != BufferSpec::kSwapNone)) {
    deferred_.push_back({out, slot, rule.alignment, rule.swap, static_cast<int64_t>(buffer_index),
                         AllowedDecompressedSize(justified), needed, index, &rule});
    return Status::OK();
  }
  // Typed access needs natural alignment; copy into an aligned pool buffer
  // (a copy the memory budget pays for).
  BufferPtr& target = out->buffers[static_cast<size_t>(slot)];
  ALKAID_ASSIGN_OR_RAISE(Charge charge, Charge::Take(*params_.budget, target->size(),
                                                     "an aligned copy of a body buffer"));
  ALKAID_ASSIGN_OR_RAISE(target, Buffer::Copy(target->data(), target->size(), params_.options->pool));
  target = AttachCharge(std::move(target), std::move(charge));
  return Status::OK();
}

Status ArrayLoader::TakeVariadicCount(int32_t index, int64_t* count) {
  const RecordBatchMeta& meta = *params_.meta;
  const auto& counts = meta.variadic_buffer_counts;
  if (variadic_index_ >= counts.size()) {
    return Error(index, "a view-typed field needs variadic buffer count " +
                            std::to_string(variadic_index_) + " but the record batch lists " +
                            std::to_string(counts.size()));
  }
  *count = counts[variadic_index_++];
  const auto remaining = static_cast<int64_t>(meta.buffers.size() - buffer_index_);
  if (*count < 0 || *count > remaining) {
    return Error(index, "variadic buffer count " + std::to_string(*count) +
                            " is negative or exceeds the " + std::to_string(remaining) +
                            " buffers left");
  }
  return Status::OK();
}

Status ArrayLoader::LoadVariadic(int32_t index, ArrayData* out) {
  int64_t count;
  ALKAID_RETURN_NOT_OK(TakeVariadicCount(index, &count));
  out->buffers.resize(static_cast<size_t>(2 + count));
  static const BufferRule kDataRule{};
  for (int64_t i = 0; i < count; ++i) {
    ALKAID_RETURN_NOT_OK(CutBuffer(index, static_cast<int>(2 + i), kDataRule, out));
  }
  return Status::OK();
}

Status ArrayLoader::LoadNode(int32_t index, ArrayData* out) {
  using Shape = PlanNode::Shape;
  const PlanNode& node = nodes_[index];
  const auto& nodes = params_.meta->nodes;
  if (node_index_ >= nodes.size()) [[unlikely]] return TooFewNodes(index);
  // Length >= 0 and 0 <= null count <= length: checked with the header.
  const FieldNodeMeta& field_node = nodes[node_index_++];
  out->type = node.type;
  out->length = field_node.length;
  out->null_count = field_node.null_count;
  out->offset = 0;
  switch (node.shape) {
    case Shape::kNull:
      // Null arrays have no buffers on the wire; every slot is null.
      out->buffers.clear();
      out->null_count = out->length;
      return Status::OK();
    case Shape::kRunEnd:
      // No buffers; nulls live in the values child, so the node's own count
      // must be 0.
      if (out->null_count != 0) {
        return Error(index, "null count " + std::to_string(out->null_count) +
                                " must be 0: run-end encoded arrays have no validity bitmap, "
                                "their nulls live in the values child");
      }
      break;
    case Shape::kSparseUnion:
    case Shape::kDenseUnion:
      if (params_.version < fb::MetadataVersion::V5) {
        // Before V5 unions carried a validity bitmap of their own; the
        // format now expresses nulls through the children only.
        const auto& buffers = params_.meta->buffers;
        if (buffer_index_ >= buffers.size()) return TooFewBuffers(index);
        const size_t b = buffer_index_++;
        if (buffers[b].length > 0 && out->null_count != 0) {
          return Status::NotImplemented("field ", FieldPathString(index),
                                        ": a V4 union with top-level nulls (validity buffer ", b,
                                        ") cannot be represented");
        }
      }
      out->null_count = 0;
      break;
    default:
      break;
  }
  out->buffers.resize(node.num_buffers);
  for (int b = 0; b < node.num_buffers; ++b) {
    ALKAID_RETURN_NOT_OK(CutBuffer(index, b, node.buffers[b], out));
  }
  switch (node.shape) {
    case Shape::kBuffers:
      return Status::OK();
    case Shape::kViews:
      return LoadVariadic(index, out);
    case Shape::kDictionary: {
      const DictionaryMemo::Entry* entry = node.dictionary;
      if (entry == nullptr) {
        if (node.dictionary_id < 0) return Error(index, "dictionary-encoded field has no dictionary id");
        return Error(index, "dictionary id " + std::to_string(node.dictionary_id) + " is unknown");
      }
      if (entry->values == nullptr) {
        return Error(index, "dictionary id " + std::to_string(node.dictionary_id) +
                                " is used before any dictionary batch defined it");
      }
      out->dictionary = entry->values;
      return Status::OK();
    }
    default:
      return LoadChildren(index, out);
  }
}

Status ArrayLoader::LoadChildren(int32_t index, ArrayData* out) {
  const PlanNode& node = nodes_[index];
  out->child_data.resize(static_cast<size_t>(node.num_children));
  int32_t child = index + 1;
  for (int32_t i = 0; i < node.num_children; ++i) {
    auto data = std::make_shared<ArrayData>();
    ALKAID_RETURN_NOT_OK(LoadNode(child, data.get()));
    // Struct and sparse union children have a slot for every parent slot.
    if ((node.shape == PlanNode::Shape::kStruct || node.shape == PlanNode::Shape::kSparseUnion) &&
        data->length < out->length) [[unlikely]] {
      return Error(index, "child " + std::to_string(i) + " ('" + nodes_[child].field->name() +
                              "') has length " + std::to_string(data->length) +
                              " but needs at least the parent's length " +
                              std::to_string(out->length));
    }
    out->child_data[static_cast<size_t>(i)] = std::move(data);
    child = nodes_[child].end;
  }
  // Fixed-size lists, run-end encoded arrays and maps have rules of their
  // own; list offsets and dense union offsets are for the data pass.
  if (node.shape == PlanNode::Shape::kFixedSizeList || node.shape == PlanNode::Shape::kRunEnd ||
      node.is_map) {
    return CheckChildren(index, *out);
  }
  return Status::OK();
}

// The structural rules tying children to their parent.
Status ArrayLoader::CheckChildren(int32_t index, const ArrayData& out) const {
  using Shape = PlanNode::Shape;
  const PlanNode& node = nodes_[index];
  switch (node.shape) {
    case Shape::kFixedSizeList: {
      int64_t needed;
      if (__builtin_mul_overflow(out.length, node.list_size, &needed)) {
        return Error(index, "length " + std::to_string(out.length) + " * list_size " +
                                std::to_string(node.list_size) + " overflows a 64-bit integer");
      }
      const ArrayData& child = *out.child_data[0];
      if (child.length < needed) {
        return Error(index, "the child has length " + std::to_string(child.length) +
                                " but needs at least length * list_size = " +
                                std::to_string(needed));
      }
      break;
    }
    case Shape::kRunEnd: {
      const ArrayData& run_ends = *out.child_data[0];
      const ArrayData& values = *out.child_data[1];
      if (values.length < run_ends.length) {
        return Error(index, "run_ends has length " + std::to_string(run_ends.length) +
                                " but values has only " + std::to_string(values.length) +
                                " (each run needs a value)");
      }
      if (out.length > 0 && run_ends.length == 0) {
        return Error(index, "length is " + std::to_string(out.length) + " but there are no runs");
      }
      if (run_ends.null_count > 0) {
        return Error(index, "run_ends must not contain nulls, null_count is " +
                                std::to_string(run_ends.null_count));
      }
      break;
    }
    default:
      break;
  }
  if (node.is_map) {
    const ArrayData& keys = *out.child_data[0]->child_data[0];
    if (keys.null_count > 0) {
      return Error(index, "map keys must not be null, the key array has null_count " +
                              std::to_string(keys.null_count));
    }
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Finishing

Status ArrayLoader::Finish() {
  const RecordBatchMeta& meta = *params_.meta;
  if (node_index_ != meta.nodes.size()) {
    return Status::Invalid("the record batch has ", meta.nodes.size(),
                           " field nodes but the schema uses only ", node_index_);
  }
  if (buffer_index_ != meta.buffers.size()) {
    return Status::Invalid("the record batch has ", meta.buffers.size(),
                           " buffers but the schema uses only ", buffer_index_);
  }
  if (variadic_index_ != meta.variadic_buffer_counts.size()) {
    return Status::Invalid("the record batch has ", meta.variadic_buffer_counts.size(),
                           " variadic buffer counts but the schema has only ", variadic_index_,
                           " view-typed fields");
  }
  // Batches keep the arena alive through their slices; the loader lets go.
  arena_.reset();
  if (deferred_.empty()) return Status::OK();
  return FinishDeferred();
}

Status ArrayLoader::FinishDeferred() {
  MemoryPool* pool = params_.options->pool;
  const ReadBudgetPtr& budget = *params_.budget;
  // What the decompressed buffers of this message will hold, taken from the
  // budget before anything is allocated and handed to the buffers one by one.
  Charge decompressed;
  // Full validation's reads of a buffer are done right after it is
  // decompressed (unless its bytes are swapped afterwards).
  const bool scan = params_.options->validate_full && !params_.swap_endian;
  if (params_.codec != nullptr) {
    encoded_scratch_.clear();
    scans_scratch_.clear();
    int64_t total = 0;
    for (const Deferred& d : deferred_) {
      const BufferPtr& encoded = d.target->buffers[static_cast<size_t>(d.slot)];
      Result<int64_t> declared = ReadBodyBufferPrefix({encoded->data(), encoded->size()});
      if (!declared.ok()) {
        return declared.status().WithContext("compressed buffer " + std::to_string(d.buffer_index));
      }
      if (d.max_size >= 0 && *declared > d.max_size) {
        return Status::Invalid("compressed buffer ", d.buffer_index, " declares ", *declared,
                               " uncompressed bytes, more than the ", d.max_size,
                               " its field node's length justifies");
      }
      if (*declared > 0) {
        if (*declared > params_.max_decompressed_bytes - total) {
          return Status::OutOfMemory(
              "compressed buffer ", d.buffer_index, " declares ", *declared,
              " uncompressed bytes; with the message's other buffers (", total,
              " bytes) that exceeds the per-message limit of ", params_.max_decompressed_bytes,
              " bytes (IpcReadOptions::max_decompressed_message_bytes)")
              .WithDetail({StatusDetail::Kind::kLimit, {"max_decompressed_message_bytes"}});
        }
        total += *declared;
      }
      encoded_scratch_.push_back(encoded);
      scans_scratch_.push_back(scan ? d.rule->scan : alkaid::internal::BufferScan::kNone);
    }
    ALKAID_ASSIGN_OR_RAISE(decompressed,
                           Charge::Take(budget, total, "decompressing a message body"));
    ParallelOptions parallel;
    // A batch decoded beside others (batch_pipeline.h) keeps its buffers
    // to its own thread.
    parallel.use_threads = params_.options->use_threads && CodecThreadsAllowedHere();
    parallel.num_threads = params_.options->num_threads;
    decoded_scratch_.clear();
    ALKAID_RETURN_NOT_OK(DecompressAndScanBodyBuffers(
        *params_.codec, encoded_scratch_, scans_scratch_, &decoded_scratch_, &facts_scratch_,
        params_.max_decompressed_bytes, parallel, pool, 0));
    for (size_t i = 0; i < deferred_.size(); ++i) {
      BufferPtr& target = deferred_[i].target->buffers[static_cast<size_t>(deferred_[i].slot)];
      // Buffers stored raw come back as slices of the body: not charged.
      deferred_[i].owned = decoded_scratch_[i] != nullptr && decoded_scratch_[i]->is_mutable() &&
                           decoded_scratch_[i].use_count() == 1;
      target = std::move(decoded_scratch_[i]);
    }
    encoded_scratch_.clear();
  }
  for (size_t i = 0; i < deferred_.size(); ++i) {
    Deferred& d = deferred_[i];
    BufferPtr& buffer = d.target->buffers[static_cast<size_t>(d.slot)];
    if (buffer->size() < d.needed) {
      return BufferTooSmall(d.node, *d.rule, d.target->length, static_cast<size_t>(d.buffer_index),
                            buffer->size(), d.needed);
    }
    bool swap = params_.swap_endian && d.swap.kind != BufferSpec::kSwapNone;
    // Freshly decompressed buffers are private; slices of the input are
    // shared (and may be a read-only mapping), so those are copied first.
    bool private_copy = d.owned;
    Charge charge = decompressed.Split(d.owned ? buffer->size() : 0);
    if ((swap && !private_copy) || !IsAligned(buffer->data(), d.alignment)) {
      ALKAID_ASSIGN_OR_RAISE(Charge copy_charge,
                             Charge::Take(budget, buffer->size(), "a copy of a body buffer"));
      ALKAID_ASSIGN_OR_RAISE(buffer, Buffer::Copy(buffer->data(), buffer->size(), pool));
      charge = std::move(copy_charge);
    }
    if (swap) SwapBytesInPlace(buffer->mutable_data(), buffer->size(), d.swap);
    buffer = AttachCharge(std::move(buffer), std::move(charge));
    // A copy holds the scanned bytes too; swapped bytes are not the same.
    if (params_.codec != nullptr && !swap) {
      scanned_.Add(buffer->data(), buffer->size(), facts_scratch_[i]);
    }
  }
  scanned_.Seal();
  deferred_.clear();
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
