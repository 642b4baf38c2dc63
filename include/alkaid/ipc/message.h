/// @file
/// IPC messages one at a time, for transports that frame messages themselves.
///
/// The stream and file formats put a continuation marker and a length before
/// each message's metadata. Message-oriented transports (Arrow Flight carries a
/// message's metadata flatbuffer and its body in two fields of one FlightData)
/// need the parts without that framing: MessageEncoder produces them without
/// copying body bytes, MessageDecoder takes them back with the checks every
/// alkaid reader applies (flatbuffer verifier, buffer and node checks,
/// validation, the memory budget of IpcReadOptions).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/memory.h"
#include "alkaid/table.h"
#include "alkaid/visibility.h"

namespace alkaid::ipc {

/// What an encoded message holds (the header union of the Message flatbuffer).
enum class MessageKind : int8_t {
  kSchema,
  kDictionaryBatch,
  kRecordBatch,
};

/// One IPC message split the way message-oriented transports carry it.
struct ALKAID_EXPORT EncodedMessage {
  /// Which kind of message this is.
  MessageKind kind = MessageKind::kSchema;
  /// The Message flatbuffer alone: no continuation marker, no length prefix,
  /// no padding after it.
  BufferPtr metadata;
  /// The body, as buffers whose concatenation is the body the metadata
  /// describes (alignment padding included). Each one shares memory with the
  /// arrays of the encoded batch, with compression output owned by this
  /// message, or with a static block of zeros: nothing of the batch is copied.
  /// Holding the message keeps that memory alive.
  std::vector<BufferPtr> body;
  /// The sum of the sizes of `body`, equal to the metadata's bodyLength.
  int64_t body_length = 0;
};

/// Encodes a schema and record batches as messages: the schema message, then
/// for each batch the dictionary batches it needs (new, delta or replacement,
/// as IpcWriteOptions says) followed by the batch. The same messages a stream
/// writer would write, without the framing. Calls on one encoder must not
/// overlap; separate encoders are independent.
class ALKAID_EXPORT MessageEncoder {
 public:
  /// An encoder for batches of `schema`; fails on options it cannot honour.
  static Result<std::unique_ptr<MessageEncoder>> Make(
      SchemaPtr schema, const IpcWriteOptions& options = IpcWriteOptions::Defaults());
  virtual ~MessageEncoder() = default;

  /// The schema message (no body).
  virtual Result<EncodedMessage> EncodeSchema() = 0;
  /// Appends to `out` the dictionary messages `batch` needs, then the batch
  /// message. The batch's schema must equal the encoder's. On error `out` is
  /// left as it was; an error found after the batch's dictionaries were
  /// encoded (the encoder's dictionary state moved on) makes every later call
  /// fail too.
  virtual Status EncodeBatch(const RecordBatch& batch, std::vector<EncodedMessage>* out) = 0;
  /// Counters as a stream writer keeps them (bytes_written counts framed bytes).
  virtual WriteStats stats() const = 0;
};

/// Decodes messages handed over one at a time: a schema message first, then
/// dictionary and record batch messages. Keeps dictionary state (replacement,
/// delta, nested) across messages. One thread at a time.
class ALKAID_EXPORT MessageDecoder {
 public:
  /// What one message completed.
  struct Decoded {
    /// The kind of the message consumed.
    MessageKind kind = MessageKind::kSchema;
    /// Set for kSchema.
    SchemaPtr schema;
    /// Set for kRecordBatch.
    RecordBatchPtr batch;
  };

  /// A decoder with no schema yet.
  static Result<std::unique_ptr<MessageDecoder>> Make(
      const IpcReadOptions& options = IpcReadOptions::Defaults());
  virtual ~MessageDecoder() = default;

  /// `metadata` is the Message flatbuffer alone (any alignment: copied when
  /// misaligned); `body` the whole body, exactly the metadata's bodyLength
  /// bytes (a shorter or longer body is an error; null when it says 0). Body buffers of the batch point into `body` when it is aligned to
  /// 8 bytes and not compressed, and are copied otherwise. Errors name the
  /// message by its index in the sequence. After an error every call fails.
  virtual Result<Decoded> Consume(const BufferPtr& metadata, const BufferPtr& body) = 0;

  /// The schema, once the first message has been consumed.
  virtual const SchemaPtr& schema() const = 0;
  /// Counters as a stream reader keeps them.
  virtual ReadStats stats() const = 0;
};

}  // namespace alkaid::ipc
