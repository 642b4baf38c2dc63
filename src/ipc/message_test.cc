// MessageEncoder / MessageDecoder: messages without stream framing (as Arrow
// Flight carries them). Every gold file round trips, the messages framed by
// hand are the stream writer's bytes, bodies are shared not copied, and
// hostile messages get errors.
#include "alkaid/ipc/message.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/io/input.h"
#include "metadata.h"
#include "reader_test_util.h"
#include "test_util/array_from_json.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

namespace fs = std::filesystem;
using ::alkaid::testing::ArrayFromJSON;

std::vector<std::string> GoldCases() { return ::alkaid::testing::GoldIntegrationCases(".arrow_file"); }

// The message framed as a stream frames it: continuation marker, int32
// length of the padded flatbuffer, the flatbuffer, zero padding, the body.
void AppendFramed(const EncodedMessage& m, std::string* out) {
  const int64_t fb = m.metadata->size();
  const int64_t padding = (8 - (8 + fb) % 8) % 8;
  const uint32_t marker = 0xFFFFFFFFu;
  const int32_t length = static_cast<int32_t>(fb + padding);
  out->append(reinterpret_cast<const char*>(&marker), 4);
  out->append(reinterpret_cast<const char*>(&length), 4);
  out->append(reinterpret_cast<const char*>(m.metadata->data()), static_cast<size_t>(fb));
  out->append(static_cast<size_t>(padding), '\0');
  for (const BufferPtr& b : m.body) {
    out->append(reinterpret_cast<const char*>(b->data()), static_cast<size_t>(b->size()));
  }
}

// The body in one 64-byte aligned buffer, starting `shift` bytes in.
BufferPtr JoinBody(const EncodedMessage& m, int64_t shift = 0) {
  if (m.body_length == 0) return nullptr;
  auto out = AllocateBuffer(m.body_length + shift).ValueOrDie();
  int64_t at = shift;
  for (const BufferPtr& b : m.body) {
    std::memcpy(out->mutable_data() + at, b->data(), static_cast<size_t>(b->size()));
    at += b->size();
  }
  return SliceBuffer(out, shift, m.body_length);
}

void ExpectSameBatch(const RecordBatch& a, const RecordBatch& b, const std::string& what) {
  ASSERT_EQ(a.num_rows(), b.num_rows()) << what;
  ASSERT_EQ(a.num_columns(), b.num_columns()) << what;
  for (int c = 0; c < a.num_columns(); ++c) {
    EXPECT_TRUE(ArrayEquals(*a.column_data(c), *b.column_data(c), EqualOptions().with_nans_equal()))
        << what << " column " << c;
  }
}

struct GoldParam {
  std::string name;
  CompressionType compression;
};

class GoldMessages : public ::testing::TestWithParam<GoldParam> {};

TEST_P(GoldMessages, EncodeDecodeAndFraming) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  const std::string path =
      data_dir + "/arrow-testing/integration/" + GetParam().name + ".arrow_file";
  auto file = io::ReadableFile::Open(path).ValueOrDie();
  auto reader_result = FileReader::Open(file);
  ASSERT_TRUE(reader_result.ok()) << reader_result.status();
  auto reader = std::move(reader_result).ValueOrDie();
  auto batches_result = reader->ReadAll();
  ASSERT_TRUE(batches_result.ok()) << batches_result.status();
  const std::vector<RecordBatchPtr>& batches = *batches_result;
  const SchemaPtr& schema = reader->schema();

  IpcWriteOptions options;
  options.compression = GetParam().compression;
  auto encoder_result = MessageEncoder::Make(schema, options);
  ASSERT_TRUE(encoder_result.ok()) << encoder_result.status();
  auto encoder = std::move(encoder_result).ValueOrDie();
  std::vector<EncodedMessage> messages;
  messages.push_back(encoder->EncodeSchema().ValueOrDie());
  for (const RecordBatchPtr& b : batches) {
    Status st = encoder->EncodeBatch(*b, &messages);
    ASSERT_TRUE(st.ok()) << st;
  }

  // Framed by hand: the stream writer's bytes (before its end-of-stream marker).
  std::string framed;
  for (const EncodedMessage& m : messages) {
    int64_t sum = 0;
    for (const BufferPtr& b : m.body) sum += b->size();
    EXPECT_EQ(sum, m.body_length);
    AppendFramed(m, &framed);
  }
  BufferPtr stream = SerializeStream(schema, batches, options).ValueOrDie();
  ASSERT_EQ(static_cast<int64_t>(framed.size()) + 8, stream->size());
  EXPECT_TRUE(std::memcmp(framed.data(), stream->data(), framed.size()) == 0);
  EXPECT_EQ(encoder->stats().bytes_written, static_cast<int64_t>(framed.size()));
  EXPECT_EQ(encoder->stats().num_messages, static_cast<int64_t>(messages.size()));

  // Decoded: the same schema and batches.
  auto decoder = MessageDecoder::Make().ValueOrDie();
  std::vector<RecordBatchPtr> decoded;
  for (size_t i = 0; i < messages.size(); ++i) {
    auto r = decoder->Consume(messages[i].metadata, JoinBody(messages[i]));
    ASSERT_TRUE(r.ok()) << "message " << i << ": " << r.status();
    EXPECT_EQ(r->kind, messages[i].kind);
    if (r->kind == MessageKind::kRecordBatch) decoded.push_back(r->batch);
  }
  ASSERT_NE(decoder->schema(), nullptr);
  EXPECT_TRUE(decoder->schema()->Equals(*schema, /*check_metadata=*/true));
  ASSERT_EQ(decoded.size(), batches.size());
  for (size_t i = 0; i < batches.size(); ++i) {
    ExpectSameBatch(*batches[i], *decoded[i], "batch " + std::to_string(i));
  }
  EXPECT_EQ(decoder->stats().num_record_batches, static_cast<int64_t>(batches.size()));
}

