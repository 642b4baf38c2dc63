#include "alkaid/ipc/writer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include "metadata.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

namespace fb = internal::fb;
using testing::ArrayFromJSON;

// One encapsulated message found in a written stream.
struct Parsed {
  int64_t offset = 0;          // of the continuation marker
  int32_t stated_length = 0;   // the int32 after the marker
  int64_t metadata_size = 0;   // prefix + flatbuffer + padding
  const fb::Message* message = nullptr;
  const uint8_t* body = nullptr;

  const fb::RecordBatch* batch() const {
    if (message->header_type() == fb::MessageHeader::RecordBatch) return message->header_as_RecordBatch();
    return message->header_as_DictionaryBatch()->data();
  }
  // Bytes of body buffer i as written (compressed or not).
  std::string_view BufferBytes(int i) const {
    const fb::Buffer* b = batch()->buffers()->Get(i);
    return {reinterpret_cast<const char*>(body + b->offset()), static_cast<size_t>(b->length())};
  }
  template <typename T>
  std::vector<T> BufferValues(int i) const {
    std::string_view bytes = BufferBytes(i);
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
  int64_t NodeLength(int i) const { return batch()->nodes()->Get(i)->length(); }
  int64_t NodeNulls(int i) const { return batch()->nodes()->Get(i)->null_count(); }
};

struct ParsedStream {
  std::vector<Parsed> messages;
  bool saw_eos = false;
  int64_t end = 0;  // position after the EOS marker
  BufferPtr keep;   // the parsed bytes, so temporaries stay alive
};

// Walks messages from `start` until EOS (or the end of `size`), checking framing.
ParsedStream ParseStream(const uint8_t* data, int64_t size, int64_t start = 0, bool legacy = false) {
  ParsedStream out;
  int64_t pos = start;
  while (pos + 4 <= size) {
    Parsed p;
    p.offset = pos;
    int32_t length;
    if (!legacy) {
      uint32_t marker;
      std::memcpy(&marker, data + pos, 4);
      EXPECT_EQ(marker, 0xFFFFFFFFu) << "at " << pos;
      pos += 4;
    }
    std::memcpy(&length, data + pos, 4);
    pos += 4;
    if (length == 0) {
      out.saw_eos = true;
      out.end = pos;
      return out;
    }
    p.stated_length = length;
    p.metadata_size = (legacy ? 4 : 8) + length;
    EXPECT_EQ(p.metadata_size % 8, 0);
    auto verified = internal::VerifyMessage(data + pos, length);
    EXPECT_TRUE(verified.ok()) << verified.status().ToString();
    if (!verified.ok()) return out;
    p.message = *verified;
    EXPECT_EQ(p.message->version(), fb::MetadataVersion::V5);
    pos += length;
    p.body = data + pos;
    pos += p.message->bodyLength();
    out.messages.push_back(p);
  }
  out.end = pos;
  return out;
}

ParsedStream ParseStream(const BufferPtr& buffer, bool legacy = false) {
  ParsedStream out = ParseStream(buffer->data(), buffer->size(), 0, legacy);
  out.keep = buffer;
  return out;
}

RecordBatchPtr Batch(const SchemaPtr& schema, std::vector<ArrayDataPtr> columns) {
  int64_t rows = columns.empty() ? 0 : columns[0]->length;
  return RecordBatch::Make(schema, rows, std::move(columns));
}

std::string BitString(std::string_view bytes, int64_t nbits) {
  std::string out;
  for (int64_t i = 0; i < nbits; ++i) {
    out += (static_cast<uint8_t>(bytes[static_cast<size_t>(i / 8)]) >> (i % 8)) & 1 ? '1' : '0';
  }
  return out;
}

// ---------------------------------------------------------------------------
// Framing

TEST(IpcWriterFraming, StreamBytes) {
  auto s = schema({field("a", int32())});
  auto batch = Batch(s, {ArrayFromJSON(int32(), "[1, 2, 3]")});
  BufferPtr out = SerializeStream(s, {batch}).ValueOrDie();
  const uint8_t* d = out->data();

  ParsedStream parsed = ParseStream(out);
  ASSERT_TRUE(parsed.saw_eos);
  EXPECT_EQ(parsed.end, out->size());
  ASSERT_EQ(parsed.messages.size(), 2u);
  EXPECT_EQ(parsed.messages[0].message->header_type(), fb::MessageHeader::Schema);
  EXPECT_EQ(parsed.messages[0].message->bodyLength(), 0);
  const Parsed& rb = parsed.messages[1];
  EXPECT_EQ(rb.offset, parsed.messages[0].metadata_size);
  ASSERT_EQ(rb.message->header_type(), fb::MessageHeader::RecordBatch);
  EXPECT_EQ(rb.batch()->length(), 3);
  EXPECT_EQ(rb.message->bodyLength(), 16);  // no validity; 12 value bytes padded to 16
  ASSERT_EQ(rb.batch()->buffers()->size(), 2u);
  EXPECT_EQ(rb.batch()->buffers()->Get(0)->length(), 0);
  EXPECT_EQ(rb.batch()->buffers()->Get(1)->offset(), 0);
  EXPECT_EQ(rb.batch()->buffers()->Get(1)->length(), 12);
  EXPECT_EQ(rb.BufferValues<int32_t>(1), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(rb.NodeLength(0), 3);
  EXPECT_EQ(rb.NodeNulls(0), 0);
  for (int i = 12; i < 16; ++i) EXPECT_EQ(rb.body[i], 0) << "padding byte " << i;
  // Trailing EOS marker.
  const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(d + out->size() - 8, eos, 8), 0);
  // Zero padding after each flatbuffer.
  const Parsed& first = parsed.messages[0];
  flatbuffers::uoffset_t fb_size = 0;
  (void)fb_size;
  EXPECT_EQ(first.stated_length + 8, first.metadata_size);
}

TEST(IpcWriterFraming, NullsAndAlignment64) {
  auto s = schema({field("a", int64()), field("b", utf8())});
  auto batch = Batch(s, {ArrayFromJSON(int64(), "[1, null, 3]"),
                         ArrayFromJSON(utf8(), R"(["x", "yy", null])")});
  IpcWriteOptions options;
  options.alignment = 64;
  BufferPtr out = SerializeStream(s, {batch}, options).ValueOrDie();
  ParsedStream parsed = ParseStream(out);
  ASSERT_EQ(parsed.messages.size(), 2u);
  for (const Parsed& p : parsed.messages) {
    EXPECT_EQ(p.metadata_size % 64, 0);
    EXPECT_EQ(p.offset % 64, 0);
  }
  const Parsed& rb = parsed.messages[1];
  EXPECT_EQ(rb.message->bodyLength() % 64, 0);
  const auto* buffers = rb.batch()->buffers();
  ASSERT_EQ(buffers->size(), 5u);
  for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
    EXPECT_EQ(buffers->Get(i)->offset() % 64, 0) << "buffer " << i;
  }
  EXPECT_EQ(rb.NodeNulls(0), 1);
  EXPECT_EQ(rb.NodeNulls(1), 1);
  EXPECT_EQ(BitString(rb.BufferBytes(0), 3), "101");
  EXPECT_EQ(rb.BufferValues<int32_t>(3), (std::vector<int32_t>{0, 1, 3, 3}));
  EXPECT_EQ(rb.BufferBytes(4), "xyy");

