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
// into plain structs of the same two fields in the same order, element by
// element with constant-size copies (inlined loads: the vectors are a few
// elements long, where a memcpy call costs more than the copy), and no
// value-initialization when `out` already has the size (every batch of a
// stream usually has). Alignment of the source does not matter (see
// LoadStruct). `bad(first, second)` is or-ed over the elements, in native
// byte order: true when some element is invalid.
template <typename Out, typename Struct, typename Bad>
bool CopyInt64Pairs(const flatbuffers::Vector<const Struct*>* vec, std::vector<Out>* out, Bad bad) {
  static_assert(sizeof(Struct) == 2 * sizeof(int64_t) && sizeof(Out) == 2 * sizeof(int64_t));
  static_assert(std::is_trivially_copyable_v<Out>);
  const size_t n = vec == nullptr ? 0 : vec->size();
  out->resize(n);
  if (n == 0) return false;
  auto* dst = reinterpret_cast<int64_t*>(out->data());
  const uint8_t* src = vec->Data();
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    int64_t pair[2];
    std::memcpy(pair, src + i * sizeof(Out), sizeof(pair));
    if constexpr (std::endian::native != std::endian::little) {
      pair[0] = flatbuffers::EndianScalar(pair[0]);
      pair[1] = flatbuffers::EndianScalar(pair[1]);
    }
    dst[2 * i] = pair[0];
    dst[2 * i + 1] = pair[1];
    any |= bad(pair[0], pair[1]);
  }
  return any;
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
  const int64_t length = batch->length();
  if (length < 0) {
    return Status::Invalid("record batch length is negative (", length, ")");
  }
  out->length = length;
  // Each vector is copied and checked in one branch-free pass; the rare
  // failure is then located for the message. Unsigned comparisons fold the
  // sign checks in: a negative value is larger than any valid one.
  const bool bad_nodes = CopyInt64Pairs(
      batch->nodes(), &out->nodes, [](int64_t node_length, int64_t null_count) {
        return (node_length < 0) |
               (static_cast<uint64_t>(null_count) > static_cast<uint64_t>(node_length));
      });
  if (bad_nodes) [[unlikely]] {
    for (size_t i = 0; i < out->nodes.size(); ++i) {
      const FieldNodeMeta& node = out->nodes[i];
      if (node.length < 0 || node.null_count < 0 || node.null_count > node.length) {
        return Status::Invalid("field node ", i, ": length ", node.length, " and null count ",
                               node.null_count, " must satisfy 0 <= null_count <= length");
      }
    }
  }
  // body_length < 0: no bound.
  const uint64_t bound = body_length >= 0 ? static_cast<uint64_t>(body_length) : INT64_MAX;
  const bool bad_buffers = CopyInt64Pairs(
      batch->buffers(), &out->buffers, [bound](int64_t offset, int64_t size) {
        // Below 2^62 each (which also rules out negatives), the sum cannot
        // overflow.
        const auto o = static_cast<uint64_t>(offset);
        const auto n = static_cast<uint64_t>(size);
        return ((o | n) >> 62 != 0) | (o + n > bound);
      });
  if (bad_buffers) [[unlikely]] {
    for (size_t i = 0; i < out->buffers.size(); ++i) {
      const int64_t offset = out->buffers[i].offset;
      const int64_t size = out->buffers[i].length;
      if (offset < 0 || size < 0) {
        return Status::Invalid("buffer ", i, ": offset ", offset, " and length ", size,
                               " must not be negative");
      }
      if (body_length >= 0 && (offset > body_length || size > body_length - offset)) {
        // offset + length may overflow on hostile input: report the parts.
        return Status::Invalid("buffer ", i, ": offset ", offset, " + length ", size,
                               " is outside the body of ", body_length, " bytes");
      }
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

uint32_t VerifierMaxTables(int64_t size) {
  constexpr int64_t kFloor = 1'000'000;
  return static_cast<uint32_t>(std::clamp<int64_t>(size, kFloor, int64_t{1} << 30));
}

namespace {

// The generated verifier with every step inlined into one function: the
// same checks, without a call per field (which shows in the per-message
// cost of small batches).
[[gnu::flatten]] bool VerifyMessageInline(flatbuffers::Verifier& verifier) {
  return fb::VerifyMessageBuffer(verifier);
}

// The message every batch of a stream is: a RecordBatch header holding
// only length, nodes and buffers, and no custom metadata. For it, this makes
// exactly the checks the generated verifier makes (offsets in bounds and
// aligned, vtables whole, vectors inside the buffer), in a few dozen
// instructions instead of a few hundred. Anything else, or anything it is
// unsure of, answers false and goes to the generated verifier, which decides.
class PlainBatchVerifier {
 public:
  // size < 2^31, so no sum below overflows: every position is either
  // checked to lie in the buffer or a uint32/uint16 away from one that does.
  PlainBatchVerifier(const uint8_t* buf, int64_t size) : buf_(buf), size_(size) {}

  bool Verify() const {
    // FLATBUFFERS_MIN_BUFFER_SIZE: root offset, vtable offset, two vtable words.
    if (size_ < 4 + 4 + 2 + 2) return false;
    const int64_t message = Offset(0);
    if (message < 0) return false;
    int64_t vsize = 0;
    const int64_t vtable = VTable(message, &vsize);
    if (vtable < 0) return false;
    // header_type must be RecordBatch, with a header; no custom metadata.
    const int64_t type_at = Field(vtable, vsize, fb::Message::VT_HEADER_TYPE);
    const int64_t header_at = Field(vtable, vsize, fb::Message::VT_HEADER);
    if (type_at == 0 || header_at == 0 ||
        Field(vtable, vsize, fb::Message::VT_CUSTOM_METADATA) != 0 ||
        !InRange(message + type_at, 1) ||
        buf_[message + type_at] != static_cast<uint8_t>(fb::MessageHeader::RecordBatch) ||
        !OptionalScalar(message, Field(vtable, vsize, fb::Message::VT_VERSION), 2) ||
        !OptionalScalar(message, Field(vtable, vsize, fb::Message::VT_BODYLENGTH), 8)) {
      return false;
    }
    const int64_t batch = Offset(message + header_at);
    if (batch < 0) return false;
    int64_t bvsize = 0;
    const int64_t bvtable = VTable(batch, &bvsize);
    if (bvtable < 0 ||
        Field(bvtable, bvsize, fb::RecordBatch::VT_COMPRESSION) != 0 ||
        Field(bvtable, bvsize, fb::RecordBatch::VT_VARIADICBUFFERCOUNTS) != 0) {
      return false;
    }
    return OptionalScalar(batch, Field(bvtable, bvsize, fb::RecordBatch::VT_LENGTH), 8) &&
           OptionalStructVector(batch, Field(bvtable, bvsize, fb::RecordBatch::VT_NODES)) &&
           OptionalStructVector(batch, Field(bvtable, bvsize, fb::RecordBatch::VT_BUFFERS));
  }

 private:
  // Verifier::Verify(elem, len), for elem >= 0.
  bool InRange(int64_t elem, int64_t len) const { return len < size_ && elem + len <= size_; }
  // Verifier::Verify<T>: aligned (relative to the buffer) and in range.
  bool Scalar(int64_t elem, int64_t len) const {
    return (elem & (len - 1)) == 0 && InRange(elem, len);
  }
  uint32_t U32(int64_t at) const { return flatbuffers::ReadScalar<uint32_t>(buf_ + at); }
  uint16_t U16(int64_t at) const { return flatbuffers::ReadScalar<uint16_t>(buf_ + at); }

  // Where the uoffset at `start` points, or -1 (Verifier::VerifyOffset).
  int64_t Offset(int64_t start) const {
    if (!Scalar(start, 4)) return -1;
    const uint32_t o = U32(start);
    if (o == 0 || o > static_cast<uint32_t>(INT32_MAX)) return -1;
    const int64_t target = start + o;
    return InRange(target, 1) ? target : -1;
  }
  // The vtable of the table at `table` and its size, or -1
  // (Verifier::VerifyTableStart; depth and table counts stay far below any
  // limit for two tables).
  int64_t VTable(int64_t table, int64_t* vsize) const {
    if (!Scalar(table, 4)) return -1;
    const int64_t vtable = table - flatbuffers::ReadScalar<int32_t>(buf_ + table);
    if (vtable < 0 || !Scalar(vtable, 2)) return -1;
    *vsize = U16(vtable);
    return (*vsize & 1) == 0 && InRange(vtable, *vsize) ? vtable : -1;
  }
  // Table::GetOptionalFieldOffset: 0 when absent.
  int64_t Field(int64_t vtable, int64_t vsize, int64_t field) const {
    return field < vsize ? U16(vtable + field) : 0;
  }
  bool OptionalScalar(int64_t table, int64_t field, int64_t len) const {
    return field == 0 || Scalar(table + field, len);
  }
  // An optional offset field to a vector of 16-byte structs
  // (Verifier::VerifyVectorOrString).
  bool OptionalStructVector(int64_t table, int64_t field) const {
    if (field == 0) return true;
    const int64_t vec = Offset(table + field);
    if (vec < 0 || !Scalar(vec, 4)) return false;
    const int64_t n = U32(vec);
    if (n >= static_cast<int64_t>(FLATBUFFERS_MAX_BUFFER_SIZE / 16)) return false;
    return InRange(vec, 4 + 16 * n);
  }

  const uint8_t* buf_;
  int64_t size_;
};

}  // namespace

bool VerifyPlainBatchMessage(const uint8_t* data, int64_t size) {
  return data != nullptr && size > 0 && size < (int64_t{1} << 31) &&
         PlainBatchVerifier(data, size).Verify();
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
  if (VerifyPlainBatchMessage(data, size)) [[likely]] {
    return fb::GetMessage(data);
  }
  // Depth counts tables: two per field level (Field, its type) plus slack.
  flatbuffers::Verifier verifier(data, static_cast<size_t>(size),
                                 /*max_depth=*/VerifierDepth(max_depth),
                                 /*max_tables=*/VerifierMaxTables(size));
  if (!VerifyMessageInline(verifier)) {
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
