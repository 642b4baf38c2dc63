// Test helpers: hand-built IPC streams and files, message by message, so
// reader tests can express exactly the bytes (and lies) they need.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "src/ipc/metadata.h"

// Expects `expr` (a Status or Result) to fail with a message containing `text`.
#define EXPECT_ERROR_CONTAINS(expr, text)                                           \
  do {                                                                              \
    auto _st = ::alkaid::ToStatus(expr);                           \
    EXPECT_FALSE(_st.ok()) << "expected an error containing '" << (text) << "'";    \
    EXPECT_NE(_st.message().find(text), std::string::npos) << _st.ToString();       \
    /* context joined twice (": : ") means a layer added its own separator */      \
    EXPECT_EQ(_st.message().find(": : "), std::string::npos) << _st.ToString();     \
  } while (false)

namespace alkaid::ipc::testing {

namespace fb = internal::fb;
using internal::BufferMeta;
using internal::DictionaryBatchMeta;
using internal::FieldNodeMeta;
using internal::FileBlock;
using internal::RecordBatchMeta;

// A message body assembled buffer by buffer (each padded to 8 bytes).
class BodyBuilder {
 public:
  // Appends bytes and returns their BufferMeta; `misalign` shifts the start
  // by that many bytes (to test alignment handling).
  BufferMeta Add(const void* data, int64_t size, int64_t misalign = 0) {
    bytes_.append(static_cast<size_t>(misalign), '\0');
    BufferMeta meta{static_cast<int64_t>(bytes_.size()), size};
    bytes_.append(static_cast<const char*>(data), static_cast<size_t>(size));
    while (bytes_.size() % 8 != 0) bytes_.push_back('\0');
    return meta;
  }
  BufferMeta Add(const std::string& bytes, int64_t misalign = 0) {
    return Add(bytes.data(), static_cast<int64_t>(bytes.size()), misalign);
  }
  template <typename T>
  BufferMeta AddValues(const std::vector<T>& values, int64_t misalign = 0) {
    return Add(values.data(), static_cast<int64_t>(values.size() * sizeof(T)), misalign);
  }
  BufferMeta Absent() { return BufferMeta{static_cast<int64_t>(bytes_.size()), 0}; }
  const std::string& bytes() const { return bytes_; }
  std::string& mutable_bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// Writes framed messages into memory; can finish as a stream or as a file
// (magic, messages, footer, magic).
class IpcBuilder {
 public:
  explicit IpcBuilder(SchemaPtr schema, bool legacy = false,
                      fb::MetadataVersion version = fb::MetadataVersion::V5)
      : schema_(std::move(schema)), legacy_(legacy), version_(version) {
    ids_ = DictionaryIds::AssignSequential(*schema_);
  }

  void set_dictionary_ids(DictionaryIds ids) { ids_ = std::move(ids); }
  void set_footer_version(fb::MetadataVersion version) { footer_version_ = version; }
  const DictionaryIds& dictionary_ids() const { return ids_; }

  // For files: starts with the magic; call before anything else.
  void BeginFile(std::string_view magic = "ARROW1") {
    out_.append(magic.data(), magic.size());
    while (out_.size() < 8) out_.push_back('\0');
  }

  void AddSchema() {
    flatbuffers::FlatBufferBuilder fbb;
    auto schema = internal::WriteSchema(&fbb, *schema_, ids_, IpcDialect::kArrow).ValueOrDie();
    fbb.Finish(fb::CreateMessage(fbb, version_, fb::MessageHeader::Schema, schema.Union(), 0));
    AddFramed(fbb, "");
  }

  // `declared_body_length` < 0: the real body size.
  FileBlock AddRecordBatch(const RecordBatchMeta& meta, const std::string& body,
                           int64_t declared_body_length = -1) {
    flatbuffers::FlatBufferBuilder fbb;
    auto header = internal::WriteRecordBatchHeader(&fbb, meta);
    int64_t body_length =
        declared_body_length >= 0 ? declared_body_length : static_cast<int64_t>(body.size());
    fbb.Finish(fb::CreateMessage(fbb, version_, fb::MessageHeader::RecordBatch, header.Union(),
                                 body_length));
    FileBlock block = AddFramed(fbb, body);
    batch_blocks_.push_back(block);
    return block;
  }

  FileBlock AddDictionaryBatch(const DictionaryBatchMeta& meta, const std::string& body) {
    flatbuffers::FlatBufferBuilder fbb;
    auto data = internal::WriteRecordBatchHeader(&fbb, meta.data);
    auto header = fb::CreateDictionaryBatch(fbb, meta.id, data, meta.is_delta);
    fbb.Finish(fb::CreateMessage(fbb, version_, fb::MessageHeader::DictionaryBatch,
                                 header.Union(), static_cast<int64_t>(body.size())));
    FileBlock block = AddFramed(fbb, body);
    dictionary_blocks_.push_back(block);
    return block;
  }