  IpcWriteOptions bad;
  bad.alignment = 16;
  EXPECT_TRUE(SerializeStream(s, {batch}, bad).status().IsInvalid());
}

TEST(IpcWriterFraming, Alignment8BufferOffsets) {
  auto s = schema({field("a", int8()), field("b", int16()), field("c", boolean())});
  auto batch = Batch(s, {ArrayFromJSON(int8(), "[1, 2, 3]"), ArrayFromJSON(int16(), "[1, 2, 3]"),
                         ArrayFromJSON(boolean(), "[true, false, true]")});
  ParsedStream parsed = ParseStream(SerializeStream(s, {batch}).ValueOrDie());
  const auto* buffers = parsed.messages[1].batch()->buffers();
  int64_t expected_offset = 0;
  for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
    EXPECT_EQ(buffers->Get(i)->offset(), expected_offset) << "buffer " << i;
    EXPECT_EQ(buffers->Get(i)->offset() % 8, 0);
    expected_offset += RoundUpToMultipleOf8(buffers->Get(i)->length());
  }
  EXPECT_EQ(parsed.messages[1].message->bodyLength(), expected_offset);
  EXPECT_EQ(BitString(parsed.messages[1].BufferBytes(5), 3), "101");
}

TEST(IpcWriterFraming, LegacyAndNoEos) {
  auto s = schema({field("a", int32())});
  auto batch = Batch(s, {ArrayFromJSON(int32(), "[7]")});
  IpcWriteOptions legacy;
  legacy.write_legacy_format = true;
  BufferPtr out = SerializeStream(s, {batch}, legacy).ValueOrDie();
  uint32_t first;
  std::memcpy(&first, out->data(), 4);
  EXPECT_NE(first, 0xFFFFFFFFu);
  EXPECT_EQ((first + 4) % 8, 0u);
  ParsedStream parsed = ParseStream(out, /*legacy=*/true);
  ASSERT_TRUE(parsed.saw_eos);
  EXPECT_EQ(parsed.messages.size(), 2u);
  EXPECT_EQ(parsed.end, out->size());
  uint32_t last;
  std::memcpy(&last, out->data() + out->size() - 4, 4);
  EXPECT_EQ(last, 0u);

  IpcWriteOptions no_eos;
  no_eos.emit_eos = false;
  BufferPtr plain = SerializeStream(s, {batch}).ValueOrDie();
  BufferPtr cut = SerializeStream(s, {batch}, no_eos).ValueOrDie();
  EXPECT_EQ(cut->size() + 8, plain->size());
  EXPECT_EQ(std::memcmp(cut->data(), plain->data(), static_cast<size_t>(cut->size())), 0);
}

void CheckFile(const BufferPtr& out, IpcDialect dialect, int expected_batches) {
  const std::string magic = dialect == IpcDialect::kAlkaid ? "ALKAID1" : "ARROW1";
  const int64_t size = out->size();
  ASSERT_GT(size, 20);
  std::string head(reinterpret_cast<const char*>(out->data()), 8);
  EXPECT_EQ(head, magic + std::string(8 - magic.size(), '\0'));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(out->data() + size - magic.size()), magic.size()), magic);
  int32_t footer_length;
  std::memcpy(&footer_length, out->data() + size - magic.size() - 4, 4);
  const int64_t footer_start = size - static_cast<int64_t>(magic.size()) - 4 - footer_length;
  ASSERT_GT(footer_start, 8);
  EXPECT_EQ(footer_start % 8, 0);

  // The stream part ends with EOS right before the footer.
  ParsedStream parsed = ParseStream(out->data(), footer_start, 8);
  ASSERT_TRUE(parsed.saw_eos);
  EXPECT_EQ(parsed.end, footer_start);

  flatbuffers::Verifier verifier(out->data() + footer_start, static_cast<size_t>(footer_length));
  ASSERT_TRUE(fb::VerifyFooterBuffer(verifier));
  const fb::Footer* footer = fb::GetFooter(out->data() + footer_start);
  EXPECT_EQ(footer->version(), fb::MetadataVersion::V5);
  ASSERT_NE(footer->recordBatches(), nullptr);
  ASSERT_EQ(static_cast<int>(footer->recordBatches()->size()), expected_batches);
  int batch_index = 0;
  for (const Parsed& p : parsed.messages) {
    if (p.message->header_type() != fb::MessageHeader::RecordBatch) continue;
    const fb::Block* block = footer->recordBatches()->Get(batch_index++);
    EXPECT_EQ(block->offset(), p.offset);
    EXPECT_EQ(block->metaDataLength(), p.metadata_size);
    EXPECT_EQ(block->bodyLength(), p.message->bodyLength());
  }
  EXPECT_EQ(batch_index, expected_batches);
}

