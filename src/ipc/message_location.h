// Internal: where a message sits in an IPC input, for error messages
// ("stream message 3 at byte 128: ..."). Not installed.
#pragma once

#include <cstdint>
#include <string>

#include "alkaid/status.h"

namespace alkaid::ipc::internal {

// Where a message sits in the input.
struct MessageLocation {
  const char* kind = "message";  // e.g. "stream message", "record batch block"
  int64_t index = 0;
  int64_t byte_offset = -1;  // -1: unknown
  std::string ToString() const;
};

// Prefixes an error with its location.
Status AtLocationSlow(const Status& st, const MessageLocation& where);
inline Status AtLocation(const Status& st, const MessageLocation& where) {
  return st.ok() ? Status::OK() : AtLocationSlow(st, where);
}

}  // namespace alkaid::ipc::internal
