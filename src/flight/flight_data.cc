// FlightData serialization by hand (see flight_data.h for why).
#include "flight_data.h"

#include "receive_buffer.h"

#include <grpc/byte_buffer.h>
#include <grpcpp/support/slice.h>
#include <zlib.h>

#include <atomic>
#include <climits>
#include <cstring>


namespace alkaid::flight::wire {

namespace {

constexpr uint32_t kDescriptorField = 1;
constexpr uint32_t kHeaderField = 2;
constexpr uint32_t kAppMetadataField = 3;
constexpr uint32_t kBodyField = 1000;
constexpr uint32_t kLengthDelimited = 2;

std::atomic<int64_t> g_referenced_on_send{0};
std::atomic<int64_t> g_copied_on_receive{0};
std::atomic<int64_t> g_referenced_on_receive{0};

void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void PutLengthDelimited(uint32_t field, const uint8_t* data, size_t size, std::string* out) {
  PutVarint((uint64_t{field} << 3) | kLengthDelimited, out);
  PutVarint(size, out);
  out->append(reinterpret_cast<const char*>(data), size);
}

// gRPC calls this when it no longer needs a body slice: drops the reference the slice held.
void ReleaseBuffer(void* user_data) { delete static_cast<BufferPtr*>(user_data); }

// A cursor over the slices of a received message, as one logical byte sequence.
class SliceCursor {
 public:
  explicit SliceCursor(std::vector<grpc::Slice> slices) : slices_(std::move(slices)) {
    for (const auto& s : slices_) total_ += static_cast<int64_t>(s.size());
    Skip0();
  }

  int64_t offset() const { return offset_; }
  int64_t remaining() const { return total_ - offset_; }

  Result<uint64_t> ReadVarint(const char* what) {
    uint64_t value = 0;
    int64_t start = offset_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (remaining() == 0) {
        return Status::SerializationError("FlightData: truncated varint (", what,
                                          ") at byte ", start);
      }
      uint8_t byte = Next();
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return Status::SerializationError("FlightData: varint (", what, ") at byte ", start,
                                      " is longer than 10 bytes");
  }

  Status Skip(int64_t n) {
    while (n > 0) {
      int64_t here = std::min<int64_t>(n, static_cast<int64_t>(slices_[index_].size()) - pos_);
      pos_ += here;
      offset_ += here;
      n -= here;
      Skip0();
    }
    return Status::OK();
  }

  // `n` bytes (n <= remaining()) as a buffer: a view into the slice when the bytes lie inside
  // one slice at an 8-byte aligned address, else a copy into a fresh pool buffer.
  Result<BufferPtr> Take(int64_t n, bool is_body) {
    if (n == 0) return std::make_shared<Buffer>(nullptr, 0);
    const grpc::Slice& slice = slices_[index_];
    const uint8_t* start = slice.begin() + pos_;
    if (static_cast<int64_t>(slice.size()) - pos_ >= n &&
        reinterpret_cast<uintptr_t>(start) % 8 == 0) {
      // Small slices keep their bytes inline in the slice object, so the view must point into
      // the copy that the buffer keeps, not into the cursor's.
      auto holder = std::make_shared<grpc::Slice>(slice);
      const uint8_t* kept = holder->begin() + pos_;
      auto buffer = std::make_shared<Buffer>(kept, n, std::move(holder));
      if (is_body) g_referenced_on_receive.fetch_add(n, std::memory_order_relaxed);
      ALKAID_RETURN_NOT_OK(Skip(n));
      return buffer;
    }
    // Every byte is written below: no zero fill first (it doubled the cost of this copy), and
    // large blocks are reused rather than faulted in afresh (see receive_buffer.h).
    uint8_t* dst = nullptr;
    ALKAID_ASSIGN_OR_RAISE(BufferPtr buffer, AllocateReceiveBuffer(n, &dst));
    int64_t left = n;
    while (left > 0) {
      const grpc::Slice& s = slices_[index_];
      int64_t here = std::min<int64_t>(left, static_cast<int64_t>(s.size()) - pos_);
      std::memcpy(dst, s.begin() + pos_, static_cast<size_t>(here));
      dst += here;
      left -= here;
      ALKAID_RETURN_NOT_OK(Skip(here));
    }
    if (is_body) g_copied_on_receive.fetch_add(n, std::memory_order_relaxed);
    return buffer;
  }