TEST(IpcWriterFile, MagicFooterAndBlocks) {
  auto s = schema({field("a", int32()), field("b", utf8())});
  auto b1 = Batch(s, {ArrayFromJSON(int32(), "[1, 2]"), ArrayFromJSON(utf8(), R"(["a", null])")});
  auto b2 = Batch(s, {ArrayFromJSON(int32(), "[3]"), ArrayFromJSON(utf8(), R"(["ccc"])")});
  auto footer_md = KeyValueMetadata::Make({{"writer", "alkaid"}});
  BufferPtr out = SerializeFile(s, {b1, b2}, IpcWriteOptions::Defaults(), footer_md).ValueOrDie();
  CheckFile(out, IpcDialect::kArrow, 2);
  // Footer schema and metadata.
  int32_t footer_length;
  std::memcpy(&footer_length, out->data() + out->size() - 10, 4);
  const fb::Footer* footer = fb::GetFooter(out->data() + out->size() - 10 - footer_length);
  auto read = internal::ReadSchema(footer->schema()).ValueOrDie();
  EXPECT_TRUE(read.schema->Equals(*s));
  ASSERT_NE(footer->custom_metadata(), nullptr);
  EXPECT_EQ(footer->custom_metadata()->Get(0)->value()->str(), "alkaid");

  IpcWriteOptions alkaid;
  alkaid.dialect = IpcDialect::kAlkaid;
  CheckFile(SerializeFile(s, {b1}, alkaid).ValueOrDie(), IpcDialect::kAlkaid, 1);
  CheckFile(SerializeFile(s, {}, alkaid).ValueOrDie(), IpcDialect::kAlkaid, 0);
}

TEST(IpcWriterFile, LegacyFramingKeepsFooterAligned) {
  auto s = schema({field("a", int32())});
  IpcWriteOptions legacy;
  legacy.write_legacy_format = true;
  BufferPtr out = SerializeFile(s, {Batch(s, {ArrayFromJSON(int32(), "[1]")})}, legacy).ValueOrDie();
  int32_t footer_length;
  std::memcpy(&footer_length, out->data() + out->size() - 10, 4);
  const int64_t footer_start = out->size() - 10 - footer_length;
  EXPECT_EQ(footer_start % 8, 0);
  ParsedStream parsed = ParseStream(out->data(), footer_start, 8, /*legacy=*/true);
  EXPECT_TRUE(parsed.saw_eos);
  EXPECT_EQ(parsed.messages.size(), 2u);
  flatbuffers::Verifier verifier(out->data() + footer_start, static_cast<size_t>(footer_length));
  EXPECT_TRUE(fb::VerifyFooterBuffer(verifier));
}

TEST(IpcWriterFile, FileWriterOnFileStream) {
  auto s = schema({field("a", int32())});
  auto b = Batch(s, {ArrayFromJSON(int32(), "[1, 2, 3, 4, 5]")});
  io::MockOutputStream mock;
  auto writer = MakeFileWriter(&mock, s).ValueOrDie();
  ASSERT_TRUE(writer->WriteRecordBatch(*b).ok());
  ASSERT_TRUE(writer->Close().ok());
  ASSERT_TRUE(writer->Close().ok());  // idempotent
  EXPECT_EQ(writer->stats().bytes_written, *mock.Tell());
  EXPECT_EQ(SerializeFile(s, {b}).ValueOrDie()->size(), *mock.Tell());
  EXPECT_TRUE(writer->WriteRecordBatch(*b).IsInvalid());
}

// ---------------------------------------------------------------------------
// Dictionaries

struct DictStream {
  std::vector<Parsed> dictionaries;
  std::vector<Parsed> batches;
  BufferPtr keep;
};

DictStream SplitMessages(const ParsedStream& parsed) {
  DictStream out;
  out.keep = parsed.keep;
  for (const Parsed& p : parsed.messages) {
    if (p.message->header_type() == fb::MessageHeader::DictionaryBatch) out.dictionaries.push_back(p);
    if (p.message->header_type() == fb::MessageHeader::RecordBatch) out.batches.push_back(p);
  }
  return out;
}

ArrayDataPtr DictArray(const DataTypePtr& type, const std::string& indices, const ArrayDataPtr& dict) {
  const auto& d = checked_cast<DictionaryType>(*type);
  auto data = ArrayFromJSON(d.index_type(), indices);
  data->type = type;
  data->dictionary = dict;
  return data;
}

