// Record batch bodies → ArrayData. The schema is walked in pre-order; each
// array takes one FieldNode and the buffers its layout prescribes. Buffers
// are zero-copy slices of the body unless they are compressed, misaligned
// for their element type, or in non-native byte order.
#include <algorithm>
#include <cstring>
#include <new>
#include <sstream>

#include "alkaid/visit_type.h"
#include "reader_internal.h"

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

template <typename CType>
ByteSwap SwapFor() {
  if constexpr (std::is_same_v<CType, MonthDayNanoInterval>) {
    return {ByteSwap::kMonthDayNano, 16};
  } else if constexpr (std::is_same_v<CType, DayTimeInterval>) {
    return {ByteSwap::kGroups, 4};
  } else if constexpr (sizeof(CType) == 1) {
    return {ByteSwap::kNone, 1};
  } else {
    return {ByteSwap::kGroups, static_cast<int>(sizeof(CType))};
  }
}

ByteSwap GroupSwap(int width) {
  return width > 1 ? ByteSwap{ByteSwap::kGroups, width} : ByteSwap{ByteSwap::kNone, width};
}

// One shared, immutable, non-null empty buffer for length-0 body buffers.
const BufferPtr& EmptyBuffer() {
  alignas(kAlignment) static const uint8_t kZeros[kAlignment] = {};
  static const BufferPtr empty = std::make_shared<Buffer>(kZeros, 0);
  return empty;
}

// Alignments are powers of two: a mask, not a division (this runs for every
// buffer of every batch).
bool IsAligned(const uint8_t* p, int alignment) {
  return (reinterpret_cast<uintptr_t>(p) & (static_cast<uintptr_t>(alignment) - 1)) == 0;
}

}  // namespace

SliceArena::SliceArena(const MessageBody& body, size_t capacity)
    : base_(body.data), capacity_(capacity) {
  if (body.owner != nullptr) owner_ = *body.owner;
  if (capacity_ > kInline) heap_ = std::make_unique<std::byte[]>(capacity_ * sizeof(Buffer));
}

SliceArena::~SliceArena() {
  // Every slot holds exactly a Buffer: no virtual dispatch needed.
  Buffer* slots = slot(0);
  for (size_t i = 0; i < used_; ++i) slots[i].Buffer::~Buffer();
}

Buffer* SliceArena::slot(size_t i) {
  std::byte* base = heap_ ? heap_.get() : inline_;
  return reinterpret_cast<Buffer*>(base + i * sizeof(Buffer));
}

BufferPtr SliceArena::Slice(const std::shared_ptr<SliceArena>& arena, int64_t offset,
                            int64_t length) {
  SliceArena& a = *arena;
  if (a.used_ >= a.capacity_) return std::make_shared<Buffer>(a.base_ + offset, length, a.owner_);
  // The arena owns the body, so the slice itself needs no owner of its own.
  Buffer* slice = new (a.slot(a.used_)) Buffer(a.base_ + offset, length);
  ++a.used_;
  return BufferPtr(arena, slice);
}

void ArrayLoader::Reset(const LoaderParams& params) {
  params_ = params;
  arena_.reset();
  node_index_ = 0;
  buffer_index_ = 0;
  variadic_index_ = 0;
  skipping_ = false;
  out_ = nullptr;
  node_ = nullptr;
  deferred_.clear();
}

Status ArrayLoader::Load(const FieldPtr& field, const FieldPath& path, ArrayDataPtr* out) {
  auto data = std::make_shared<ArrayData>();
  ALKAID_RETURN_NOT_OK(LoadInto(field, path, data.get()));
  *out = std::move(data);
  return Status::OK();
}

Status ArrayLoader::LoadInto(const FieldPtr& field, const FieldPath& path, ArrayData* out) {
  path_ = path;
  field_stack_.clear();
  skipping_ = false;
  return LoadInto(field, out);
}

Status ArrayLoader::Skip(const FieldPtr& field, const FieldPath& path) {
  path_ = path;
  field_stack_.clear();
  skipping_ = true;
  ArrayData scratch;
  Status st = LoadInto(field, &scratch);
  skipping_ = false;
  return st;
}

std::string ArrayLoader::FieldPathString() const {
  std::string out;
  for (size_t i = 0; i < field_stack_.size(); ++i) {
    if (i > 0) out += '.';
    out += field_stack_[i]->name();
  }
  out += " (path [";
  for (size_t i = 0; i < path_.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(path_[i]);
  }
  out += "])";
  return out;
}

Status ArrayLoader::Error(const std::string& what) const {
  return Status::Invalid("field ", FieldPathString(), ": ", what);
}

