// Internal: the IPC Flatbuffers metadata of record batch and dictionary
// batch headers, message verification, the write side of the byte framing of
// encapsulated messages and the file footer. Shared by the IPC writers and
// readers; not installed. The schema codec is in schema_codec.h (included
// here), the read side of the framing in message_framer.h.
//
// Message framing (current format):
//   0xFFFFFFFF | int32 LE N | N bytes: Message flatbuffer + zero padding | body
// N counts the padding, and 8 + N is a multiple of 8. The legacy (pre-0.15)
// framing drops the 0xFFFFFFFF marker: int32 N | N bytes, 4 + N a multiple
// of 8. End of stream: 0xFFFFFFFF 00000000 (legacy: 00000000).
//
// Body layout: the IPC buffers of one array are exactly its ArrayData
// buffers in DataType::layout() order (null and run-end encoded: none;
// unions: type ids (+ offsets), no validity; views: validity, views, then
// the variadic data buffers, counted in variadicBufferCounts; dictionary
// arrays: their indices' validity + values). Arrays are visited in
// depth-first pre-order, one FieldNode per array.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/fbs/File_generated.h"
#include "alkaid/fbs/Message_generated.h"
#include "alkaid/fbs/Schema_generated.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/options.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "schema_codec.h"

namespace alkaid::ipc::internal {

// Not installed. What the tests call through a shared library (BUILD_SHARED_LIBS=ON) is
// marked ALKAID_EXPORT; the rest stays hidden.

namespace fb = org::apache::arrow::flatbuf;

inline constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;
// The version every message we write carries.
inline constexpr fb::MetadataVersion kCurrentMetadataVersion = fb::MetadataVersion::V5;
// Oldest version we read (V4 differs from V5 only in the union validity buffer).
inline constexpr fb::MetadataVersion kMinReadableMetadataVersion = fb::MetadataVersion::V4;

// File magic: "ARROW1" + 2 zero bytes / "ALKAID1" + 1 zero byte at the start
// (8 bytes either way), and the bare magic at the very end.
inline constexpr std::string_view kArrowFileMagic = "ARROW1";
inline constexpr std::string_view kAlkaidFileMagic = "ALKAID1";
inline constexpr int64_t kFileHeaderSize = 8;
ALKAID_EXPORT std::string_view FileMagic(IpcDialect dialect);

// ---------------------------------------------------------------------------
// RecordBatch / DictionaryBatch headers

struct FieldNodeMeta {
  int64_t length = 0;
  int64_t null_count = 0;
};

struct BufferMeta {
  int64_t offset = 0;  // relative to the start of the body
  int64_t length = 0;  // unpadded
};

// Plain-data form of a RecordBatch header. Reusable: Clear() keeps capacity.
struct RecordBatchMeta {
  int64_t length = 0;
  std::vector<FieldNodeMeta> nodes;      // pre-order
  std::vector<BufferMeta> buffers;       // pre-order
  std::vector<int64_t> variadic_buffer_counts;  // one per view-typed node
  CompressionType compression = CompressionType::kNone;