TEST(IpcWriterDictionary, DeltaReplacementAndReuse) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type)});
  auto dict1 = ArrayFromJSON(utf8(), R"(["a", "b"])");
  auto dict2 = ArrayFromJSON(utf8(), R"(["a", "b", "c", "d"])");
  auto dict3 = ArrayFromJSON(utf8(), R"(["x"])");
  auto dict1_copy = ArrayFromJSON(utf8(), R"(["a", "b"])");
  std::vector<RecordBatchPtr> batches = {
      Batch(s, {DictArray(type, "[0, 1]", dict1)}),
      Batch(s, {DictArray(type, "[1, 1]", dict1)}),       // same pointer: nothing
      Batch(s, {DictArray(type, "[1]", dict1_copy)}),     // equal values: nothing
      Batch(s, {DictArray(type, "[2, 3]", dict2)}),       // extends: delta "c", "d"
      Batch(s, {DictArray(type, "[0]", dict3)}),          // unrelated: replacement
  };
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, s).ValueOrDie();
  for (const auto& b : batches) ASSERT_TRUE(writer->WriteRecordBatch(*b).ok());
  ASSERT_TRUE(writer->Close().ok());
  WriteStats stats = writer->stats();
  EXPECT_EQ(stats.num_record_batches, 5);
  EXPECT_EQ(stats.num_dictionary_batches, 3);
  EXPECT_EQ(stats.num_dictionary_deltas, 1);
  EXPECT_EQ(stats.num_replaced_dictionaries, 1);
  EXPECT_EQ(stats.num_messages, 9);

  BufferPtr out = sink.Finish().ValueOrDie();
  EXPECT_EQ(stats.bytes_written, out->size());
  ParsedStream parsed = ParseStream(out);
  ASSERT_EQ(parsed.messages.size(), 9u);
  // Order: schema, dict, batch, batch, batch, delta, batch, replacement, batch.
  EXPECT_EQ(parsed.messages[1].message->header_type(), fb::MessageHeader::DictionaryBatch);
  EXPECT_EQ(parsed.messages[5].message->header_type(), fb::MessageHeader::DictionaryBatch);
  EXPECT_EQ(parsed.messages[7].message->header_type(), fb::MessageHeader::DictionaryBatch);
  DictStream split = SplitMessages(parsed);
  ASSERT_EQ(split.dictionaries.size(), 3u);
  const auto* first = split.dictionaries[0].message->header_as_DictionaryBatch();
  EXPECT_EQ(first->id(), 0);
  EXPECT_FALSE(first->isDelta());
  EXPECT_EQ(split.dictionaries[0].BufferBytes(2), "ab");
  const auto* delta = split.dictionaries[1].message->header_as_DictionaryBatch();
  EXPECT_TRUE(delta->isDelta());
  EXPECT_EQ(delta->data()->length(), 2);
  EXPECT_EQ(split.dictionaries[1].BufferValues<int32_t>(1), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(split.dictionaries[1].BufferBytes(2), "cd");
  const auto* replacement = split.dictionaries[2].message->header_as_DictionaryBatch();
  EXPECT_FALSE(replacement->isDelta());
  EXPECT_EQ(replacement->data()->length(), 1);
  EXPECT_EQ(split.dictionaries[2].BufferBytes(2), "x");
  // Record batches carry the indices.
  EXPECT_EQ(split.batches[3].BufferValues<int8_t>(1), (std::vector<int8_t>{2, 3}));
}

TEST(IpcWriterDictionary, DeltasDisabledMeansReplacement) {
  auto type = dictionary(int32(), int64());
  auto s = schema({field("d", type)});
  auto dict1 = ArrayFromJSON(int64(), "[10]");
  auto dict2 = ArrayFromJSON(int64(), "[10, 20]");
  IpcWriteOptions options;
  options.emit_dictionary_deltas = false;
  BufferPtr out = SerializeStream(s, {Batch(s, {DictArray(type, "[0]", dict1)}),
                                      Batch(s, {DictArray(type, "[1]", dict2)})},
                                  options).ValueOrDie();
  DictStream split = SplitMessages(ParseStream(out));
  ASSERT_EQ(split.dictionaries.size(), 2u);
  EXPECT_FALSE(split.dictionaries[1].message->header_as_DictionaryBatch()->isDelta());
  EXPECT_EQ(split.dictionaries[1].BufferValues<int64_t>(1), (std::vector<int64_t>{10, 20}));
}

TEST(IpcWriterDictionary, FileFormatAllowsDeltasButNotReplacement) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type)});
  auto dict1 = ArrayFromJSON(utf8(), R"(["a"])");
  auto dict2 = ArrayFromJSON(utf8(), R"(["a", "b"])");
  auto dict3 = ArrayFromJSON(utf8(), R"(["z"])");
  BufferPtr out = SerializeFile(s, {Batch(s, {DictArray(type, "[0]", dict1)}),
                                    Batch(s, {DictArray(type, "[1]", dict2)})}).ValueOrDie();
  CheckFile(out, IpcDialect::kArrow, 2);
  int32_t footer_length;
  std::memcpy(&footer_length, out->data() + out->size() - 10, 4);
  const fb::Footer* footer = fb::GetFooter(out->data() + out->size() - 10 - footer_length);
  ASSERT_EQ(footer->dictionaries()->size(), 2u);

  auto result = SerializeFile(s, {Batch(s, {DictArray(type, "[0]", dict1)}),
                                  Batch(s, {DictArray(type, "[0]", dict3)})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(
                "dictionary replacement is not allowed in the IPC file format"),
            std::string::npos)
      << result.status().ToString();
}