Status ArrayLoader::LoadInto(const FieldPtr& field, ArrayData* out) {
  int max_depth = params_.options->max_recursion_depth;
  if (static_cast<int>(field_stack_.size()) >= max_depth) {
    return Error("type nesting deeper than the limit of " + std::to_string(max_depth));
  }
  field_stack_.push_back(field.get());
  ArrayData* saved = out_;
  out_ = out;
  out->type = field->type();
  Status st = NextNode();
  if (st.ok()) st = VisitTypeInline(*field->type(), this);
  out_ = saved;
  if (st.ok()) field_stack_.pop_back();
  return st;
}

Status ArrayLoader::LoadChildren(const DataType& type, ArrayData* out) {
  out->child_data.resize(static_cast<size_t>(type.num_fields()));
  for (int i = 0; i < type.num_fields(); ++i) {
    auto child = std::make_shared<ArrayData>();
    path_.push_back(i);
    ALKAID_RETURN_NOT_OK(LoadInto(type.field(i), child.get()));
    path_.pop_back();
    out->child_data[static_cast<size_t>(i)] = std::move(child);
  }
  return Status::OK();
}

Status ArrayLoader::NextNode() {
  const auto& nodes = params_.meta->nodes;
  if (node_index_ >= nodes.size()) [[unlikely]] return TooFewNodes();
  node_ = &nodes[node_index_++];
  out_->length = node_->length;
  out_->null_count = node_->null_count;
  out_->offset = 0;
  return Status::OK();
}

// The common case (an aligned slice of an uncompressed native-order body)
// stays short; everything else, errors included, is out of line.
Status ArrayLoader::NextBuffer(int slot, int alignment, ByteSwap swap, int64_t justified_size) {
  const auto& buffers = params_.meta->buffers;
  if (buffer_index_ >= buffers.size()) [[unlikely]] return TooFewBuffers();
  const size_t index = buffer_index_++;
  if (skipping_) return Status::OK();
  const BufferMeta& meta = buffers[index];
  const MessageBody& body = *params_.body;
  if (meta.offset < 0 || meta.length < 0 || meta.offset > body.size ||
      meta.length > body.size - meta.offset) [[unlikely]] {
    return BufferOutsideBody(index);
  }
  BufferPtr& target = out_->buffers[static_cast<size_t>(slot)];
  if (meta.length == 0) {
    target = EmptyBuffer();
    return Status::OK();
  }
  if (!arena_) arena_ = std::make_shared<SliceArena>(body, buffers.size());
  target = SliceArena::Slice(arena_, meta.offset, meta.length);
  const bool needs_swap = params_.swap_endian && swap.kind != ByteSwap::kNone;
  if (params_.codec != nullptr || needs_swap || !IsAligned(target->data(), alignment)) [[unlikely]] {
    return FixUpBuffer(slot, alignment, swap, index, justified_size);
  }
  return Status::OK();
}

Status ArrayLoader::FixUpBuffer(int slot, int alignment, ByteSwap swap, size_t index,
                                int64_t justified_size) {
  if (params_.codec != nullptr || (params_.swap_endian && swap.kind != ByteSwap::kNone)) {
    deferred_.push_back({out_, slot, alignment, swap, static_cast<int64_t>(index),
                         AllowedDecompressedSize(justified_size)});
    return Status::OK();
  }
  // Typed access needs natural alignment; copy into an aligned pool buffer
  // (a copy the memory budget pays for).
  BufferPtr& target = out_->buffers[static_cast<size_t>(slot)];
  ALKAID_ASSIGN_OR_RAISE(Charge charge, Charge::Take(*params_.budget, target->size(),
                                                     "an aligned copy of a body buffer"));
  ALKAID_ASSIGN_OR_RAISE(target, Buffer::Copy(target->data(), target->size(), params_.options->pool));
  target = AttachCharge(std::move(target), std::move(charge));
  return Status::OK();
}

Status ArrayLoader::TooFewNodes() const {
  return Error("the record batch has only " + std::to_string(params_.meta->nodes.size()) +
               " field nodes, fewer than the schema needs");
}

Status ArrayLoader::EmptyValidity() const {
  return Error("the node declares " + std::to_string(out_->null_count) +
               " nulls but validity buffer " + std::to_string(buffer_index_) + " is empty");
}

Status ArrayLoader::TooFewBuffers() const {
  return Error("the record batch has only " + std::to_string(params_.meta->buffers.size()) +
               " buffers, fewer than the schema needs");
}

Status ArrayLoader::BufferOutsideBody(size_t index) const {
  const BufferMeta& meta = params_.meta->buffers[index];
  std::ostringstream msg;
  msg << "buffer " << index << " [offset " << meta.offset << ", length " << meta.length
      << "] lies outside the body of " << params_.body->size << " bytes";
  return Error(msg.str());
}

