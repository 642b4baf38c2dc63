// Internal: turning a message the writer has laid out (flatbuffer, body
// gather list) into an EncodedMessage whose body buffers share the memory the
// gather list points into. Used by MessageEncoder (writer.cc). Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/message.h"
#include "alkaid/memory.h"

namespace alkaid::ipc::internal {

// The buffers a message body may point into: the encoded batch's arrays,
// the writer's temporaries and compression output. Finds, for a byte range
// of the gather list, the buffer holding it, so that the body can be handed
// out as slices sharing ownership instead of copies.
class BodyOwners {
 public:
  void Clear() {
    owners_.clear();
    sorted_ = 0;
  }
  // Every buffer of `data`, its children and dictionaries.
  void AddArray(const ArrayData& data);
  template <typename BufferPtrT>
  void Add(const std::vector<BufferPtrT>& buffers) {
    for (const auto& b : buffers) Add(BufferPtr(b));
  }
  void Add(BufferPtr buffer) {
    if (buffer != nullptr && buffer->size() > 0) owners_.push_back(std::move(buffer));
  }
  // A slice of an owner covering [data, data + size), or an error when no
  // owner holds those bytes (a writer bug, never input).
  Result<BufferPtr> Find(const uint8_t* data, int64_t size);

 private:
  std::vector<BufferPtr> owners_;
  size_t sorted_ = 0;  // owners_[0, sorted_) are sorted by address
};

// The EncodedMessage for a flatbuffer (copied: it is small and the writer
// reuses its builder) and the body in `slices` (shared, not copied).
Result<EncodedMessage> MakeEncodedMessage(MessageKind kind, const uint8_t* flatbuffer,
                                          int64_t flatbuffer_size,
                                          std::span<const io::IoSlice> slices,
                                          BodyOwners* owners, MemoryPool* pool);

}  // namespace alkaid::ipc::internal