TEST(IpcWriterDictionary, SharedIdEmittedOnceAndNestedOrder) {
  auto inner_type = dictionary(int8(), utf8());
  auto s = schema({field("a", inner_type), field("b", inner_type),
                   field("s", struct_({field("x", dictionary(int16(), int32()))}))});
  DictionaryIds ids;
  ids.Set({0}, 5);
  ids.Set({1}, 5);
  ids.Set({2, 0}, 9);
  auto dict = ArrayFromJSON(utf8(), R"(["p", "q"])");
  auto inner_dict = ArrayFromJSON(int32(), "[100, 200, 300]");
  auto x = DictArray(dictionary(int16(), int32()), "[2, 0]", inner_dict);
  auto st = ArrayData::Make(s->field(2)->type(), 2, {nullptr}, {x}, 0);
  auto batch = Batch(s, {DictArray(inner_type, "[0, 1]", dict), DictArray(inner_type, "[1, 1]", dict), st});
  IpcWriteOptions options;
  options.dictionary_ids = ids;
  DictStream split = SplitMessages(ParseStream(SerializeStream(s, {batch}, options).ValueOrDie()));
  ASSERT_EQ(split.dictionaries.size(), 2u);
  EXPECT_EQ(split.dictionaries[0].message->header_as_DictionaryBatch()->id(), 5);
  EXPECT_EQ(split.dictionaries[1].message->header_as_DictionaryBatch()->id(), 9);
  EXPECT_EQ(split.dictionaries[1].BufferValues<int32_t>(1), (std::vector<int32_t>{100, 200, 300}));

  // Different dictionaries under one id within a batch are refused.
  auto other = ArrayFromJSON(utf8(), R"(["r"])");
  auto bad = Batch(s, {DictArray(inner_type, "[0]", dict), DictArray(inner_type, "[0]", other),
                       st->Slice(0, 1)});
  auto result = SerializeStream(s, {bad}, options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("sharing dictionary id 5"), std::string::npos);
}

TEST(IpcWriterDictionary, DictionaryInsideDictionaryValuesComesFirst) {
  auto inner = dictionary(int8(), utf8());
  auto value_type = struct_({field("v", inner)});
  auto outer = dictionary(int32(), value_type);
  auto s = schema({field("o", outer)});
  auto inner_dict = ArrayFromJSON(utf8(), R"(["m", "n"])");
  auto v = DictArray(inner, "[1, 0, 1]", inner_dict);
  auto outer_values = ArrayData::Make(value_type, 3, {nullptr}, {v}, 0);
  auto batch = Batch(s, {DictArray(outer, "[2, 0]", outer_values)});
  DictStream split = SplitMessages(ParseStream(SerializeStream(s, {batch}).ValueOrDie()));
  ASSERT_EQ(split.dictionaries.size(), 2u);
  // AssignSequential: outer = 0, inner = 1; the inner one must be sent first.
  EXPECT_EQ(split.dictionaries[0].message->header_as_DictionaryBatch()->id(), 1);
  EXPECT_EQ(split.dictionaries[1].message->header_as_DictionaryBatch()->id(), 0);
  EXPECT_EQ(split.dictionaries[1].BufferValues<int8_t>(2), (std::vector<int8_t>{1, 0, 1}));
}

