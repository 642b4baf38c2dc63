// Internal: the buffer scan of the IPC reader. Right after it decompresses a
// buffer, while the bytes are in cache, the reader scans them for what full
// validation would check (UTF-8, ordered offsets); the data pass of
// validation then takes the facts instead of reading the bytes again. Not
// installed.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/visibility.h"

namespace alkaid::internal {

// Called from the IPC module, which is another library in shared builds.

// What a reader can learn about a buffer while its bytes are still in cache,
// right after it decompressed them, so that the data pass later takes the
// answer instead of reading the bytes again (by then evicted: a batch's
// buffers are larger than a core's cache).
enum class BufferScan : uint8_t {
  kNone,
  kUtf8,       // character data of utf8 / large_utf8 arrays
  kOffsets32,  // length + 1 int32 offsets (binary, string, list, map)
  kOffsets64,  // the same, int64
};

// Bits of what ScanBuffer found. Each describes the bytes as scanned.
enum BufferFact : uint8_t {
  kFactAscii = 1,      // every byte is below 0x80
  kFactUtf8 = 2,       // the bytes as a whole are well-formed UTF-8
  kFactOrdered32 = 4,  // as int32 values: the first >= 0 and none less than the one before
  kFactOrdered64 = 8,  // the same as int64 values
};

// The facts about bytes [data, data + size) that `scan` asks for (0 when it
// found none). Thread-safe.
ALKAID_EXPORT uint8_t ScanBuffer(BufferScan scan, const uint8_t* data, int64_t size);

// Facts about the buffers of one batch, found by ScanBuffer. The caller must
// keep every listed buffer alive and unchanged while it is used (the reader
// fills it for each batch it validates, and clears it before the next: a
// freed buffer's address may come back for different bytes). One thread.
class ALKAID_EXPORT ScannedBuffers {
 public:
  void Clear() { entries_.clear(); }  // keeps the capacity
  // Records `facts` (if any) about [data, data + size).
  void Add(const uint8_t* data, int64_t size, uint8_t facts);
  // Call once after the last Add and before Find.
  void Seal();
  bool empty() const { return entries_.empty(); }
  // The facts recorded about a buffer that holds [data, data + size);
  // *base is set to where that buffer starts. 0 when none.
  uint8_t Find(const uint8_t* data, int64_t size, const uint8_t** base) const;

 private:
  struct Entry {
    const uint8_t* data;
    int64_t size;
    uint8_t facts;
  };
  std::vector<Entry> entries_;
};

}  // namespace alkaid::internal
