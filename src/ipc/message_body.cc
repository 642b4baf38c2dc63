#include "message_body.h"

namespace alkaid::ipc::internal {

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

BufferPtr SliceArena::Slice(const std::shared_ptr<SliceArena>& arena, int64_t offset,
                            int64_t length) {
  BufferPtr out;
  SliceInto(arena, offset, length, &out);
  return out;
}

}  // namespace alkaid::ipc::internal