TEST(IpcWriterDictionary, MissingDictionaryIsAnError) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type)});
  auto data = DictArray(type, "[0]", nullptr);
  auto result = SerializeStream(s, {Batch(s, {data})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("no dictionary"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Sliced arrays

Parsed WriteOne(const SchemaPtr& s, const RecordBatchPtr& batch, BufferPtr* keep,
                const IpcWriteOptions& options = IpcWriteOptions::Defaults()) {
  *keep = SerializeStream(s, {batch}, options).ValueOrDie();
  ParsedStream parsed = ParseStream(*keep);
  EXPECT_EQ(parsed.messages.size(), 2u);
  return parsed.messages.back();
}

TEST(IpcWriterSlices, FixedWidthAndBitmaps) {
  auto ints = ArrayFromJSON(int32(), "[0, 1, null, 3, 4, 5, null, 7, 8, 9, 10]");
  auto bools = ArrayFromJSON(boolean(), "[true, false, true, true, false, false, true, null, true, false, true]");
  auto s = schema({field("i", int32()), field("b", boolean())});
  auto batch = Batch(s, {ints->Slice(3, 6), bools->Slice(3, 6)});
  BufferPtr keep;
  Parsed p = WriteOne(s, batch, &keep);
  EXPECT_EQ(p.batch()->length(), 6);
  EXPECT_EQ(p.NodeLength(0), 6);
  EXPECT_EQ(p.NodeNulls(0), 1);
  EXPECT_EQ(BitString(p.BufferBytes(0), 6), "111011");
  std::vector<int32_t> values = p.BufferValues<int32_t>(1);
  ASSERT_EQ(values.size(), 6u);
  EXPECT_EQ(values[0], 3);
  EXPECT_EQ(values[5], 8);
  EXPECT_EQ(p.NodeNulls(1), 1);
  EXPECT_EQ(BitString(p.BufferBytes(2), 6), "111101");
  EXPECT_EQ(BitString(p.BufferBytes(3), 6), "100101");

  // A byte-aligned slice of a slice with no nulls: validity omitted.
  auto batch2 = Batch(s, {ints->Slice(8, 3), bools->Slice(8, 3)});
  Parsed p2 = WriteOne(s, batch2, &keep);
  EXPECT_EQ(p2.NodeNulls(0), 0);
  EXPECT_EQ(p2.BufferBytes(0).size(), 0u);
  EXPECT_EQ(p2.BufferValues<int32_t>(1), (std::vector<int32_t>{8, 9, 10}));
  EXPECT_EQ(BitString(p2.BufferBytes(3), 3), "101");
}

TEST(IpcWriterSlices, BinaryOffsetsRebased) {
  auto strs = ArrayFromJSON(utf8(), R"(["ab", "cde", null, "f", "ghij"])");
  auto large = ArrayFromJSON(large_binary(), R"(["ab", "cde", null, "f", "ghij"])");
  auto s = schema({field("s", utf8()), field("l", large_binary())});
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {strs->Slice(1, 3), large->Slice(1, 3)}), &keep);
  EXPECT_EQ(p.BufferValues<int32_t>(1), (std::vector<int32_t>{0, 3, 3, 4}));
  EXPECT_EQ(p.BufferBytes(2), "cdef");
  EXPECT_EQ(p.BufferValues<int64_t>(4), (std::vector<int64_t>{0, 3, 3, 4}));
  EXPECT_EQ(p.BufferBytes(5), "cdef");
  EXPECT_EQ(p.NodeNulls(0), 1);

  // Empty slice: one zero offset, no data.
  Parsed e = WriteOne(s, Batch(s, {strs->Slice(2, 0), large->Slice(2, 0)}), &keep);
  EXPECT_EQ(e.BufferValues<int32_t>(1), (std::vector<int32_t>{0}));
  EXPECT_EQ(e.BufferBytes(2).size(), 0u);
  EXPECT_EQ(e.BufferValues<int64_t>(4), (std::vector<int64_t>{0}));
}

TEST(IpcWriterSlices, ListsNarrowTheirChildren) {
  auto lists = ArrayFromJSON(list(int16()), "[[1, 2], [3], null, [4, 5, 6], []]");
  auto fsl = ArrayFromJSON(fixed_size_list(int8(), 2), "[[1, 2], [3, 4], [5, 6], [7, 8]]");
  auto structs = ArrayFromJSON(struct_({field("a", int32()), field("b", utf8())}),
                               R"([{"a": 1, "b": "x"}, {"a": 2, "b": "yy"}, {"a": 3, "b": "z"}, {"a": 4, "b": "w"}])");
  auto s = schema({field("l", lists->type), field("f", fsl->type), field("s", structs->type)});
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {lists->Slice(1, 3), fsl->Slice(1, 3), structs->Slice(1, 3)}), &keep);
  // nodes: list, item, fsl, item, struct, a, b
  ASSERT_EQ(p.batch()->nodes()->size(), 7u);
  EXPECT_EQ(p.NodeLength(0), 3);
  EXPECT_EQ(p.NodeNulls(0), 1);
  EXPECT_EQ(p.BufferValues<int32_t>(1), (std::vector<int32_t>{0, 1, 1, 4}));
  EXPECT_EQ(p.NodeLength(1), 4);
  EXPECT_EQ(p.BufferValues<int16_t>(3), (std::vector<int16_t>{3, 4, 5, 6}));
  EXPECT_EQ(p.NodeLength(2), 3);
  EXPECT_EQ(p.NodeLength(3), 6);
  EXPECT_EQ(p.BufferValues<int8_t>(6), (std::vector<int8_t>{3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(p.NodeLength(4), 3);
  EXPECT_EQ(p.NodeLength(5), 3);
  EXPECT_EQ(p.BufferValues<int32_t>(9), (std::vector<int32_t>{2, 3, 4}));
  EXPECT_EQ(p.BufferValues<int32_t>(11), (std::vector<int32_t>{0, 2, 3, 4}));
  EXPECT_EQ(p.BufferBytes(12), "yyzw");
}

TEST(IpcWriterSlices, ListViewsWriteWholeChild) {
  auto lv = ArrayFromJSON(list_view(int32()), "[[1], [2, 3], null, [4]]");
  auto s = schema({field("lv", lv->type)});
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {lv->Slice(1, 2)}), &keep);
  EXPECT_EQ(p.NodeLength(0), 2);
  std::vector<int32_t> offsets = p.BufferValues<int32_t>(1);
  std::vector<int32_t> sizes = p.BufferValues<int32_t>(2);
  ASSERT_EQ(offsets.size(), 2u);
  EXPECT_EQ(sizes[0], 2);
  EXPECT_EQ(p.NodeLength(1), lv->child_data[0]->length);
  std::vector<int32_t> child = p.BufferValues<int32_t>(4);
  EXPECT_EQ(child[static_cast<size_t>(offsets[0])], 2);
  EXPECT_EQ(child[static_cast<size_t>(offsets[0]) + 1], 3);
}

TEST(IpcWriterSlices, Unions) {
  auto sparse_type = sparse_union({field("i", int32()), field("s", utf8())}, {3, 7});
  auto dense_type = dense_union({field("i", int32()), field("s", utf8())}, {3, 7});
  auto sparse = ArrayFromJSON(sparse_type, R"([[3, 1], [7, "a"], [3, 2], [7, "b"]])");
  auto dense = ArrayFromJSON(dense_type, R"([[3, 1], [7, "a"], [3, 2], [7, "b"]])");
  auto s = schema({field("sp", sparse_type), field("de", dense_type)});
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {sparse->Slice(1, 2), dense->Slice(1, 2)}), &keep);
  // sparse: node, type ids; children i (validity, values), s (validity, offsets, data)
  EXPECT_EQ(p.NodeLength(0), 2);
  EXPECT_EQ(p.NodeNulls(0), 0);
  EXPECT_EQ(p.BufferValues<int8_t>(0), (std::vector<int8_t>{7, 3}));
  EXPECT_EQ(p.NodeLength(1), 2);
  EXPECT_EQ(p.BufferValues<int32_t>(2)[1], 2);
  EXPECT_EQ(p.NodeLength(2), 2);
  // dense starts at buffer 6: type ids, offsets; children whole
  EXPECT_EQ(p.BufferValues<int8_t>(6), (std::vector<int8_t>{7, 3}));
  EXPECT_EQ(p.BufferValues<int32_t>(7), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(p.NodeLength(4), dense->child_data[0]->length);
  EXPECT_EQ(p.NodeLength(5), dense->child_data[1]->length);
}

