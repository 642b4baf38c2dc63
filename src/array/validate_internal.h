// Validation entry points for readers that build arrays structurally valid
// by construction. Not installed.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/validate.h"

namespace alkaid::internal {

// Called from the IPC module's shared library.
#pragma GCC visibility push(default)

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
uint8_t ScanBuffer(BufferScan scan, const uint8_t* data, int64_t size);

// Facts about the buffers of one batch, found by ScanBuffer. The caller must
// keep every listed buffer alive and unchanged while it is used (the reader
// fills it for each batch it validates, and clears it before the next: a
// freed buffer's address may come back for different bytes). One thread.
class ScannedBuffers {
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

// The data half of full validation (offsets, UTF-8, views, union ids,
// dictionary indices, run ends, null counts against bitmaps) without the
// structural pass. Precondition, which the caller guarantees: `data` already
// satisfies every structural rule ValidateArray checks (buffer counts and
// sizes for offset + length, null counts, children and their lengths, types,
// nesting depth); the IPC loader checks these as it cuts each buffer.
// Dictionaries are not descended into: the caller validated them when they
// were loaded (their lengths are still used to bound the indices).
// options.full and options.types_validated are ignored.
// `scanned` as for ValidateColumnsDataOfValidStructure below.
Status ValidateArrayDataOfValidStructure(const ArrayData& data, const ValidateOptions& options,
                                         const ScannedBuffers* scanned = nullptr);

// The columns of one batch for ValidateColumnsDataOfValidStructure.
struct BatchColumns {
  const ArrayDataPtr* columns = nullptr;
  size_t num_columns = 0;
  // Column i is skipped when it has no nulls and plain[i] != 0 (plain may be
  // null): the caller knows its layout has nothing the data pass reads
  // (fixed-width values, no children, no dictionary).
  const uint8_t* plain = nullptr;
  // Facts about some of the columns' buffers (sealed; may be null or
  // empty), which then need not be read again.
  const ScannedBuffers* scanned = nullptr;
};

// The same for each column of `batch` in turn, with one validator for all (a
// batch of small columns costs little more than one). On failure, *failed is
// the index of the column that failed.
Status ValidateColumnsDataOfValidStructure(const BatchColumns& batch,
                                           const ValidateOptions& options, size_t* failed);

#pragma GCC visibility pop

}  // namespace alkaid::internal