  void Clear() {
    length = 0;
    nodes.clear();
    buffers.clear();
    variadic_buffer_counts.clear();
    compression = CompressionType::kNone;
  }
};

struct DictionaryBatchMeta {
  int64_t id = 0;
  bool is_delta = false;
  RecordBatchMeta data;
};

// Appends a RecordBatch table. variadicBufferCounts is omitted when empty,
// compression when kNone.
ALKAID_EXPORT flatbuffers::Offset<fb::RecordBatch> WriteRecordBatchHeader(
    flatbuffers::FlatBufferBuilder* fbb, const RecordBatchMeta& meta);

// Clears `fbb` and builds a finished Message (version V5) with a RecordBatch
// or DictionaryBatch header. The bytes are fbb->GetBufferPointer()/GetSize().
ALKAID_EXPORT void BuildRecordBatchMessage(flatbuffers::FlatBufferBuilder* fbb,
                                           const RecordBatchMeta& meta, int64_t body_length);
ALKAID_EXPORT void BuildDictionaryBatchMessage(flatbuffers::FlatBufferBuilder* fbb,
                                               const DictionaryBatchMeta& meta,
                                               int64_t body_length);

// Fills `out` from a verified header, checking: nodes and buffers vectors
// present, lengths and null counts >= 0 and null_count <= length, buffer
// offsets/lengths >= 0 with offset + length <= body_length (pass -1 to skip
// that check), known compression codec and method, counts >= 0.
ALKAID_EXPORT Status ReadRecordBatchHeader(const fb::RecordBatch* batch, int64_t body_length,
                                           RecordBatchMeta* out);
// Same for a DictionaryBatch (its data table is required).
ALKAID_EXPORT Status ReadDictionaryBatchHeader(const fb::DictionaryBatch* batch,
                                               int64_t body_length, DictionaryBatchMeta* out);

fb::CompressionType ToFlatbuffer(CompressionType type);  // type must not be kNone
Result<CompressionType> FromFlatbuffer(fb::CompressionType codec);

// ---------------------------------------------------------------------------
// Messages

// Flatbuffers verifier depth for a type nesting of `max_recursion_depth`
// levels: two tables per level (Field and its type) plus slack.
int VerifierDepth(int max_recursion_depth);

// Flatbuffers verifier table budget for a buffer of `size` bytes: one
// table a byte, at least a million. Each table starts with a 4-byte vtable
// offset, so the bound leaves room for writers that share tables; a fixed
// budget refused wide schemas (two tables a field, so 500,000 columns) that
// our own writer produced. A crafted buffer that reaches one table through
// many offsets still stops the verifier after work linear in its size.
uint32_t VerifierMaxTables(int64_t size);

// Runs the Flatbuffers verifier over [data, data + size) and returns the
// root Message. Errors are SerializationError naming `where`.
ALKAID_EXPORT Result<const fb::Message*> VerifyMessage(const uint8_t* data, int64_t size,
                                                       std::string_view where = "message",
                                                       int max_depth = kDefaultMaxRecursionDepth);
// True when [data, data + size) is a Message with a RecordBatch header
// holding only length, nodes and buffers (every batch of a typical stream),
// verified as VerifyMessage would, only faster. False says nothing: the
// message may still be valid (VerifyMessage decides).
bool VerifyPlainBatchMessage(const uint8_t* data, int64_t size);

// Fails unless the version is V4 or V5.
ALKAID_EXPORT Status CheckMetadataVersion(fb::MetadataVersion version,
                                          std::string_view where = "message");

// How a flatbuffer of `flatbuffer_size` bytes is framed: prefix (8 bytes, or
// 4 legacy) + flatbuffer + zero padding so that the total is a multiple of
// `alignment` (8, or 64 to keep 64-byte alignment of what follows). `total`
// is also the Block.metaDataLength of the message in a file footer; the
// int32 length in the prefix is total - prefix_size.
struct FramedMetadata {
  uint8_t prefix[8] = {};
  int64_t prefix_size = 0;
  int64_t padding = 0;
  int64_t total = 0;
};
ALKAID_EXPORT FramedMetadata FrameMetadata(int64_t flatbuffer_size, bool legacy, int32_t alignment = 8);

// Size of FrameMetadata(...).total.
ALKAID_EXPORT int64_t FramedMetadataSize(int64_t flatbuffer_size, bool legacy, int32_t alignment = 8);

// Writes prefix + flatbuffer + zero padding. Returns the number of bytes
// written (FramedMetadataSize). Fails when the length does not fit an int32.
ALKAID_EXPORT Result<int64_t> WriteFramedMetadata(io::OutputStream* out, const uint8_t* flatbuffer,
                                                  int64_t flatbuffer_size, bool legacy,
                                                  int32_t alignment = 8);

// Writes the end-of-stream marker (8 bytes, or 4 legacy).
ALKAID_EXPORT Status WriteEndOfStream(io::OutputStream* out, bool legacy);

// Writes `n` (<= 64) zero bytes.
ALKAID_EXPORT Status WriteZeroPadding(io::OutputStream* out, int64_t n);

// ---------------------------------------------------------------------------
// File footer

struct FileBlock {
  int64_t offset = 0;           // of the message's first byte in the file
  int32_t metadata_length = 0;  // framed metadata size (prefix + flatbuffer + padding)
  int64_t body_length = 0;
};

// Clears `fbb` and builds a finished Footer flatbuffer.
ALKAID_EXPORT Status BuildFooter(flatbuffers::FlatBufferBuilder* fbb, const Schema& schema,
                                 const DictionaryIds& ids, IpcDialect dialect,
                                 std::span<const FileBlock> dictionaries,
                                 std::span<const FileBlock> record_batches,
                                 const KeyValueMetadata* metadata,
                                 fb::MetadataVersion version = kCurrentMetadataVersion);

// Copies the blocks of a verified footer vector (null vector: none), checking
// offsets >= 0, metadata_length > 0 and body_length >= 0. `what` names the
// vector in errors ("dictionary block").
ALKAID_EXPORT Status ReadFileBlocks(const flatbuffers::Vector<const fb::Block*>* blocks,
                                    std::string_view what, std::vector<FileBlock>* out);

}  // namespace alkaid::ipc::internal
