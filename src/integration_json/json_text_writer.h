// JSON text written piece by piece into a fixed buffer that is handed to an
// io::OutputStream whenever it fills, laid out exactly as nlohmann's
// dump(2, ' ', ensure_ascii) lays out a whole document: two-space
// indentation, one member or element per line, "[]" and "{}" when empty,
// non-ASCII and control characters escaped as lower-case \uXXXX. Writing a
// value therefore costs the buffer, never a document.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/io/output.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"
#include "integration_internal.h"

namespace alkaid::integration_json::internal {

class ALKAID_EXPORT JsonTextWriter {
 public:
  // The largest piece Reserve() hands out at once.
  static constexpr size_t kMaxReserve = size_t{64} << 10;

  // `sink` must outlive the writer. `level` is the nesting level of the first
  // value written (its members are indented by level + 1 steps).
  explicit JsonTextWriter(io::OutputStream* sink, int level = 0,
                          size_t buffer_size = size_t{256} << 10);

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // A member's key (escaped like a string, so Invalid when not UTF-8); the
  // member's value follows.
  Status Key(std::string_view key);
  // A key of the format itself ("count", "DATA", ...): nothing to escape.
  void PlainKey(std::string_view key);

  // Scalars: a member's value after Key(), an array element, or the document.
  void Int(int64_t value);
  void UInt(uint64_t value);
  // 64-bit integers go out as decimal strings in integration JSON.
  void QuotedInt(int64_t value);
  void QuotedUInt(uint64_t value);
  // Printed as nlohmann prints a double (shortest round-trip digits, always
  // with a fraction or an exponent); `value` must be finite.
  void Double(double value);
  void Bool(bool value);
  void Null();
  // A string of UTF-8 text, escaped; Invalid when the bytes are not UTF-8.
  Status String(std::string_view text);
  // Upper-case hex of `size` bytes, as a string.
  void HexString(const uint8_t* data, int64_t size);
  // A string whose characters need no escaping (digits, hex, names we made).
  void PlainString(std::string_view text);
  // A whole nlohmann value (schemas), laid out the same way.
  Status Dom(const OrderedJson& value);

  // Sends what is buffered to the sink.
  Status Flush();
  // The first error of the sink; once set, output is dropped.
  const Status& status() const { return status_; }
  // Bytes of text produced so far (buffered or flushed).
  int64_t bytes_produced() const { return flushed_ + static_cast<int64_t>(used_); }

 private:
  // Room for `n` <= kMaxReserve bytes at the end of the buffer.
  char* Reserve(size_t n) {
    if (buffer_.size() - used_ < n) FlushForRoom();
    return buffer_.data() + used_;
  }
  void Commit(char* end) { used_ = static_cast<size_t>(end - buffer_.data()); }
  void Append(std::string_view text);
  void FlushForRoom();
  // The separator and indentation that precede a value in an array.
  void BeforeValue() {
    if (!open_.empty() && !open_.back().is_object) Separate();
  }
  void Separate();
  void Indent(char* out, size_t depth) const;
  void Open(char bracket, bool is_object);
  void Close(char bracket);

  struct Container {
    bool is_object;
    bool empty;
  };

  io::OutputStream* sink_;
  std::vector<char> buffer_;
  size_t used_ = 0;
  int64_t flushed_ = 0;
  Status status_;
  int base_level_;
  std::vector<Container> open_;
};

}  // namespace alkaid::integration_json::internal
