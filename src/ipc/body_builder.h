// Internal: BodyBuilder walks the arrays of a record batch (or a dictionary)
// in pre-order and lists the FieldNodes and the byte ranges of its message
// body, pointing into the arrays' buffers wherever the wire bytes are a window
// of them. Shared by the stream/file writer and MessageEncoder. Not installed.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/memory.h"
#include "body_buffer.h"
#include "metadata.h"

namespace alkaid::ipc::internal {

// Zeros for padding and for empty offset buffers; one address program-wide,
// so a message encoder can tell padding apart from array memory.
inline constexpr uint8_t kZeroBytes[64] = {};
// One zero offset (valid as int32 or int64) for empty offset buffers.
inline constexpr int64_t kZeroOffset = 0;

template <typename T>
T LoadValue(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// The window of an array that a node of the message describes: `offset` is
// absolute (already includes data->offset), in elements of this level.
struct NodeView {
  const ArrayData* data;
  int64_t offset;
  int64_t length;
};

// BodyBuilder: ArrayData -> FieldNodes + raw body ranges

class BodyBuilder {
 public:
  BodyBuilder(MemoryPool* pool, int max_depth) : pool_(pool), max_depth_(max_depth) {
    path_.reserve(16);
  }

  void Reset() {
    meta_.Clear();
    ranges_.clear();
    temporaries_.clear();
    path_.clear();
  }

  // Appends one column (or dictionary) restricted to [offset, offset + length)
  // of its own logical positions.
  Status AppendColumn(const ArrayData& data, int64_t offset, int64_t length, int column) {
    path_.assign(1, column);
    return Append(NodeView{&data, data.offset + offset, length}, 0);
  }

  RecordBatchMeta& meta() { return meta_; }
  std::vector<ByteRange>& ranges() { return ranges_; }
  // Buffers made for this message (shifted bitmaps, rebased offsets, trimmed
  // run ends): the ranges that are not windows of the arrays point here.
  const std::vector<BufferPtr>& temporaries() const { return temporaries_; }

  // --- called by NodeVisitor ---

  Status Append(const NodeView& view, int depth);

  void AddNode(int64_t length, int64_t null_count) {
    meta_.nodes.push_back(FieldNodeMeta{length, null_count});
  }
  void AddRange(const void* data, int64_t size) {
    ranges_.push_back(ByteRange{static_cast<const uint8_t*>(data), size});
  }

  Result<uint8_t*> AllocateTemporary(int64_t size) {
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(size, pool_));
    uint8_t* data = buffer->mutable_data();
    temporaries_.push_back(std::move(buffer));
    return data;
  }

  // A byte window of buffer `index`, checked against the buffer's size.
  Status AddWindow(const ArrayData& data, int index, int64_t byte_offset, int64_t nbytes,
                   BufferSpec::Kind kind) {
    if (nbytes == 0) {
      AddRange(nullptr, 0);
      return Status::OK();
    }
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || byte_offset < 0 || (*buffer)->size() < byte_offset + nbytes) {
      return Fail(BufferSpec::KindName(kind), " buffer (index ", index, ") holds ",
                  buffer ? (*buffer)->size() : 0, " bytes, needs ", byte_offset + nbytes);
    }
    AddRange((*buffer)->data() + byte_offset, nbytes);
    return Status::OK();
  }

