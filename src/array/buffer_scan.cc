// The IPC reader's buffer scan: facts about freshly decompressed buffers
// that full validation then need not read again.
#include "buffer_scan.h"

#include <algorithm>
#include <functional>

#include "alkaid/utf8.h"
#include "value_order.h"

namespace alkaid::internal {

namespace {
// Whether the `size` bytes hold at least one O value, the first >= 0 and
// none less than the one before.
template <typename O>
bool OrderedFromNonNegative(const uint8_t* data, int64_t size) {
  const int64_t n = size / int64_t{sizeof(O)};
  return n > 0 && LoadAt<O>(data, 0) >= 0 && !AnyOutOfOrder<O, false>(data, n);
}
}  // namespace

uint8_t ScanBuffer(BufferScan scan, const uint8_t* data, int64_t size) {
  switch (scan) {
    case BufferScan::kNone:
      return 0;
    case BufferScan::kUtf8: {
      bool ascii_only = false;
      if (FindInvalidUtf8(data, size, &ascii_only) >= 0) return 0;
      return ascii_only ? kFactAscii | kFactUtf8 : kFactUtf8;
    }
    case BufferScan::kOffsets32:
      return OrderedFromNonNegative<int32_t>(data, size) ? kFactOrdered32 : 0;
    case BufferScan::kOffsets64:
      return OrderedFromNonNegative<int64_t>(data, size) ? kFactOrdered64 : 0;
  }
  return 0;
}

void ScannedBuffers::Add(const uint8_t* data, int64_t size, uint8_t facts) {
  if (facts != 0 && data != nullptr && size > 0) entries_.push_back({data, size, facts});
}

void ScannedBuffers::Seal() {
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) {
              return std::less<const uint8_t*>()(a.data, b.data);
            });
}

uint8_t ScannedBuffers::Find(const uint8_t* data, int64_t size, const uint8_t** base) const {
  // The last entry starting at or before `data` is the only one that can
  // hold it: the listed buffers are live at once, so they do not overlap.
  auto it = std::upper_bound(entries_.begin(), entries_.end(), data,
                             [](const uint8_t* p, const Entry& e) {
                               return std::less<const uint8_t*>()(p, e.data);
                             });
  if (it == entries_.begin()) return 0;
  --it;
  if (size < 0 || data - it->data > it->size - size) return 0;
  *base = it->data;
  return it->facts;
}

}  // namespace alkaid::internal
