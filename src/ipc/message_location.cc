#include "message_location.h"

namespace alkaid::ipc::internal {

std::string MessageLocation::ToString() const {
  std::string out = std::string(kind) + " " + std::to_string(index);
  if (byte_offset >= 0) out += " at byte " + std::to_string(byte_offset);
  return out;
}

Status AtLocationSlow(const Status& st, const MessageLocation& where) {
  return st.WithContext(where.ToString());
}

}  // namespace alkaid::ipc::internal
