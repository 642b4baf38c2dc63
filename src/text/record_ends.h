// Where records end in text (internal), for the block loader (loader.h) and
// the readers: line feeds counted, and the last record end outside quotes.
#pragma once

#include <cstdint>

#include "alkaid/visibility.h"

namespace alkaid::text::internal {

// The readers in other libraries call these (shared builds), hence
// ALKAID_EXPORT.

// Number of '\n' bytes in p[0, n).
ALKAID_EXPORT int64_t CountLineFeeds(const char* p, int64_t n);

// Quote-parity scan of data[from, size) starting outside quotes when
// *in_quote is false ('\0' for `quote`: no quoting, every line feed ends a
// record). Returns the offset just past the last line feed (or lone CR not
// at the very end) outside quotes, or -1; updates *in_quote to the parity
// at `size`. With `lone_cr`, a CR not followed by LF also ends a record
// (used only when the range has no line feed outside quotes).
ALKAID_EXPORT int64_t FindLastRecordEnd(const char* data, int64_t from, int64_t size, char quote,
                                        bool* in_quote, bool lone_cr = true);

}  // namespace alkaid::text::internal