Status ArrayLoader::LoadValidity() {
  if (skipping_ || out_->null_count != 0) {
    if (!skipping_ && buffer_index_ < params_.meta->buffers.size() &&
        params_.meta->buffers[buffer_index_].length == 0) {
      return EmptyValidity();
    }
    return NextBuffer(0, 1, ByteSwap{}, BitmapBytes(out_->length));
  }
  // No nulls: the bitmap (if any was written) is not needed at all.
  if (buffer_index_ >= params_.meta->buffers.size()) [[unlikely]] return TooFewBuffers();
  ++buffer_index_;
  out_->buffers[0] = nullptr;
  return Status::OK();
}

Status ArrayLoader::LoadFixedWidth(int slot, int byte_width, int alignment, ByteSwap swap) {
  return NextBuffer(slot, alignment, swap, BytesFor(out_->length, byte_width));
}

// ---------------------------------------------------------------------------
// Per-type layouts

Status ArrayLoader::Visit(const NullType&) {
  // Null arrays have no buffers on the wire; every slot is null.
  out_->buffers.clear();
  out_->null_count = out_->length;
  return Status::OK();
}

Status ArrayLoader::Visit(const BooleanType&) {
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return NextBuffer(1, 1, ByteSwap{}, BitmapBytes(out_->length));
}

template <typename T>
  requires has_c_type_v<T>
Status ArrayLoader::Visit(const T&) {
  using CType = typename T::c_type;
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return LoadFixedWidth(1, static_cast<int>(sizeof(CType)), static_cast<int>(alignof(CType)),
                        SwapFor<CType>());
}

Status ArrayLoader::Visit(const FixedSizeBinaryType& type) {
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return LoadFixedWidth(1, type.byte_width(), 1, ByteSwap{});
}

template <typename T>
  requires is_decimal_v<T>
Status ArrayLoader::Visit(const T&) {
  // Decimals are one integer of the full width: big-endian data reverses
  // all of its bytes.
  constexpr int kWidth = T::kByteWidth;
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return LoadFixedWidth(1, kWidth, std::min(kWidth, 8), GroupSwap(kWidth));
}

template <typename T>
  requires is_base_binary_v<T>
Status ArrayLoader::Visit(const T&) {
  constexpr int kWidth = static_cast<int>(sizeof(typename T::offset_type));
  out_->buffers.resize(3);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  ALKAID_RETURN_NOT_OK(
      NextBuffer(1, kWidth, GroupSwap(kWidth), OffsetsBytes(out_->length, kWidth)));
  return NextBuffer(2, 1, ByteSwap{}, -1);
}

template <typename T>
  requires is_binary_view_v<T>
Status ArrayLoader::Visit(const T&) {
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  ALKAID_RETURN_NOT_OK(NextBuffer(1, static_cast<int>(alignof(BinaryViewValue)),
                                  ByteSwap{ByteSwap::kViews, 16},
                                  BytesFor(out_->length, sizeof(BinaryViewValue))));
  const auto& counts = params_.meta->variadic_buffer_counts;
  if (variadic_index_ >= counts.size()) {
    return Error("a view-typed field needs variadic buffer count " +
                 std::to_string(variadic_index_) + " but the record batch lists " +
                 std::to_string(counts.size()));
  }
  int64_t count = counts[variadic_index_++];
  int64_t remaining = static_cast<int64_t>(params_.meta->buffers.size() - buffer_index_);
  if (count < 0 || count > remaining) {
    return Error("variadic buffer count " + std::to_string(count) + " is negative or exceeds the " +
                 std::to_string(remaining) + " buffers left");
  }
  out_->buffers.resize(static_cast<size_t>(2 + count));
  for (int64_t i = 0; i < count; ++i) {
    ALKAID_RETURN_NOT_OK(NextBuffer(static_cast<int>(2 + i), 1, ByteSwap{}, -1));
  }
  return Status::OK();
}

template <typename T>
  requires is_var_list_v<T>
Status ArrayLoader::Visit(const T& type) {
  constexpr int kWidth = static_cast<int>(sizeof(typename T::offset_type));
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  ALKAID_RETURN_NOT_OK(
      NextBuffer(1, kWidth, GroupSwap(kWidth), OffsetsBytes(out_->length, kWidth)));
  return LoadChildren(type, out_);
}

template <typename T>
  requires is_list_view_v<T>
Status ArrayLoader::Visit(const T& type) {
  constexpr int kWidth = static_cast<int>(sizeof(typename T::offset_type));
  out_->buffers.resize(3);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  ALKAID_RETURN_NOT_OK(NextBuffer(1, kWidth, GroupSwap(kWidth), BytesFor(out_->length, kWidth)));
  ALKAID_RETURN_NOT_OK(NextBuffer(2, kWidth, GroupSwap(kWidth), BytesFor(out_->length, kWidth)));
  return LoadChildren(type, out_);
}

Status ArrayLoader::Visit(const FixedSizeListType& type) {
  out_->buffers.resize(1);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return LoadChildren(type, out_);
}