TEST(IpcWriterSlices, RunEndEncodedTrimmed) {
  auto type = run_end_encoded(int32(), utf8());
  auto ree = ArrayFromJSON(type, R"(["a", "a", "a", "b", "b", "c", "c", "c", "c"])");
  auto s = schema({field("r", type)});
  BufferPtr keep;
  // Logical [2, 7): a | b b | c c
  Parsed p = WriteOne(s, Batch(s, {ree->Slice(2, 5)}), &keep);
  EXPECT_EQ(p.NodeLength(0), 5);
  EXPECT_EQ(p.NodeLength(1), 3);
  EXPECT_EQ(p.BufferValues<int32_t>(1), (std::vector<int32_t>{1, 3, 5}));
  EXPECT_EQ(p.NodeLength(2), 3);
  EXPECT_EQ(p.BufferBytes(4), "abc");

  // Unsliced: run ends written as they are.
  Parsed whole = WriteOne(s, Batch(s, {ree}), &keep);
  EXPECT_EQ(whole.BufferValues<int32_t>(1), (std::vector<int32_t>{3, 5, 9}));
  // A prefix keeps the runs and clamps the last one.
  Parsed prefix = WriteOne(s, Batch(s, {ree->Slice(0, 4)}), &keep);
  EXPECT_EQ(prefix.BufferValues<int32_t>(1), (std::vector<int32_t>{3, 4}));
}

TEST(IpcWriterSlices, ViewsKeepAllVariadicBuffers) {
  auto views = ArrayFromJSON(utf8_view(), R"(["short", "a string longer than twelve", null, "x"])");
  auto s = schema({field("v", utf8_view()), field("w", binary_view())});
  auto bviews = ArrayFromJSON(binary_view(), R"(["q"])");
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {views->Slice(1, 1), bviews}), &keep);
  const int64_t data_buffers = static_cast<int64_t>(views->buffers.size()) - 2;
  ASSERT_NE(p.batch()->variadicBufferCounts(), nullptr);
  ASSERT_EQ(p.batch()->variadicBufferCounts()->size(), 2u);
  EXPECT_EQ(p.batch()->variadicBufferCounts()->Get(0), data_buffers);
  EXPECT_EQ(p.batch()->variadicBufferCounts()->Get(1), static_cast<int64_t>(bviews->buffers.size()) - 2);
  EXPECT_EQ(p.BufferBytes(1).size(), 16u);
  std::string_view view = p.BufferBytes(1);
  int32_t size;
  std::memcpy(&size, view.data(), 4);
  EXPECT_EQ(size, 27);
  ASSERT_GE(data_buffers, 1);
  EXPECT_NE(p.BufferBytes(2).find("a string longer than twelve"), std::string_view::npos);
}

TEST(IpcWriterSlices, NullTypeAndEmptyBatch) {
  auto s = schema({field("n", null()), field("i", int64())});
  auto nulls = ArrayData::Make(null(), 4, {}, 4);
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {nulls, ArrayFromJSON(int64(), "[1, 2, 3, 4]")}), &keep);
  EXPECT_EQ(p.NodeLength(0), 4);
  EXPECT_EQ(p.NodeNulls(0), 4);
  EXPECT_EQ(p.batch()->buffers()->size(), 2u);  // null contributes none

  Parsed empty = WriteOne(s, Batch(s, {nulls->Slice(0, 0), ArrayFromJSON(int64(), "[]")}), &keep);
  EXPECT_EQ(empty.batch()->length(), 0);
  EXPECT_EQ(empty.message->bodyLength(), 0);
}

TEST(IpcWriterSlices, ExtensionColumnsWriteStorage) {
  class Tagged final : public ExtensionType {
   public:
    Tagged() : ExtensionType(int16()) {}
    std::string extension_name() const override { return "alkaid.test.tagged"; }
    std::string Serialize() const override { return "t"; }
    Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
      return std::make_shared<Tagged>();
    }
  };
  auto ext = std::make_shared<Tagged>();
  auto storage = ArrayFromJSON(int16(), "[5, 6, 7]");
  auto data = ArrayData::Make(ext, 3, storage->buffers, storage->null_count);
  auto s = schema({field("e", ext)});
  BufferPtr keep;
  Parsed p = WriteOne(s, Batch(s, {data->Slice(1, 2)}), &keep);
  EXPECT_EQ(p.BufferValues<int16_t>(1), (std::vector<int16_t>{6, 7}));
}

// ---------------------------------------------------------------------------
// Compression