  // A bitmap window starting at bit `bit_offset`; shifted into a fresh
  // buffer only when the window does not start on a byte boundary.
  Status AddBitmap(const ArrayData& data, int index, int64_t bit_offset, int64_t length,
                   BufferSpec::Kind kind) {
    const int64_t nbytes = bit_util::BytesForBits(length);
    if (bit_offset % 8 == 0) return AddWindow(data, index, bit_offset / 8, nbytes, kind);
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || (*buffer)->size() < bit_util::BytesForBits(bit_offset + length)) {
      return Fail(BufferSpec::KindName(kind), " (index ", index, ") is too small for bits [", bit_offset, ", ",
                  bit_offset + length, ")");
    }
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(nbytes));
    bit_util::CopyBitmap((*buffer)->data(), bit_offset, length, out, 0);
    AddRange(out, nbytes);
    return Status::OK();
  }

  // Node for `view` with its null count, then the validity buffer (empty when
  // there are no nulls). Returns the null count.
  Result<int64_t> AddNodeWithValidity(const NodeView& view) {
    const ArrayData& data = *view.data;
    int64_t null_count;
    if (view.offset == data.offset && view.length == data.length) {
      null_count = data.GetNullCount();
    } else if (data.null_count == 0 || !data.HasValidityBitmap()) {
      null_count = 0;
    } else {
      const BufferPtr& bitmap = data.buffers[0];
      if (bitmap->size() < bit_util::BytesForBits(view.offset + view.length)) {
        return Fail("validity bitmap holds ", bitmap->size(), " bytes, too few for bits up to ",
                    view.offset + view.length);
      }
      null_count = view.length - bit_util::CountSetBits(bitmap->data(), view.offset, view.length);
    }
    AddNode(view.length, null_count);
    if (null_count == 0) {
      AddRange(nullptr, 0);
    } else {
      ALKAID_RETURN_NOT_OK(AddBitmap(data, 0, view.offset, view.length, BufferSpec::kValidity));
    }
    return null_count;
  }

  // Offsets of [view.offset, view.offset + view.length], rebased to start at
  // zero when they do not already. Reports the child range they cover.
  template <typename O>
  Status AddOffsets(const NodeView& view, int index, int64_t* first, int64_t* last) {
    const ArrayData& data = *view.data;
    if (view.length == 0) {
      AddRange(&kZeroOffset, sizeof(O));
      *first = *last = 0;
      return Status::OK();
    }
    const int64_t needed = (view.offset + view.length + 1) * static_cast<int64_t>(sizeof(O));
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || (*buffer)->size() < needed) {
      return Fail("offsets buffer holds ", buffer ? (*buffer)->size() : 0, " bytes, needs ",
                  needed);
    }
    const uint8_t* raw = (*buffer)->data() + view.offset * static_cast<int64_t>(sizeof(O));
    const O start = LoadValue<O>(raw);
    const O end = LoadValue<O>(raw + view.length * sizeof(O));
    if (start < 0 || end < start) {
      return Fail("offsets [", static_cast<int64_t>(start), ", ", static_cast<int64_t>(end),
                  "] at slots ", view.offset, "..", view.offset + view.length,
                  " are negative or decreasing");
    }
    *first = start;
    *last = end;
    const int64_t nbytes = (view.length + 1) * static_cast<int64_t>(sizeof(O));
    if (start == 0) {
      AddRange(raw, nbytes);
      return Status::OK();
    }
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(nbytes));
    for (int64_t i = 0; i <= view.length; ++i) {
      const O rebased = static_cast<O>(LoadValue<O>(raw + i * sizeof(O)) - start);
      std::memcpy(out + i * sizeof(O), &rebased, sizeof(O));
    }
    AddRange(out, nbytes);
    return Status::OK();
  }

  Status AppendChild(const ArrayData& parent, int index, int64_t offset, int64_t length,
                     int depth) {
    if (index >= static_cast<int>(parent.child_data.size()) || !parent.child_data[index]) {
      return Fail("child ", index, " is missing");
    }
    const ArrayData& child = *parent.child_data[static_cast<size_t>(index)];
    if (offset < 0 || length < 0 || offset + length > child.length) {
      return Fail("child ", index, " has ", child.length, " slots, parent needs [", offset, ", ",
                  offset + length, ")");
    }
    path_.push_back(index);
    Status st = Append(NodeView{&child, child.offset + offset, length}, depth + 1);
    path_.pop_back();
    return st;
  }

  Status AppendRunEndEncodedChildren(const NodeView& view, int depth);

  template <typename... Args>
  Status Fail(Args&&... args) const {
    return Status::Invalid("column path ", FieldPathToString(path_), ": ",
                           std::forward<Args>(args)...);
  }

 private:
  static const BufferPtr* BufferAt(const ArrayData& data, int index) {
    if (index >= static_cast<int>(data.buffers.size())) return nullptr;
    const BufferPtr& b = data.buffers[static_cast<size_t>(index)];
    return b ? &b : nullptr;
  }

  template <typename RunEnd>
  Status AppendRunEnds(const NodeView& view, int depth);

  MemoryPool* pool_;
  int max_depth_;
  RecordBatchMeta meta_;
  std::vector<ByteRange> ranges_;
  std::vector<BufferPtr> temporaries_;
  FieldPath path_;
};

}  // namespace alkaid::ipc::internal
