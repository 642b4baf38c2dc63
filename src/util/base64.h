// Base64 (RFC 4648, standard alphabet), for the formats that carry binary in text: the
// Parquet footer's ARROW:schema key and Flight's Basic credentials. Safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::internal {

/// Standard base64 with padding.
ALKAID_EXPORT std::string Base64Encode(std::string_view bytes);
/// Decodes standard base64; padding may be omitted. Invalid on any other character and on a
/// length no encoding has (one character past a multiple of four).
ALKAID_EXPORT Result<std::string> Base64Decode(std::string_view text);

}  // namespace alkaid::internal