 private:
  uint8_t Next() {
    uint8_t b = slices_[index_].begin()[pos_];
    ++pos_;
    ++offset_;
    Skip0();
    return b;
  }
  // Moves past exhausted (and empty) slices.
  void Skip0() {
    while (index_ < slices_.size() && pos_ >= static_cast<int64_t>(slices_[index_].size())) {
      ++index_;
      pos_ = 0;
    }
  }

  std::vector<grpc::Slice> slices_;
  size_t index_ = 0;
  int64_t pos_ = 0;
  int64_t offset_ = 0;
  int64_t total_ = 0;
};

}  // namespace

int64_t FlightData::body_length() const {
  int64_t n = 0;
  for (const auto& b : body) n += b ? b->size() : 0;
  return n;
}

Status SerializeFlightData(const FlightData& data, grpc::ByteBuffer* out) {
  std::string prefix;
  if (data.descriptor) {
    PutLengthDelimited(kDescriptorField, reinterpret_cast<const uint8_t*>(data.descriptor->data()),
                       data.descriptor->size(), &prefix);
  }
  if (data.data_header) {
    PutLengthDelimited(kHeaderField, data.data_header->data(),
                       static_cast<size_t>(data.data_header->size()), &prefix);
  }
  if (data.app_metadata) {
    PutLengthDelimited(kAppMetadataField, data.app_metadata->data(),
                       static_cast<size_t>(data.app_metadata->size()), &prefix);
  }
  int64_t body_length = data.body_length();
  // gRPC's message lengths are 32-bit; a bigger message could not be sent anyway.
  if (body_length + static_cast<int64_t>(prefix.size()) > (int64_t{1} << 31) - 1 - 16) {
    return Status::CapacityError("FlightData of ", body_length,
                                 " body bytes is over gRPC's 2 GiB message limit");
  }
  std::vector<grpc::Slice> slices;
  slices.reserve(1 + data.body.size());
  if (body_length > 0) {
    PutVarint((uint64_t{kBodyField} << 3) | kLengthDelimited, &prefix);
    PutVarint(static_cast<uint64_t>(body_length), &prefix);
  }
  slices.emplace_back(prefix);
  if (body_length > 0) {
    for (const auto& b : data.body) {
      if (!b || b->size() == 0) continue;
      // The slice owns a heap-allocated reference to the buffer; ReleaseBuffer drops it.
      auto* ref = new BufferPtr(b);
      slices.emplace_back(const_cast<uint8_t*>(b->data()), static_cast<size_t>(b->size()),
                          &ReleaseBuffer, ref);
    }
    g_referenced_on_send.fetch_add(body_length, std::memory_order_relaxed);
  }
  grpc::ByteBuffer bb(slices.data(), slices.size());
  out->Swap(&bb);
  return Status::OK();
}

Result<FlightData> ParseFlightData(const grpc::ByteBuffer& in) {
  std::vector<grpc::Slice> slices;
  grpc::Status dumped = in.Dump(&slices);
  if (!dumped.ok()) {
    return Status::IOError("FlightData: gRPC could not hand over the message: ",
                           dumped.error_message());
  }
  SliceCursor cursor(std::move(slices));
  FlightData data;
  while (cursor.remaining() > 0) {
    int64_t key_offset = cursor.offset();
    ALKAID_ASSIGN_OR_RAISE(uint64_t key, cursor.ReadVarint("field key"));
    uint64_t field = key >> 3;
    uint32_t wire_type = static_cast<uint32_t>(key & 7);
    if (field == 0) {
      return Status::SerializationError("FlightData: field number 0 at byte ", key_offset);
    }
    switch (wire_type) {
      case 0:
        ALKAID_RETURN_NOT_OK(cursor.ReadVarint("unknown field").status());
        continue;
      case 1:
      case 5: {
        int64_t n = wire_type == 1 ? 8 : 4;
        if (cursor.remaining() < n) {
          return Status::SerializationError("FlightData: field ", field, " at byte ", key_offset,
                                            " needs ", n, " bytes, ", cursor.remaining(),
                                            " remain");
        }
        ALKAID_RETURN_NOT_OK(cursor.Skip(n));
        continue;
      }
      case 2:
        break;
      default:
        return Status::SerializationError("FlightData: field ", field, " at byte ", key_offset,
                                          " has wire type ", wire_type,
                                          " (groups and unknown types are not accepted)");
    }
    ALKAID_ASSIGN_OR_RAISE(uint64_t length, cursor.ReadVarint("field length"));
    if (length > static_cast<uint64_t>(cursor.remaining())) {
      return Status::SerializationError("FlightData: field ", field, " at byte ", key_offset,
                                        " claims ", length, " bytes but only ",
                                        cursor.remaining(), " remain");
    }
    auto n = static_cast<int64_t>(length);
    switch (field) {
      case kDescriptorField: {
        ALKAID_ASSIGN_OR_RAISE(auto bytes, cursor.Take(n, false));
        data.descriptor = std::string(bytes->view());
        break;
      }
      case kHeaderField: {
        ALKAID_ASSIGN_OR_RAISE(data.data_header, cursor.Take(n, false));
        break;
      }
      case kAppMetadataField: {
        ALKAID_ASSIGN_OR_RAISE(data.app_metadata, cursor.Take(n, false));
        break;
      }
      case kBodyField: {
        ALKAID_ASSIGN_OR_RAISE(auto body, cursor.Take(n, true));
        data.body.clear();
        if (n > 0) data.body.push_back(std::move(body));
        break;
      }
      default:
        ALKAID_RETURN_NOT_OK(cursor.Skip(n));
    }
  }
  return data;
}

namespace {
thread_local int64_t t_receive_limit = -1;

// Inflates a gzip or deflate message, never holding more than limit + 1 output bytes: the
// cap holds while inflating, so a small message cannot make the receiver allocate more.
Result<BufferPtr> Inflate(grpc::ByteBuffer* in, grpc_compression_algorithm algorithm,
                          int64_t limit) {
  int window_bits;
  if (algorithm == GRPC_COMPRESS_GZIP) {
    window_bits = 15 + 16;
  } else if (algorithm == GRPC_COMPRESS_DEFLATE) {
    window_bits = 15;
  } else {
    return Status::NotImplemented("FlightData compressed with gRPC algorithm ",
                                  static_cast<int>(algorithm), " (only gzip and deflate)");
  }
  std::vector<grpc::Slice> slices;
  grpc::Status dumped = in->Dump(&slices);
  if (!dumped.ok()) {
    return Status::IOError("FlightData: gRPC could not hand over the message: ",
                           dumped.error_message());
  }
  const int64_t cap = limit < 0 ? (int64_t{1} << 31) : limit + 1;
  ALKAID_ASSIGN_OR_RAISE(auto out, AllocateBuffer(0));
  int64_t capacity = std::min<int64_t>(cap, std::max<int64_t>(64 << 10, 4 * in->Length()));
  ALKAID_RETURN_NOT_OK(out->ResizeForOverwrite(capacity));
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return Status::OutOfMemory("zlib inflateInit2");
  int64_t produced = 0;
  int rc = Z_OK;
  size_t next_slice = 0;
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0) {
      if (next_slice == slices.size()) break;  // truncated: reported below
      const grpc::Slice& s = slices[next_slice++];
      z.next_in = const_cast<Bytef*>(s.begin());
      z.avail_in = static_cast<uInt>(s.size());
      continue;
    }
    if (produced == capacity) {
      if (capacity == cap) break;  // over the limit: reported below
      capacity = std::min(cap, capacity * 2);
      Status st = out->Resize(capacity);
      if (!st.ok()) {
        inflateEnd(&z);
        return st;
      }
    }
    z.next_out = out->mutable_data() + produced;
    z.avail_out = static_cast<uInt>(std::min<int64_t>(capacity - produced, UINT_MAX));
    uInt before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    produced += before - z.avail_out;
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      std::string why = z.msg ? z.msg : "corrupt data";
      inflateEnd(&z);
      return Status::SerializationError("FlightData: the gRPC-compressed message does not "
                                        "inflate: ", why);
    }
  }
  bool trailing = z.avail_in > 0;
  for (size_t i = next_slice; i < slices.size(); ++i) trailing = trailing || slices[i].size() > 0;
  inflateEnd(&z);
  if (produced > limit && limit >= 0) {
    return Status::CapacityError("FlightData inflates past the receive limit of ", limit,
                                 " bytes (", in->Length(), " bytes compressed)");
  }
  if (rc != Z_STREAM_END) {
    return Status::SerializationError("FlightData: the gRPC-compressed message is truncated");
  }
  if (trailing) {
    return Status::SerializationError(
        "FlightData: bytes follow the end of the gRPC-compressed message");
  }
  ALKAID_RETURN_NOT_OK(out->Resize(produced));
  return BufferPtr(std::move(out));
}