Status ArrayLoader::Visit(const StructType& type) {
  out_->buffers.resize(1);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  return LoadChildren(type, out_);
}

template <typename T>
  requires is_union_v<T>
Status ArrayLoader::Visit(const T& type) {
  constexpr bool kDense = std::is_same_v<T, DenseUnionType>;
  if (params_.version < fb::MetadataVersion::V5) {
    // Before V5 unions carried a validity bitmap of their own; the format
    // now expresses nulls through the children only.
    const auto& buffers = params_.meta->buffers;
    if (buffer_index_ >= buffers.size()) return TooFewBuffers();
    size_t index = buffer_index_++;
    if (!skipping_ && buffers[index].length > 0 && out_->null_count != 0) {
      return Status::NotImplemented("field ", FieldPathString(),
                                    ": a V4 union with top-level nulls (validity buffer ", index,
                                    ") cannot be represented");
    }
  }
  out_->null_count = 0;
  out_->buffers.resize(kDense ? 2 : 1);
  ALKAID_RETURN_NOT_OK(NextBuffer(0, 1, ByteSwap{}, out_->length));
  if constexpr (kDense) {
    ALKAID_RETURN_NOT_OK(NextBuffer(1, 4, GroupSwap(4), BytesFor(out_->length, 4)));
  }
  return LoadChildren(type, out_);
}

Status ArrayLoader::Visit(const DictionaryType& type) {
  int width = type.index_type()->byte_width();
  if (width <= 0) return Error("dictionary index type " + type.index_type()->ToString() + " is not an integer");
  out_->buffers.resize(2);
  ALKAID_RETURN_NOT_OK(LoadValidity());
  ALKAID_RETURN_NOT_OK(LoadFixedWidth(1, width, width, GroupSwap(width)));
  if (skipping_) return Status::OK();
  std::optional<int64_t> id = params_.ids->Get(path_);
  if (!id) return Error("dictionary-encoded field has no dictionary id");
  const DictionaryMemo::Entry* entry = params_.memo->Find(*id);
  if (entry == nullptr) return Error("dictionary id " + std::to_string(*id) + " is unknown");
  if (entry->values == nullptr) {
    return Error("dictionary id " + std::to_string(*id) +
                 " is used before any dictionary batch defined it");
  }
  out_->dictionary = entry->values;
  return Status::OK();
}

Status ArrayLoader::Visit(const RunEndEncodedType& type) {
  // Run-end encoded arrays have no buffers; nulls live in the values child.
  // The node's null count is kept as written: validation refuses a non-zero
  // one, as the format requires.
  out_->buffers.clear();
  return LoadChildren(type, out_);
}

Status ArrayLoader::Visit(const ExtensionType& type) {
  // Same node and buffers as the storage type; out_->type stays the extension.
  return VisitTypeInline(*type.storage_type(), this);
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
  if (params_.codec != nullptr) {
    encoded_scratch_.clear();
    int64_t total = 0;
    for (const Deferred& d : deferred_) {
      const BufferPtr& encoded = d.target->buffers[static_cast<size_t>(d.slot)];
      Result<int64_t> declared = ReadBodyBufferPrefix({encoded->data(), encoded->size()});
      if (!declared.ok()) {
        return declared.status().WithContext("compressed buffer " + std::to_string(d.buffer_index) + ": ");
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
              " bytes (IpcReadOptions::max_decompressed_message_bytes)");
        }
        total += *declared;
      }
      encoded_scratch_.push_back(encoded);
    }
    ALKAID_ASSIGN_OR_RAISE(decompressed,
                           Charge::Take(budget, total, "decompressing a message body"));
    ParallelOptions parallel;
    parallel.use_threads = params_.options->use_threads;
    parallel.num_threads = params_.options->num_threads;
    decoded_scratch_.clear();
    ALKAID_RETURN_NOT_OK(DecompressBodyBuffers(*params_.codec, encoded_scratch_, &decoded_scratch_,
                                               params_.max_decompressed_bytes, parallel, pool));
    for (size_t i = 0; i < deferred_.size(); ++i) {
      BufferPtr& target = deferred_[i].target->buffers[static_cast<size_t>(deferred_[i].slot)];
      // Buffers stored raw come back as slices of the body: not charged.
      deferred_[i].owned = decoded_scratch_[i] != nullptr && decoded_scratch_[i]->is_mutable() &&
                           decoded_scratch_[i].use_count() == 1;
      target = std::move(decoded_scratch_[i]);
    }
    encoded_scratch_.clear();
  }
  for (Deferred& d : deferred_) {
    BufferPtr& buffer = d.target->buffers[static_cast<size_t>(d.slot)];
    bool swap = params_.swap_endian && d.swap.kind != ByteSwap::kNone;
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
  }
  deferred_.clear();
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