std::vector<GoldParam> GoldParams() {
  std::vector<GoldParam> out;
  for (const std::string& c : GoldCases()) {
    out.push_back({c, CompressionType::kNone});
    out.push_back({c, CompressionType::kLz4Frame});
    out.push_back({c, CompressionType::kZstd});
  }
  return out;
}

std::string GoldParamName(const ::testing::TestParamInfo<GoldParam>& info) {
  static const char* kNames[] = {"raw", "lz4", "zstd"};
  std::string name = info.param.name + "_" + kNames[static_cast<int>(info.param.compression)];
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Integration, GoldMessages, ::testing::ValuesIn(GoldParams()),
                         GoldParamName);

// ---------------------------------------------------------------------------

RecordBatchPtr SmallBatch() {
  auto s = schema({field("i", int64()), field("s", utf8())});
  return RecordBatch::Make(s, 3,
                           {ArrayFromJSON(int64(), "[1, null, 3]"),
                            ArrayFromJSON(utf8(), R"(["x", "yy", null])")});
}

bool Within(const uint8_t* p, const Buffer& b) {
  return b.data() <= p && p < b.data() + b.size();
}

TEST(MessageEncoder, BodySharesTheBatchBuffers) {
  RecordBatchPtr batch = SmallBatch();
  auto encoder = MessageEncoder::Make(batch->schema()).ValueOrDie();
  std::vector<EncodedMessage> messages;
  ASSERT_TRUE(encoder->EncodeBatch(*batch, &messages).ok());
  ASSERT_EQ(messages.size(), 1u);
  const EncodedMessage& m = messages[0];
  EXPECT_EQ(m.kind, MessageKind::kRecordBatch);
  // Every array buffer appears in the body at its own address.
  for (int c = 0; c < batch->num_columns(); ++c) {
    for (const BufferPtr& b : batch->column_data(c)->buffers) {
      if (b == nullptr) continue;
      bool found = false;
      for (const BufferPtr& part : m.body) found |= part->data() == b->data();
      EXPECT_TRUE(found) << "column " << c;
    }
  }
  // Parts that are not array memory are padding (zeros).
  for (const BufferPtr& part : m.body) {
    bool in_batch = false;
    for (int c = 0; c < batch->num_columns(); ++c) {
      for (const BufferPtr& b : batch->column_data(c)->buffers) {
        if (b != nullptr) in_batch |= Within(part->data(), *b);
      }
    }
    if (!in_batch) {
      EXPECT_TRUE(std::all_of(part->data(), part->data() + part->size(),
                              [](uint8_t x) { return x == 0; }));
    }
  }
  // The message keeps the memory alive without the batch.
  const uint8_t* values = batch->column_data(0)->buffers[1]->data();
  batch.reset();
  bool still_there = false;
  for (const BufferPtr& part : m.body) still_there |= part->data() == values;
  EXPECT_TRUE(still_there);
  auto decoder = MessageDecoder::Make().ValueOrDie();
  ASSERT_TRUE(decoder->Consume(encoder->EncodeSchema()->metadata, nullptr).ok());
  auto r = decoder->Consume(m.metadata, JoinBody(m));
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameBatch(*SmallBatch(), *r->batch, "after the batch was released");
}

