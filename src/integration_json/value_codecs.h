// Single values of integration JSON decoded from pull-parser tokens (one
// codec per kind of value), and the growing pool buffers the column reader
// decodes them into.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/memory.h"
#include "alkaid/type.h"
#include "integration_internal.h"
#include "json_pull_parser.h"

namespace alkaid::integration_json::internal {

// ---------------------------------------------------------------------------
// Single values, decoded from tokens

// Integers come as JSON numbers or as decimal strings (the format writes
// 64-bit values as strings so that no reader loses precision).
template <typename T>
bool DecodeInteger(JsonToken token, std::string_view text, bool is_integer, T* out) {
  if (token == JsonToken::kNumber) {
    if (!is_integer) return false;
    if constexpr (std::is_unsigned_v<T>) {
      // "-0" is zero.
      if (text[0] == '-') {
        if (text.find_first_not_of("-0") != std::string_view::npos) return false;
        *out = 0;
        return true;
      }
    }
    auto res = std::from_chars(text.data(), text.data() + text.size(), *out);
    return res.ec == std::errc() && res.ptr == text.data() + text.size();
  }
  if (token == JsonToken::kString) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    auto res = std::from_chars(begin, end, *out);
    return res.ec == std::errc() && res.ptr == end && begin != end;
  }
  return false;
}

template <typename T>
bool DecodeIntegerMember(const Json& obj, const char* key, T* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return false;
  if (it->is_number_unsigned()) {
    const uint64_t u = it->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    *out = static_cast<T>(u);
    return true;
  }
  if (it->is_number_integer()) {
    const int64_t s = it->get<int64_t>();
    if (s < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        s > static_cast<int64_t>(std::numeric_limits<T>::max()))
      return false;
    *out = static_cast<T>(s);
    return true;
  }
  if (it->is_string()) {
    const std::string& text = it->get_ref<const std::string&>();
    return DecodeInteger(JsonToken::kString, text, true, out);
  }
  return false;
}

// A codec reads one element whose first token is given; it returns false
// (having consumed nothing beyond that token) when the value does not fit.
template <typename T>
struct IntegerCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, T* out) {
    return DecodeInteger(t, p->text(), p->is_integer(), out);
  }
  static std::string Expectation() {
    return "an integer in [" + std::to_string(std::numeric_limits<T>::min()) + ", " +
           std::to_string(std::numeric_limits<T>::max()) + "]";
  }
};

template <typename T>
struct FloatCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, T* out) {
    if (t != JsonToken::kNumber) return false;
    auto value = NumberAsDouble(p->text());
    if (!value.ok()) return false;
    *out = static_cast<T>(*value);
    return true;
  }
  static std::string Expectation() { return "a number"; }
};

struct HalfFloatCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, uint16_t* out) {
    double value = 0;
    ALKAID_ASSIGN_OR_RAISE(bool ok, FloatCodec<double>::Decode(p, t, &value));
    if (ok) *out = FloatToHalf(static_cast<float>(value));
    return ok;
  }
  static std::string Expectation() { return "a number"; }
};

struct BoolCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, bool* out) {
    if (t == JsonToken::kTrue || t == JsonToken::kFalse) {
      *out = t == JsonToken::kTrue;
      return true;
    }
    int64_t v;
    if (t == JsonToken::kNumber && DecodeInteger(t, p->text(), p->is_integer(), &v) && (v == 0 || v == 1)) {
      *out = v == 1;
      return true;
    }
    return false;
  }
  static std::string Expectation() { return "true, false, 0 or 1"; }
};

// Interval objects are small: read as a DOM and checked member by member by
// members(v), which decodes them. Not an object: false.
template <typename Members>
Result<bool> DecodeSmallObject(JsonPullParser* p, JsonToken t, const std::string& expectation,
                               Members&& members) {
  if (t != JsonToken::kBeginObject) return false;
  Json v;
  ALKAID_RETURN_NOT_OK(p->ReadDom(t, &v));
  if (members(v)) return true;
  return Status::Invalid("expected ", expectation, ", got ", v.dump().substr(0, 60));
}