FlightData ParseFailure(Status st) {
  FlightData data;
  data.parse_status = std::move(st);
  return data;
}

}  // namespace

FlightData ReceiveFlightData(grpc::ByteBuffer* buffer) {
  const int64_t limit = t_receive_limit;
  grpc_byte_buffer* c = grpc::internal::GrpcByteBufferPeer(buffer).c_buffer();
  grpc_compression_algorithm algorithm =
      c != nullptr && c->type == GRPC_BB_RAW ? c->data.raw.compression : GRPC_COMPRESS_NONE;
  if (algorithm != GRPC_COMPRESS_NONE) {
    auto inflated = Inflate(buffer, algorithm, limit);
    buffer->Clear();
    if (!inflated.ok()) return ParseFailure(inflated.status());
    // The inflated bytes become one slice over the alkaid buffer, so the body is used in place.
    auto* ref = new BufferPtr(*inflated);
    grpc::Slice slice(const_cast<uint8_t*>((*inflated)->data()),
                      static_cast<size_t>((*inflated)->size()), &ReleaseBuffer, ref);
    grpc::ByteBuffer plain(&slice, 1);
    auto parsed = ParseFlightData(plain);
    return parsed.ok() ? std::move(*parsed) : ParseFailure(parsed.status());
  }
  if (limit >= 0 && static_cast<int64_t>(buffer->Length()) > limit) {
    int64_t length = static_cast<int64_t>(buffer->Length());
    buffer->Clear();
    return ParseFailure(Status::CapacityError("FlightData of ", length,
                                              " bytes is over the receive limit of ", limit,
                                              " bytes"));
  }
  auto parsed = ParseFlightData(*buffer);
  buffer->Clear();
  return parsed.ok() ? std::move(*parsed) : ParseFailure(parsed.status());
}

void SetReceiveLimitOfThisThread(int64_t max_bytes) { t_receive_limit = max_bytes; }
int64_t ReceiveLimitOfThisThread() { return t_receive_limit; }

CopyCounters GetCopyCounters() {
  CopyCounters c;
  c.body_bytes_referenced_on_send = g_referenced_on_send.load(std::memory_order_relaxed);
  c.body_bytes_copied_on_receive = g_copied_on_receive.load(std::memory_order_relaxed);
  c.body_bytes_referenced_on_receive = g_referenced_on_receive.load(std::memory_order_relaxed);
  return c;
}

}  // namespace alkaid::flight::wire