TEST(MessageEncoder, SlicedBatchAndDictionaries) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type), field("b", boolean())});
  auto make = [&](const std::string& indices, const std::string& dict) {
    auto d = ArrayFromJSON(int8(), indices);
    d->type = type;
    d->dictionary = ArrayFromJSON(utf8(), dict);
    const int64_t n = d->length;
    std::string bools = "[";
    for (int64_t i = 0; i < n; ++i) bools += i ? ", true" : "false";
    bools += "]";
    return RecordBatch::Make(s, n, {d, ArrayFromJSON(boolean(), bools)});
  };
  // A slice at an odd bit offset makes the writer shift the bitmap into a
  // temporary buffer; dictionaries: new, delta, replacement.
  std::vector<RecordBatchPtr> batches = {make("[0, 1, 0]", R"(["a", "b"])")->Slice(1, 2),
                                         make("[2, 0]", R"(["a", "b", "c"])"),
                                         make("[0]", R"(["z"])")};
  IpcWriteOptions options;
  options.emit_dictionary_deltas = true;
  auto encoder = MessageEncoder::Make(s, options).ValueOrDie();
  std::vector<EncodedMessage> messages{encoder->EncodeSchema().ValueOrDie()};
  for (const auto& b : batches) ASSERT_TRUE(encoder->EncodeBatch(*b, &messages).ok());
  ASSERT_EQ(messages.size(), 7u);
  EXPECT_EQ(encoder->stats().num_dictionary_deltas, 1);
  EXPECT_EQ(encoder->stats().num_replaced_dictionaries, 1);
  std::string framed;
  for (const auto& m : messages) AppendFramed(m, &framed);
  BufferPtr stream = SerializeStream(s, batches, options).ValueOrDie();
  ASSERT_EQ(static_cast<int64_t>(framed.size()) + 8, stream->size());
  EXPECT_TRUE(std::memcmp(framed.data(), stream->data(), framed.size()) == 0);

  auto decoder = MessageDecoder::Make().ValueOrDie();
  size_t next = 0;
  for (const auto& m : messages) {
    auto r = decoder->Consume(m.metadata, JoinBody(m));
    ASSERT_TRUE(r.ok()) << r.status();
    if (r->kind == MessageKind::kRecordBatch) ExpectSameBatch(*batches[next++], *r->batch, "batch");
  }
  EXPECT_EQ(next, batches.size());
  EXPECT_EQ(decoder->stats().num_dictionary_deltas, 1);
}

TEST(MessageEncoder, RefusesAnotherSchema) {
  auto encoder = MessageEncoder::Make(SmallBatch()->schema()).ValueOrDie();
  auto other = RecordBatch::Make(schema({field("x", int32())}), 1, {ArrayFromJSON(int32(), "[1]")});
  std::vector<EncodedMessage> messages;
  EXPECT_ERROR_CONTAINS(encoder->EncodeBatch(*other, &messages), "does not match");
  EXPECT_TRUE(messages.empty());
  // Nothing was encoded: the encoder goes on.
  EXPECT_TRUE(encoder->EncodeBatch(*SmallBatch(), &messages).ok());
  EXPECT_EQ(messages.size(), 1u);
}

TEST(MessageEncoder, FailureAfterDictionariesSticks) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type), field("x", int64())});
  auto make = [&](int64_t value_bytes) {
    auto d = ArrayFromJSON(int8(), "[0, 0, 0]");
    d->type = type;
    d->dictionary = ArrayFromJSON(utf8(), R"(["a"])");
    auto x = ArrayData::Make(int64(), 3, {nullptr, AllocateBuffer(value_bytes).ValueOrDie()}, 0);
    return RecordBatch::Make(s, 3, {d, x});
  };
  auto encoder = MessageEncoder::Make(s).ValueOrDie();
  std::vector<EncodedMessage> messages;
  // The values buffer is too small for 3 rows: found after the dictionary.
  EXPECT_ERROR_CONTAINS(encoder->EncodeBatch(*make(8), &messages), "needs 24");
  EXPECT_TRUE(messages.empty());
  EXPECT_ERROR_CONTAINS(encoder->EncodeBatch(*make(24), &messages), "stopped");
  EXPECT_TRUE(messages.empty());
}

// ---------------------------------------------------------------------------

struct Encoded {
  EncodedMessage schema;
  EncodedMessage batch;
};

Encoded EncodeSmall() {
  RecordBatchPtr batch = SmallBatch();
  auto encoder = MessageEncoder::Make(batch->schema()).ValueOrDie();
  std::vector<EncodedMessage> messages;
  EXPECT_TRUE(encoder->EncodeBatch(*batch, &messages).ok());
  return {encoder->EncodeSchema().ValueOrDie(), messages.at(0)};
}

TEST(MessageDecoder, AlignedBodyIsNotCopied) {
  Encoded e = EncodeSmall();
  auto decoder = MessageDecoder::Make().ValueOrDie();
  ASSERT_TRUE(decoder->Consume(e.schema.metadata, nullptr).ok());
  BufferPtr body = JoinBody(e.batch);
  auto r = decoder->Consume(e.batch.metadata, body);
  ASSERT_TRUE(r.ok()) << r.status();
  for (int c = 0; c < r->batch->num_columns(); ++c) {
    for (const BufferPtr& b : r->batch->column_data(c)->buffers) {
      if (b != nullptr && b->size() > 0) {
        EXPECT_TRUE(Within(b->data(), *body)) << "column " << c;
      }
    }
  }
}