struct DayTimeCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, DayTimeInterval* out) {
    return DecodeSmallObject(p, t, Expectation(), [&](const Json& v) {
      return v.size() == 2 && DecodeIntegerMember(v, "days", &out->days) &&
             DecodeIntegerMember(v, "milliseconds", &out->milliseconds);
    });
  }
  static std::string Expectation() { return "an object {days, milliseconds} of 32-bit integers"; }
};

struct MonthDayNanoCodec {
  static Result<bool> Decode(JsonPullParser* p, JsonToken t, MonthDayNanoInterval* out) {
    return DecodeSmallObject(p, t, Expectation(), [&](const Json& v) {
      return v.size() == 3 && DecodeIntegerMember(v, "months", &out->months) &&
             DecodeIntegerMember(v, "days", &out->days) &&
             DecodeIntegerMember(v, "nanoseconds", &out->nanoseconds);
    });
  }
  static std::string Expectation() {
    return "an object {months, days, nanoseconds} (32, 32 and 64-bit integers)";
  }
};

// The codec that reads a value of each fixed-width type with a C type.
template <typename T>
auto CodecFor() {
  using C = typename T::c_type;
  if constexpr (std::is_same_v<T, HalfFloatType>) {
    return HalfFloatCodec{};
  } else if constexpr (std::is_same_v<C, DayTimeInterval>) {
    return DayTimeCodec{};
  } else if constexpr (std::is_same_v<C, MonthDayNanoInterval>) {
    return MonthDayNanoCodec{};
  } else if constexpr (std::is_floating_point_v<C>) {
    return FloatCodec<C>{};
  } else {
    return IntegerCodec<C>{};
  }
}

// ---------------------------------------------------------------------------
// Growing buffers

// Bytes appended to a pool buffer that doubles as it fills.
class GrowingBuffer {
 public:
  Status Reserve(int64_t more) {
    if (buffer_ == nullptr) buffer_ = std::make_shared<ResizableBuffer>(default_memory_pool());
    const int64_t need = size_ + more;
    if (need <= buffer_->size()) return Status::OK();
    return buffer_->Resize(std::max<int64_t>({need, 2 * buffer_->size(), 64}));
  }
  template <typename C>
  Status Append(const C& value) {
    if (buffer_ == nullptr || size_ + static_cast<int64_t>(sizeof(C)) > buffer_->size())
      ALKAID_RETURN_NOT_OK(Reserve(sizeof(C)));
    std::memcpy(buffer_->mutable_data() + size_, &value, sizeof(C));
    size_ += sizeof(C);
    return Status::OK();
  }
  // Room for `n` bytes at the end, which the caller fills.
  Result<uint8_t*> Extend(int64_t n) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    uint8_t* out = buffer_->mutable_data() + size_;
    size_ += n;
    return out;
  }
  int64_t size() const { return size_; }
  const uint8_t* data() const { return buffer_ ? buffer_->data() : nullptr; }
  Result<BufferPtr> Finish() {
    ALKAID_RETURN_NOT_OK(Reserve(0));
    ALKAID_RETURN_NOT_OK(buffer_->Resize(size_, /*shrink_to_fit=*/true));
    return BufferPtr(std::move(buffer_));
  }

 private:
  std::shared_ptr<ResizableBuffer> buffer_;
  int64_t size_ = 0;
};

class GrowingBitmap {
 public:
  Status Reserve(int64_t bits) { return bytes_.Reserve(bit_util::BytesForBits(length_ + bits) - bytes_.size()); }
  Status Append(bool bit) {
    if (length_ % 8 == 0) ALKAID_RETURN_NOT_OK(bytes_.Append(uint8_t{0}));
    if (bit) {
      bit_util::SetBit(const_cast<uint8_t*>(bytes_.data()), length_);
      ++set_;
    }
    ++length_;
    return Status::OK();
  }
  int64_t length() const { return length_; }
  int64_t set_count() const { return set_; }
  Result<BufferPtr> Finish() { return bytes_.Finish(); }

 private:
  GrowingBuffer bytes_;
  int64_t length_ = 0;
  int64_t set_ = 0;
};

}  // namespace alkaid::integration_json::internal
