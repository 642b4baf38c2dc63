// RecordBatch / DictionaryBatch headers, message verification, the write side
// of message framing and the file footer. See metadata.h for the contract.
// (The schema codec is in schema_codec.cc, the read side of the framing in
// message_framer.cc.)
#include "metadata.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

namespace alkaid::ipc::internal {

namespace {

using flatbuffers::Offset;

// The Flatbuffers verifier checks that a vector's length word is 4-byte
// aligned, not that its 8-byte elements are 8-byte aligned: a hostile message
// can put them at 4 mod 8, where reading through the generated accessors is
// undefined behaviour. Elements of such vectors are copied out instead.
template <typename Struct>
Struct LoadStruct(const flatbuffers::Vector<const Struct*>& vec, flatbuffers::uoffset_t i) {
  Struct out;
  std::memcpy(static_cast<void*>(&out), vec.Data() + static_cast<size_t>(i) * sizeof(Struct),
              sizeof(Struct));
  return out;
}

int64_t LoadInt64(const flatbuffers::Vector<int64_t>& vec, flatbuffers::uoffset_t i) {
  int64_t out;
  std::memcpy(&out, vec.Data() + static_cast<size_t>(i) * sizeof(int64_t), sizeof(int64_t));
  return flatbuffers::EndianScalar(out);
}

}  // namespace

// ---------------------------------------------------------------------------

std::string_view FileMagic(IpcDialect dialect) {
  return dialect == IpcDialect::kAlkaid ? kAlkaidFileMagic : kArrowFileMagic;
}

// ---------------------------------------------------------------------------
// Batch headers

fb::CompressionType ToFlatbuffer(CompressionType type) {
  return type == CompressionType::kZstd ? fb::CompressionType::ZSTD
                                        : fb::CompressionType::LZ4_FRAME;
}

Result<CompressionType> FromFlatbuffer(fb::CompressionType codec) {
  switch (codec) {
    case fb::CompressionType::LZ4_FRAME: return CompressionType::kLz4Frame;
    case fb::CompressionType::ZSTD: return CompressionType::kZstd;
  }
  return Status::Invalid("unknown body compression codec ", static_cast<int>(codec));
}

flatbuffers::Offset<fb::RecordBatch> WriteRecordBatchHeader(flatbuffers::FlatBufferBuilder* fbb,
                                                            const RecordBatchMeta& meta) {
  // Structs are written in place; no temporary vectors.
  fb::FieldNode* nodes = nullptr;
  auto nodes_offset = fbb->CreateUninitializedVectorOfStructs(meta.nodes.size(), &nodes);
  for (size_t i = 0; i < meta.nodes.size(); ++i) {
    nodes[i] = fb::FieldNode(meta.nodes[i].length, meta.nodes[i].null_count);
  }
  fb::Buffer* buffers = nullptr;
  auto buffers_offset = fbb->CreateUninitializedVectorOfStructs(meta.buffers.size(), &buffers);
  for (size_t i = 0; i < meta.buffers.size(); ++i) {
    buffers[i] = fb::Buffer(meta.buffers[i].offset, meta.buffers[i].length);
  }
  Offset<fb::BodyCompression> compression;
  if (meta.compression != CompressionType::kNone) {
    compression = fb::CreateBodyCompression(*fbb, ToFlatbuffer(meta.compression),
                                            fb::BodyCompressionMethod::BUFFER);
  }
  Offset<flatbuffers::Vector<int64_t>> variadic;
  if (!meta.variadic_buffer_counts.empty()) {
    variadic = fbb->CreateVector(meta.variadic_buffer_counts);
  }
  return fb::CreateRecordBatch(*fbb, meta.length, nodes_offset, buffers_offset, compression,
                               variadic);
}

void BuildRecordBatchMessage(flatbuffers::FlatBufferBuilder* fbb, const RecordBatchMeta& meta,
                             int64_t body_length) {
  fbb->Clear();
  auto header = WriteRecordBatchHeader(fbb, meta);
  fbb->Finish(fb::CreateMessage(*fbb, kCurrentMetadataVersion, fb::MessageHeader::RecordBatch,
                                header.Union(), body_length));
}

void BuildDictionaryBatchMessage(flatbuffers::FlatBufferBuilder* fbb,
                                 const DictionaryBatchMeta& meta, int64_t body_length) {
  fbb->Clear();
  auto data = WriteRecordBatchHeader(fbb, meta.data);
  auto header = fb::CreateDictionaryBatch(*fbb, meta.id, data, meta.is_delta);
  fbb->Finish(fb::CreateMessage(*fbb, kCurrentMetadataVersion,
                                fb::MessageHeader::DictionaryBatch, header.Union(), body_length));
}

namespace {

// Copies a vector of Flatbuffers structs of two int64 (FieldNode, Buffer)
// into plain structs of the same two fields in the same order: one memcpy
// (the wire is little-endian; big-endian hosts swap each field after), and
// no value-initialization when `out` already has the size (every batch of a
// stream usually has). Alignment of the source does not matter (see
// LoadStruct).
template <typename Out, typename Struct>
void CopyInt64Pairs(const flatbuffers::Vector<const Struct*>* vec, std::vector<Out>* out) {
  static_assert(sizeof(Struct) == 2 * sizeof(int64_t) && sizeof(Out) == 2 * sizeof(int64_t));
  static_assert(std::is_trivially_copyable_v<Out>);
  const size_t n = vec == nullptr ? 0 : vec->size();
  out->resize(n);
  if (n == 0) return;
  std::memcpy(static_cast<void*>(out->data()), vec->Data(), n * sizeof(Out));
  if constexpr (std::endian::native != std::endian::little) {
    auto* words = reinterpret_cast<int64_t*>(out->data());
    for (size_t i = 0; i < 2 * n; ++i) words[i] = flatbuffers::EndianScalar(words[i]);
  }
}

}  // namespace

Status ReadRecordBatchHeader(const fb::RecordBatch* batch, int64_t body_length,
                             RecordBatchMeta* out) {
  out->length = 0;
  out->variadic_buffer_counts.clear();
  out->compression = CompressionType::kNone;
  if (batch == nullptr) {
    out->Clear();
    return Status::Invalid("record batch header is missing");
  }
  if (batch->length() < 0) {
    return Status::Invalid("record batch length is negative (", batch->length(), ")");
  }
  out->length = batch->length();
  CopyInt64Pairs(batch->nodes(), &out->nodes);
  for (size_t i = 0; i < out->nodes.size(); ++i) {
    const FieldNodeMeta& node = out->nodes[i];
    if (node.length < 0 || node.null_count < 0 || node.null_count > node.length) [[unlikely]] {
      return Status::Invalid("field node ", i, ": length ", node.length, " and null count ",
                             node.null_count, " must satisfy 0 <= null_count <= length");
    }
  }
  CopyInt64Pairs(batch->buffers(), &out->buffers);
  for (size_t i = 0; i < out->buffers.size(); ++i) {
    const int64_t offset = out->buffers[i].offset;
    const int64_t length = out->buffers[i].length;
    if (offset < 0 || length < 0) [[unlikely]] {
      return Status::Invalid("buffer ", i, ": offset ", offset, " and length ", length,
                             " must not be negative");
    }
    if (body_length >= 0 && (offset > body_length || length > body_length - offset)) [[unlikely]] {
      // offset + length may overflow on hostile input: report the parts.
      return Status::Invalid("buffer ", i, ": offset ", offset, " + length ", length,
                             " is outside the body of ", body_length, " bytes");
    }
  }
  if (const fb::BodyCompression* compression = batch->compression()) {
    ALKAID_ASSIGN_OR_RAISE(out->compression, FromFlatbuffer(compression->codec()));
    if (compression->method() != fb::BodyCompressionMethod::BUFFER) {
      return Status::Invalid("unknown body compression method ",
                             static_cast<int>(compression->method()));
    }
  }
  if (const auto* counts = batch->variadicBufferCounts()) {
    out->variadic_buffer_counts.resize(counts->size());
    for (flatbuffers::uoffset_t i = 0; i < counts->size(); ++i) {
      const int64_t count = LoadInt64(*counts, i);
      if (count < 0) {
        return Status::Invalid("variadic buffer count ", i, " is negative (", count, ")");
      }
      out->variadic_buffer_counts[i] = count;
    }
  }
  return Status::OK();
}

Status ReadDictionaryBatchHeader(const fb::DictionaryBatch* batch, int64_t body_length,
                                 DictionaryBatchMeta* out) {
  if (batch == nullptr) return Status::Invalid("dictionary batch header is missing");
  if (batch->data() == nullptr) {
    return Status::Invalid("dictionary batch ", batch->id(), " has no data");
  }
  out->id = batch->id();
  out->is_delta = batch->isDelta();
  Status st = ReadRecordBatchHeader(batch->data(), body_length, &out->data);
  if (!st.ok()) return st.WithContext("dictionary batch " + std::to_string(out->id));
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Messages and framing

int VerifierDepth(int max_recursion_depth) {
  const int depth = std::clamp(max_recursion_depth, 1, 1 << 20);
  return 2 * depth + 16;
}

Result<const fb::Message*> VerifyMessage(const uint8_t* data, int64_t size,
                                         std::string_view where, int max_depth) {
  if (data == nullptr || size <= 0) {
    return Status::SerializationError(where, ": metadata flatbuffer is empty");
  }
  if (size > static_cast<int64_t>(FLATBUFFERS_MAX_BUFFER_SIZE) - 1) {
    return Status::SerializationError(where, ": metadata flatbuffer of ", size,
                                      " bytes exceeds the Flatbuffers limit");
  }
  // Depth counts tables: two per field level (Field, its type) plus slack.
  flatbuffers::Verifier verifier(data, static_cast<size_t>(size),
                                 /*max_depth=*/VerifierDepth(max_depth),
                                 /*max_tables=*/1000000);
  if (!fb::VerifyMessageBuffer(verifier)) {
    return Status::SerializationError(where, ": metadata flatbuffer of ", size,
                                      " bytes failed verification");
  }
  return fb::GetMessage(data);
}

Status CheckMetadataVersion(fb::MetadataVersion version, std::string_view where) {
  if (version < kMinReadableMetadataVersion || version > kCurrentMetadataVersion) {
    return Status::Invalid(where, ": metadata version ", static_cast<int>(version) + 1,
                           " is not supported (only V4 and V5)");
  }
  return Status::OK();
}

FramedMetadata FrameMetadata(int64_t flatbuffer_size, bool legacy, int32_t alignment) {
  FramedMetadata framed;
  framed.prefix_size = legacy ? 4 : 8;
  const int64_t unpadded = framed.prefix_size + flatbuffer_size;
  const int64_t align = alignment > 8 ? alignment : 8;
  framed.total = (unpadded + align - 1) / align * align;
  framed.padding = framed.total - unpadded;
  const int64_t stated = framed.total - framed.prefix_size;
  const int32_t length = stated > INT32_MAX ? -1 : static_cast<int32_t>(stated);
  if (legacy) {
    std::memcpy(framed.prefix, &length, 4);
  } else {
    std::memcpy(framed.prefix, &kContinuationMarker, 4);
    std::memcpy(framed.prefix + 4, &length, 4);
  }
  return framed;
}

int64_t FramedMetadataSize(int64_t flatbuffer_size, bool legacy, int32_t alignment) {
  return FrameMetadata(flatbuffer_size, legacy, alignment).total;
}

Result<int64_t> WriteFramedMetadata(io::OutputStream* out, const uint8_t* flatbuffer,
                                    int64_t flatbuffer_size, bool legacy, int32_t alignment) {
  const FramedMetadata framed = FrameMetadata(flatbuffer_size, legacy, alignment);
  if (framed.total - framed.prefix_size > INT32_MAX) {
    return Status::CapacityError("message metadata of ", flatbuffer_size,
                                 " bytes does not fit an int32 length");
  }
  static constexpr uint8_t kZeros[64] = {};
  const io::IoSlice slices[3] = {{framed.prefix, framed.prefix_size},
                                 {flatbuffer, flatbuffer_size},
                                 {kZeros, framed.padding}};
  ALKAID_RETURN_NOT_OK(out->WriteV(slices));
  return framed.total;
}

Status WriteEndOfStream(io::OutputStream* out, bool legacy) {
  static constexpr uint8_t kEos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  return legacy ? out->Write(kEos + 4, 4) : out->Write(kEos, 8);
}

Status WriteZeroPadding(io::OutputStream* out, int64_t n) {
  static constexpr uint8_t kZeros[64] = {};
  if (n < 0 || n > 64) return Status::Invalid("padding of ", n, " bytes is out of range");
  if (n == 0) return Status::OK();
  return out->Write(kZeros, n);
}

Status BuildFooter(flatbuffers::FlatBufferBuilder* fbb, const Schema& schema,
                   const DictionaryIds& ids, IpcDialect dialect,
                   std::span<const FileBlock> dictionaries,
                   std::span<const FileBlock> record_batches, const KeyValueMetadata* metadata,
                   fb::MetadataVersion version) {
  fbb->Clear();
  ALKAID_ASSIGN_OR_RAISE(auto schema_offset, WriteSchema(fbb, schema, ids, dialect));
  auto write_blocks = [&](std::span<const FileBlock> blocks) {
    fb::Block* out = nullptr;
    auto offset = fbb->CreateUninitializedVectorOfStructs(blocks.size(), &out);
    for (size_t i = 0; i < blocks.size(); ++i) {
      out[i] = fb::Block(blocks[i].offset, blocks[i].metadata_length, blocks[i].body_length);
    }
    return offset;
  };
  auto dict_offset = write_blocks(dictionaries);
  auto batch_offset = write_blocks(record_batches);
  auto metadata_offset = WriteKeyValueMetadata(fbb, metadata);
  fbb->Finish(fb::CreateFooter(*fbb, version, schema_offset, dict_offset,
                               batch_offset, metadata_offset));
  return Status::OK();
}

Status ReadFileBlocks(const flatbuffers::Vector<const fb::Block*>* blocks, std::string_view what,
                      std::vector<FileBlock>* out) {
  out->clear();
  if (blocks == nullptr) return Status::OK();
  out->reserve(blocks->size());
  for (flatbuffers::uoffset_t i = 0; i < blocks->size(); ++i) {
    const fb::Block block = LoadStruct(*blocks, i);
    if (block.offset() < 0 || block.metaDataLength() <= 0 || block.bodyLength() < 0) {
      return Status::Invalid(what, " ", i, ": offset ", block.offset(), ", metadata length ",
                             block.metaDataLength(), ", body length ", block.bodyLength(),
                             " (offset and body length must be >= 0, metadata length > 0)");
    }
    out->push_back(FileBlock{block.offset(), block.metaDataLength(), block.bodyLength()});
  }
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