TEST(MessageDecoder, MisalignedPartsAreCopied) {
  Encoded e = EncodeSmall();
  auto decoder = MessageDecoder::Make().ValueOrDie();
  // Metadata at an odd address.
  auto shifted = AllocateBuffer(e.schema.metadata->size() + 1).ValueOrDie();
  std::memcpy(shifted->mutable_data() + 1, e.schema.metadata->data(),
              static_cast<size_t>(e.schema.metadata->size()));
  ASSERT_TRUE(decoder->Consume(SliceBuffer(shifted, 1, e.schema.metadata->size()), nullptr).ok());
  BufferPtr body = JoinBody(e.batch, 3);
  auto r = decoder->Consume(e.batch.metadata, body);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameBatch(*SmallBatch(), *r->batch, "misaligned body");
  const BufferPtr& values = r->batch->column_data(0)->buffers[1];
  EXPECT_FALSE(Within(values->data(), *body));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values->data()) % 8, 0u);
}

TEST(MessageDecoder, HostileMessages) {
  Encoded e = EncodeSmall();
  auto fresh = [] { return MessageDecoder::Make().ValueOrDie(); };
  const BufferPtr& meta = e.schema.metadata;
  // Truncated and garbage metadata.
  EXPECT_ERROR_CONTAINS(fresh()->Consume(SliceBuffer(meta, 0, meta->size() / 2), nullptr),
                        "message 0");
  EXPECT_ERROR_CONTAINS(fresh()->Consume(SliceBuffer(meta, 0, 3), nullptr), "message 0");
  EXPECT_ERROR_CONTAINS(fresh()->Consume(Buffer::FromString(std::string(64, '\xAB')), nullptr),
                        "message 0");
  EXPECT_ERROR_CONTAINS(fresh()->Consume(nullptr, nullptr), "no metadata");
  // A batch before the schema.
  EXPECT_ERROR_CONTAINS(fresh()->Consume(e.batch.metadata, JoinBody(e.batch)),
                        "first message must be a schema");
  // Body shorter and longer than bodyLength.
  BufferPtr body = JoinBody(e.batch);
  for (int64_t delta : {-8, -1, 1, 8}) {
    auto d = fresh();
    ASSERT_TRUE(d->Consume(meta, nullptr).ok());
    auto longer = AllocateBuffer(body->size() + 8).ValueOrDie();
    std::memcpy(longer->mutable_data(), body->data(), static_cast<size_t>(body->size()));
    BufferPtr wrong = SliceBuffer(longer, 0, body->size() + delta);
    EXPECT_ERROR_CONTAINS(d->Consume(e.batch.metadata, wrong), "message 1");
    // After an error every call fails.
    EXPECT_FALSE(d->Consume(e.batch.metadata, body).ok());
  }
  // A schema message where a body is not expected carries none.
  {
    auto d = fresh();
    EXPECT_ERROR_CONTAINS(d->Consume(meta, Buffer::FromString(std::string(8, '\0'))), "body");
  }
}

TEST(MessageDecoder, HugeRowCountAndUnknownDictionary) {
  Encoded e = EncodeSmall();
  flatbuffers::FlatBufferBuilder fbb;
  auto bytes = [&] {
    return Buffer::FromString(std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()),
                                          fbb.GetSize()));
  };
  {
    // 2^62 rows claimed over a small body.
    internal::RecordBatchMeta meta;
    meta.length = int64_t{1} << 62;
    meta.nodes = {{meta.length, 0}, {meta.length, 0}};
    meta.buffers.assign(5, internal::BufferMeta{0, 0});
    internal::BuildRecordBatchMessage(&fbb, meta, 64);
    auto d = MessageDecoder::Make().ValueOrDie();
    ASSERT_TRUE(d->Consume(e.schema.metadata, nullptr).ok());
    auto r = d->Consume(bytes(), Buffer::FromString(std::string(64, '\0')));
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("message 1"), std::string::npos) << r.status();
  }
  {
    // A delta for a dictionary id the schema does not have.
    internal::DictionaryBatchMeta meta;
    std::string body = testing::Utf8DictBody({"a", "b"}, 99, true, &meta);
    internal::BuildDictionaryBatchMessage(&fbb, meta, static_cast<int64_t>(body.size()));
    auto d = MessageDecoder::Make().ValueOrDie();
    ASSERT_TRUE(d->Consume(e.schema.metadata, nullptr).ok());
    EXPECT_ERROR_CONTAINS(d->Consume(bytes(), Buffer::FromString(body)), "99");
  }
}

}  // namespace
}  // namespace alkaid::ipc
