// Internal: the bytes of one IPC message body and the zero-copy slices the
// array loader cuts from them. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "alkaid/memory.h"

namespace alkaid::ipc::internal {

// The bytes of one message body and the buffer that keeps them alive: one
// of its own, or the whole stream or mapping it lies in (so a stream held in
// memory needs no per-message buffer object). The owner is borrowed for the
// duration of one message; only the slice arena takes a reference, once per
// batch, because reference counts are atomic and every one shows in the
// per-batch cost.
struct MessageBody {
  const uint8_t* data = nullptr;
  int64_t size = 0;
  const BufferPtr* owner = nullptr;

  static MessageBody Of(const BufferPtr& buffer) {
    if (buffer == nullptr) return MessageBody{};
    return MessageBody{buffer->data(), buffer->size(), &buffer};
  }
};

// The zero-copy slices of one message body, made in one allocation instead
// of one per buffer. Every slice handed out shares ownership of the arena,
// which in turn keeps the body alive. (Slices hold no reference back to
// anything else in the batch, so there is no ownership cycle.)
class SliceArena {
 public:
  SliceArena(const MessageBody& body, size_t capacity);
  ~SliceArena();
  SliceArena(const SliceArena&) = delete;
  SliceArena& operator=(const SliceArena&) = delete;

  // A slice [offset, offset + length) of the body; falls back to a plain
  // SliceBuffer when the arena is full.
  static BufferPtr Slice(const std::shared_ptr<SliceArena>& arena, int64_t offset, int64_t length);
  // Same, into `*out` (which is null): inlined in the loader's hot path.
  [[gnu::always_inline]] static inline void SliceInto(const std::shared_ptr<SliceArena>& arena,
                                                      int64_t offset, int64_t length,
                                                      BufferPtr* out) {
    SliceArena& a = *arena;
    if (a.used_ >= a.capacity_) [[unlikely]] {
      *out = std::make_shared<Buffer>(a.base_ + offset, length, a.owner_);
      return;
    }
    *out = BufferPtr(arena, a.Place(offset, length));
  }

 private:
  static constexpr size_t kInline = 8;
  Buffer* slot(size_t i) {
    std::byte* base = heap_ ? heap_.get() : inline_;
    return reinterpret_cast<Buffer*>(base + i * sizeof(Buffer));
  }
  // Builds the next slice in its slot (the caller checked there is one). The
  // arena owns the body, so the slice itself needs no owner of its own.
  Buffer* Place(int64_t offset, int64_t length) {
    Buffer* slice = new (slot(used_)) Buffer(base_ + offset, length);
    ++used_;
    return slice;
  }

  std::shared_ptr<const void> owner_;
  const uint8_t* base_;
  size_t capacity_;
  size_t used_ = 0;
  alignas(Buffer) std::byte inline_[kInline * sizeof(Buffer)];
  std::unique_ptr<std::byte[]> heap_;
};

}  // namespace alkaid::ipc::internal