TEST(IpcWriterCompression, HeaderFlagsAndPrefixes) {
  std::string repeated = "[";
  for (int i = 0; i < 2000; ++i) repeated += (i ? ", " : "") + std::to_string(i % 4);
  repeated += "]";
  auto s = schema({field("a", int32()), field("b", int8())});
  auto batch = Batch(s, {ArrayFromJSON(int32(), repeated), ArrayFromJSON(int8(), repeated)->Slice(0, 2000)});
  for (CompressionType type : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
    IpcWriteOptions options;
    options.compression = type;
    BufferPtr keep;
    Parsed p = WriteOne(s, batch, &keep, options);
    const fb::BodyCompression* compression = p.batch()->compression();
    ASSERT_NE(compression, nullptr);
    EXPECT_EQ(compression->codec(), type == CompressionType::kZstd ? fb::CompressionType::ZSTD
                                                                   : fb::CompressionType::LZ4_FRAME);
    EXPECT_EQ(compression->method(), fb::BodyCompressionMethod::BUFFER);
    // Empty validity buffer: no prefix at all.
    EXPECT_EQ(p.BufferBytes(0).size(), 0u);
    std::string_view values = p.BufferBytes(1);
    int64_t prefix;
    std::memcpy(&prefix, values.data(), 8);
    EXPECT_EQ(prefix, 8000);
    EXPECT_LT(values.size(), 8000u);
    auto codec = Codec::Create(type).ValueOrDie();
    auto decoded = DecompressBodyBuffer(*codec, Buffer::FromString(std::string(values)), 8000).ValueOrDie();
    int32_t v[4];
    std::memcpy(v, decoded->data() + 4 * 1000, sizeof(v));
    EXPECT_EQ(v[0], 0);
    EXPECT_EQ(v[3], 3);
    for (flatbuffers::uoffset_t i = 0; i < p.batch()->buffers()->size(); ++i) {
      EXPECT_EQ(p.batch()->buffers()->Get(i)->offset() % 8, 0);
    }
  }
  // Tiny buffers do not shrink: stored raw with prefix -1.
  IpcWriteOptions options;
  options.compression = CompressionType::kZstd;
  BufferPtr keep;
  auto tiny_schema = schema({field("a", int32())});
  Parsed tiny = WriteOne(tiny_schema, Batch(tiny_schema, {ArrayFromJSON(int32(), "[123456789]")}), &keep, options);
  std::string_view raw = tiny.BufferBytes(1);
  ASSERT_EQ(raw.size(), 12u);
  int64_t prefix;
  std::memcpy(&prefix, raw.data(), 8);
  EXPECT_EQ(prefix, -1);
  int32_t value;
  std::memcpy(&value, raw.data() + 8, 4);
  EXPECT_EQ(value, 123456789);

  // Threads give identical bytes.
  options.use_threads = true;
  options.num_threads = 2;
  BufferPtr a = SerializeStream(s, {batch}, options).ValueOrDie();
  options.use_threads = false;
  BufferPtr b = SerializeStream(s, {batch}, options).ValueOrDie();
  EXPECT_TRUE(a->Equals(*b));

  options.compression_level = 100000;
  EXPECT_FALSE(SerializeStream(s, {batch}, options).ok());
}

// ---------------------------------------------------------------------------
// Misc

TEST(IpcWriter, RejectsMismatchedBatches) {
  auto s = schema({field("a", int32())});
  auto other = schema({field("a", int64())});
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, s).ValueOrDie();
  Status st = writer->WriteRecordBatch(*Batch(other, {ArrayFromJSON(int64(), "[1]")}));
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("does not match"), std::string::npos);
  // Same schema, column length disagreeing with num_rows.
  auto lying = RecordBatch::Make(s, 5, {ArrayFromJSON(int32(), "[1]")});
  EXPECT_TRUE(writer->WriteRecordBatch(*lying).IsInvalid());
  // A buffer smaller than the array claims.
  auto short_data = ArrayData::Make(int32(), 100, {nullptr, Buffer::FromString("abcd")}, 0);
  st = writer->WriteRecordBatch(*RecordBatch::Make(s, 100, {short_data}));
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("column path 0"), std::string::npos) << st.ToString();
  EXPECT_FALSE(MakeStreamWriter(nullptr, s).ok());
}

TEST(IpcWriter, WriteTableSplitsAtChunkBoundaries) {
  auto s = schema({field("a", int32()), field("b", utf8())});
  auto a = std::make_shared<ChunkedArray>(
      ArrayDataVector{ArrayFromJSON(int32(), "[1, 2, 3]"), ArrayFromJSON(int32(), "[4, 5]")}, int32());
  auto b = std::make_shared<ChunkedArray>(
      ArrayDataVector{ArrayFromJSON(utf8(), R"(["a"])"), ArrayFromJSON(utf8(), "[]"),
                      ArrayFromJSON(utf8(), R"(["b", "c", "d", "e"])")},
      utf8());
  Table table(s, {a, b}, 5);
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, s).ValueOrDie();
  ASSERT_TRUE(writer->WriteTable(table).ok());
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(writer->stats().num_record_batches, 3);  // [0,1) [1,3) [3,5)
  ParsedStream parsed = ParseStream(sink.Finish().ValueOrDie());
  ASSERT_EQ(parsed.messages.size(), 4u);
  EXPECT_EQ(parsed.messages[1].batch()->length(), 1);
  EXPECT_EQ(parsed.messages[2].batch()->length(), 2);
  EXPECT_EQ(parsed.messages[3].BufferValues<int32_t>(1), (std::vector<int32_t>{4, 5}));
  EXPECT_EQ(parsed.messages[3].BufferBytes(4), "de");
}

TEST(IpcWriter, SerializeSchemaIsOneFramedMessage) {
  auto s = schema({field("a", int32())});
  BufferPtr out = SerializeSchema(*s).ValueOrDie();
  ParsedStream parsed = ParseStream(out);
  ASSERT_EQ(parsed.messages.size(), 1u);
  EXPECT_FALSE(parsed.saw_eos);
  EXPECT_EQ(parsed.end, out->size());
}

TEST(IpcWriter, PerBatchOverhead) {
  auto s = schema({field("a", int32()), field("b", float64()), field("c", utf8())});
  auto batch = Batch(s, {ArrayFromJSON(int32(), "[1, 2, 3, 4, 5, 6, 7, 8]"),
                         ArrayFromJSON(float64(), "[1, 2, 3, 4, 5, 6, 7, null]"),
                         ArrayFromJSON(utf8(), R"(["a", "b", "c", "d", "e", "f", "g", "h"])")});
  io::MockOutputStream sink;
  auto writer = MakeStreamWriter(&sink, s).ValueOrDie();
  constexpr int kBatches = 20000;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kBatches; ++i) ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());
  auto elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start);
  const double per_batch = elapsed.count() / kBatches;
  std::printf("[ INFO     ] %.3f us per 3-column 8-row batch\n", per_batch);
  EXPECT_LT(per_batch, 50.0);  // generous: debug and sanitizer builds run here too
  EXPECT_EQ(writer->stats().num_record_batches, kBatches);
}

}  // namespace
}  // namespace alkaid::ipc