  void AddRaw(const std::string& bytes) { out_ += bytes; }

  void AddEndOfStream() {
    uint32_t marker = 0xFFFFFFFFu, zero = 0;
    if (!legacy_) out_.append(reinterpret_cast<const char*>(&marker), 4);
    out_.append(reinterpret_cast<const char*>(&zero), 4);
  }

  BufferPtr FinishStream() { return Buffer::FromString(out_); }

  // Appends the footer (with the blocks recorded so far unless overridden)
  // and the trailing magic.
  BufferPtr FinishFile(std::string_view magic = "ARROW1", const KeyValueMetadata* metadata = nullptr,
                       const std::vector<FileBlock>* dictionaries = nullptr,
                       const std::vector<FileBlock>* batches = nullptr) {
    flatbuffers::FlatBufferBuilder fbb;
    Status st = internal::BuildFooter(&fbb, *schema_, ids_, IpcDialect::kArrow,
                                      dictionaries ? *dictionaries : dictionary_blocks_,
                                      batches ? *batches : batch_blocks_, metadata,
                                      footer_version_);
    EXPECT_TRUE(st.ok()) << st;
    out_.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
    int32_t length = static_cast<int32_t>(fbb.GetSize());
    out_.append(reinterpret_cast<const char*>(&length), 4);
    out_.append(magic.data(), magic.size());
    return Buffer::FromString(out_);
  }

  std::string& bytes() { return out_; }

 private:
  FileBlock AddFramed(const flatbuffers::FlatBufferBuilder& fbb, const std::string& body) {
    FileBlock block;
    block.offset = static_cast<int64_t>(out_.size());
    const int64_t prefix = legacy_ ? 4 : 8;
    const int64_t framed = internal::FramedMetadataSize(fbb.GetSize(), legacy_);
    const int32_t length = static_cast<int32_t>(framed - prefix);
    uint32_t marker = 0xFFFFFFFFu;
    if (!legacy_) out_.append(reinterpret_cast<const char*>(&marker), 4);
    out_.append(reinterpret_cast<const char*>(&length), 4);
    out_.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
    while (static_cast<int64_t>(out_.size()) < block.offset + framed) out_.push_back('\0');
    out_ += body;
    block.metadata_length = static_cast<int32_t>(framed);
    block.body_length = static_cast<int64_t>(body.size());
    return block;
  }

  SchemaPtr schema_;
  bool legacy_;
  fb::MetadataVersion version_;
  fb::MetadataVersion footer_version_ = fb::MetadataVersion::V5;
  DictionaryIds ids_;
  std::string out_;
  std::vector<FileBlock> dictionary_blocks_;
  std::vector<FileBlock> batch_blocks_;
};

// Dictionary batch body for utf8 values.
inline std::string Utf8DictBody(const std::vector<std::string>& values, int64_t id, bool delta,
                         DictionaryBatchMeta* meta) {
  BodyBuilder body;
  std::vector<int32_t> offsets{0};
  std::string data;
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  meta->id = id;
  meta->is_delta = delta;
  meta->data.length = static_cast<int64_t>(values.size());
  meta->data.nodes = {{meta->data.length, 0}};
  meta->data.buffers = {body.Absent(), body.AddValues(offsets), body.Add(data)};
  return body.bytes();
}

// Reads a whole stream; the status of the first failure, if any.
inline Result<std::vector<RecordBatchPtr>> ReadStream(const BufferPtr& bytes,
                                                      const IpcReadOptions& options =
                                                          IpcReadOptions::Defaults()) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, StreamReader::Open(bytes, options));
  return reader->ReadAll();
}

inline Result<std::vector<RecordBatchPtr>> ReadFile(const BufferPtr& bytes,
                                                    const IpcReadOptions& options =
                                                        IpcReadOptions::Defaults()) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(bytes, options));
  return reader->ReadAll();
}

// Collects everything a StreamDecoder reports.
struct CollectingListener : StreamDecoder::Listener {
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
  bool eos = false;
  Status OnSchema(const SchemaPtr& s) override {
    schema = s;
    return Status::OK();
  }
  Status OnRecordBatch(RecordBatchPtr b) override {
    batches.push_back(std::move(b));
    return Status::OK();
  }
  Status OnEOS() override {
    eos = true;
    return Status::OK();
  }
};

}  // namespace alkaid::ipc::testing
