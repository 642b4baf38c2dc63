// EncodedMessage assembly for MessageEncoder: the body as slices of the
// memory the writer's gather list points into.
#include "encoded_message.h"

#include <algorithm>
#include <cstring>

#include "body_builder.h"

namespace alkaid::ipc::internal {

void BodyOwners::AddArray(const ArrayData& data) {
  for (const BufferPtr& b : data.buffers) Add(b);
  for (const ArrayDataPtr& child : data.child_data) {
    if (child != nullptr) AddArray(*child);
  }
  if (data.dictionary != nullptr) AddArray(*data.dictionary);
}

namespace {

bool Holds(const Buffer& b, const uint8_t* data, int64_t size) {
  return b.data() <= data && data + size <= b.data() + b.size();
}

// The writer's static zeros (padding, empty offsets) as borrowed buffers:
// they live as long as the program.
const BufferPtr& ZeroBytes() {
  static const BufferPtr zeros = Buffer::Wrap(kZeroBytes, 64);
  return zeros;
}
const BufferPtr& ZeroOffset() {
  static const BufferPtr zero = Buffer::Wrap(&kZeroOffset, 1);
  return zero;
}

}  // namespace

Result<BufferPtr> BodyOwners::Find(const uint8_t* data, int64_t size) {
  for (const BufferPtr* fixed : {&ZeroBytes(), &ZeroOffset()}) {
    if (Holds(**fixed, data, size)) {
      return SliceBuffer(*fixed, data - (*fixed)->data(), size);
    }
  }
  if (sorted_ != owners_.size()) {
    std::sort(owners_.begin(), owners_.end(),
              [](const BufferPtr& a, const BufferPtr& b) { return a->data() < b->data(); });
    sorted_ = owners_.size();
  }
  // The owners starting at or before `data`, nearest first: usually the
  // first one holds the range; overlapping slices of one allocation may
  // need a few more steps.
  auto it = std::upper_bound(owners_.begin(), owners_.end(), data,
                             [](const uint8_t* p, const BufferPtr& b) { return p < b->data(); });
  while (it != owners_.begin()) {
    --it;
    if (Holds(**it, data, size)) return SliceBuffer(*it, data - (*it)->data(), size);
  }
  return Status::UnknownError("message encoder: a body range of ", size,
                              " bytes lies in no buffer of the batch");
}

Result<EncodedMessage> MakeEncodedMessage(MessageKind kind, const uint8_t* flatbuffer,
                                          int64_t flatbuffer_size,
                                          std::span<const io::IoSlice> slices,
                                          BodyOwners* owners, MemoryPool* pool) {
  EncodedMessage message;
  message.kind = kind;
  ALKAID_ASSIGN_OR_RAISE(auto metadata, AllocateBuffer(flatbuffer_size, pool));
  std::memcpy(metadata->mutable_data(), flatbuffer, static_cast<size_t>(flatbuffer_size));
  message.metadata = std::move(metadata);
  message.body.reserve(slices.size());
  for (const io::IoSlice& s : slices) {
    if (s.size == 0) continue;
    const auto* data = static_cast<const uint8_t*>(s.data);
    ALKAID_ASSIGN_OR_RAISE(BufferPtr part, owners->Find(data, s.size));
    message.body.push_back(std::move(part));
    message.body_length += s.size;
  }
  return message;
}

}  // namespace alkaid::ipc::internal
