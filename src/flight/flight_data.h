// FlightData on the wire, without protobuf's generated class: the data path of DoGet, DoPut
// and DoExchange serializes and parses this type itself so that body bytes are neither copied
// on send (each body buffer becomes a gRPC slice over alkaid memory) nor, when gRPC hands the
// body over in one aligned slice, on receive.
//
// Field numbers (format/Flight.proto): 1 flight_descriptor, 2 data_header, 3 app_metadata,
// 1000 data_body. All four are length-delimited.
#pragma once

#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/impl/codegen/serialization_traits.h>
#include <grpcpp/support/status.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::flight::wire {

/// One FlightData message. On send, `body` lists the buffers whose concatenation is the
/// body; on receive it holds exactly one buffer (or none when the body is empty).
struct FlightData {
  /// The FlightDescriptor message's protobuf bytes; unset when the field is absent.
  std::optional<std::string> descriptor;
  /// The IPC Message flatbuffer alone; null when absent (metadata-only messages).
  BufferPtr data_header;
  /// Application metadata; null when absent.
  BufferPtr app_metadata;
  std::vector<BufferPtr> body;
  /// Set on receive when the bytes did not parse. The parse itself always "succeeds" towards
  /// gRPC: a failed deserialization in gRPC's sync API looks exactly like the end of the
  /// stream, and the Flight handlers must tell a malformed message from a clean half-close.
  Status parse_status;

  int64_t body_length() const;
};

/// Serializes `data` into `out`: the tags, the descriptor, header and app metadata are copied
/// into one small slice; every body buffer becomes its own slice that references the buffer
/// and releases it when gRPC is done with it.
ALKAID_EXPORT Status SerializeFlightData(const FlightData& data, grpc::ByteBuffer* out);

/// Parses a received message. Every length is checked against the bytes that remain; unknown
/// fields are skipped; a field of a group wire type is an error. The header and the body point
/// into gRPC's slice when they lie inside one slice at an 8-byte aligned address, and are
/// copied into a fresh aligned alkaid buffer otherwise. Errors say what was wrong and at which
/// byte offset.
ALKAID_EXPORT Result<FlightData> ParseFlightData(const grpc::ByteBuffer& in);

/// What gRPC's Deserialize does with a received message: refuses one over
/// ReceiveLimitOfThisThread(), inflates one that arrived gRPC-compressed (gzip or deflate)
/// stopping as soon as the output passes that limit, then parses it. Failures land in
/// parse_status. Clears `buffer`.
///
/// The server and the client turn gRPC's own inflation off
/// (GRPC_ARG_ENABLE_PER_MESSAGE_DECOMPRESSION = 0): gRPC 1.51 inflates a whole message before
/// it compares the size with the receive limit (a message of a few hundred kilobytes can make
/// it allocate gigabytes), and a message it refuses then ends the sync API's reads exactly
/// like a clean half-close, so a DoPut handler could take a cut-off upload for a whole one.
/// (Other RPCs' protobuf messages are refused when a peer compresses them.)
ALKAID_EXPORT FlightData ReceiveFlightData(grpc::ByteBuffer* buffer);

/// The largest FlightData this thread accepts (negative: no limit). The server sets it on the
/// handler's thread, where gRPC's sync API deserializes what the handler reads: a message over
/// it becomes a parse error the handler sees, deterministically. (When gRPC refuses a message
/// itself, the handler's read just ends, and whether the call shows as cancelled yet is a
/// race: a partial upload could look complete.)
ALKAID_EXPORT void SetReceiveLimitOfThisThread(int64_t max_bytes);
ALKAID_EXPORT int64_t ReceiveLimitOfThisThread();

/// Sets this thread's receive limit for its lifetime (the client's reads), then puts back the
/// previous one (a client used inside a server handler leaves the handler's limit alone).
class ScopedReceiveLimit {
 public:
  explicit ScopedReceiveLimit(int64_t max_bytes) : previous_(ReceiveLimitOfThisThread()) {
    SetReceiveLimitOfThisThread(max_bytes);
  }
  ~ScopedReceiveLimit() { SetReceiveLimitOfThisThread(previous_); }
  ScopedReceiveLimit(const ScopedReceiveLimit&) = delete;
  ScopedReceiveLimit& operator=(const ScopedReceiveLimit&) = delete;

 private:
  int64_t previous_;
};

/// Counts of body bytes handled since the process started, for the tests that prove the send
/// path copies nothing and the receive path copies only what it must.
struct CopyCounters {
  int64_t body_bytes_referenced_on_send = 0;
  int64_t body_bytes_copied_on_receive = 0;
  int64_t body_bytes_referenced_on_receive = 0;
};
ALKAID_EXPORT CopyCounters GetCopyCounters();

}  // namespace alkaid::flight::wire

// gRPC names this class a friend of ByteBuffer for code that needs the C buffer underneath;
// alkaid needs it to see whether a message arrived still compressed (and with which codec),
// and its tests to send a message that is compressed already.
namespace grpc::internal {
class GrpcByteBufferPeer {
 public:
  explicit GrpcByteBufferPeer(ByteBuffer* buffer) : buffer_(buffer) {}
  grpc_byte_buffer* c_buffer() { return buffer_->c_buffer(); }
  void set_buffer(grpc_byte_buffer* taken) { buffer_->set_buffer(taken); }

 private:
  ByteBuffer* buffer_;
};
}  // namespace grpc::internal

namespace grpc {

// Lets gRPC's sync API carry wire::FlightData in the data methods.
template <>
class SerializationTraits<alkaid::flight::wire::FlightData, void> {
 public:
  static Status Serialize(const alkaid::flight::wire::FlightData& data, ByteBuffer* buffer,
                          bool* own_buffer) {
    *own_buffer = true;
    alkaid::Status st = alkaid::flight::wire::SerializeFlightData(data, buffer);
    if (!st.ok()) return Status(StatusCode::INTERNAL, st.ToString());
    return Status::OK;
  }
  static Status Deserialize(ByteBuffer* buffer, alkaid::flight::wire::FlightData* data) {
    // Always "succeeds" towards gRPC (see FlightData::parse_status).
    *data = alkaid::flight::wire::ReceiveFlightData(buffer);
    return Status::OK;
  }
};

}  // namespace grpc
