// Full validation of compressed bodies: the reader checks what the data pass
// would read of each decompressed buffer (UTF-8 text, ordered offsets) right
// after decompressing it, and the data pass takes the answer. These tests
// read hand-built batches whose buffers really are compressed (not stored
// raw) and check that every broken rule is still refused, with the message
// the uncompressed read gives, and that valid data still reads back equal.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/reader.h"
#include "src/ipc/reader_test_util.h"

namespace alkaid::ipc {
namespace {

using testing::BodyBuilder;
using testing::IpcBuilder;
using testing::ReadStream;
using internal::DictionaryBatchMeta;
using internal::RecordBatchMeta;

// How a case is read: codec, threads.
struct Mode {
  CompressionType codec;
  bool threads;
};

std::string ModeName(const Mode& m) {
  return std::string(m.codec == CompressionType::kLz4Frame ? "lz4" : "zstd") +
         (m.threads ? ", 2 threads" : ", 1 thread");
}

const Mode kModes[] = {{CompressionType::kLz4Frame, false},
                       {CompressionType::kLz4Frame, true},
                       {CompressionType::kZstd, false},
                       {CompressionType::kZstd, true}};

// A body buffer as a compressing writer stores it: the uncompressed length,
// then the frame. Fails the test if the codec would have stored it raw
// (then the case would not test decompressed buffers).
std::string Compressed(CompressionType type, const void* data, size_t size) {
  auto codec = Codec::Create(type).ValueOrDie();
  auto encoded =
      CompressBodyBuffer(*codec, {static_cast<const uint8_t*>(data), static_cast<int64_t>(size)})
          .ValueOrDie();
  int64_t prefix = 0;
  std::memcpy(&prefix, encoded->data(), 8);
  EXPECT_EQ(prefix, static_cast<int64_t>(size)) << "the test's bytes must compress";
  return std::string(reinterpret_cast<const char*>(encoded->data()),
                     static_cast<size_t>(encoded->size()));
}

template <typename T>
std::string Compressed(CompressionType type, const std::vector<T>& values) {
  return Compressed(type, values.data(), values.size() * sizeof(T));
}

std::string Compressed(CompressionType type, const std::string& bytes) {
  return Compressed(type, bytes.data(), bytes.size());
}

// Large enough that two threads decode the buffers (over the 1 MiB of
// ParallelOptions::min_parallel_bytes), small enough to stay quick.
constexpr int64_t kSlots = 300'000;
// Every kEvery-th slot holds the value, the others are empty: offsets that
// stay the same for runs of slots compress with LZ4 too (LZ4 stores offsets
// that change at every slot raw, which would test nothing here).
constexpr int64_t kEvery = 16;

// A utf8 (or large_utf8 with O = int64_t) column of kSlots slots, with
// optional changes applied to the offsets and the data.
template <typename O>
struct StringColumn {
  std::string value;
  std::vector<O> offsets;
  std::string data;
  std::vector<uint8_t> validity;  // empty: no nulls
  int64_t null_count = 0;

  explicit StringColumn(std::string v) : value(std::move(v)) {
    offsets.reserve(kSlots + 1);
    offsets.push_back(0);
    for (int64_t i = 0; i < kSlots; ++i) {
      if (i % kEvery == 0) data += value;
      offsets.push_back(static_cast<O>(data.size()));
    }
  }

  // Where the value of `slot` (a multiple of kEvery) starts in the data.
  size_t At(int64_t slot) const { return static_cast<size_t>(slot / kEvery) * value.size(); }

  void SetNull(int64_t i) {
    if (validity.empty()) validity.assign(static_cast<size_t>((kSlots + 7) / 8), 0xFF);
    validity[static_cast<size_t>(i / 8)] &= static_cast<uint8_t>(~(1u << (i % 8)));
    ++null_count;
  }

  // One batch of this column, every buffer compressed with `codec`.
  std::string Body(CompressionType codec, RecordBatchMeta* meta) const {
    BodyBuilder body;
    meta->length = kSlots;
    meta->nodes = {{kSlots, null_count}};
    meta->buffers = {validity.empty() ? body.Absent() : body.Add(Compressed(codec, validity)),
                     body.Add(Compressed(codec, offsets)), body.Add(Compressed(codec, data))};
    meta->compression = codec;
    return body.bytes();
  }
};

IpcReadOptions Options(const Mode& m, bool full = true) {
  IpcReadOptions options;
  options.validate_full = full;
  options.use_threads = m.threads;
  options.num_threads = m.threads ? 2 : 1;
  return options;
}

template <typename O>
Result<std::vector<RecordBatchPtr>> ReadColumn(const SchemaPtr& s, const StringColumn<O>& column,
                                               const Mode& m, bool full = true) {
  RecordBatchMeta meta;
  std::string body = column.Body(m.codec, &meta);
  IpcBuilder b(s);
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  b.AddEndOfStream();
  return ReadStream(b.FinishStream(), Options(m, full));
}

// Expects the column refused under full validation with `text` in the
// message, and read when trusted (the rule is one only the data pass sees).
template <typename O>
void ExpectRefused(const SchemaPtr& s, const StringColumn<O>& column, const std::string& text) {
  for (const Mode& m : kModes) {
    SCOPED_TRACE(ModeName(m));
    EXPECT_ERROR_CONTAINS(ReadColumn(s, column, m).status(), text);
    EXPECT_TRUE(ReadColumn(s, column, m, /*full=*/false).ok());
  }
}

template <typename O>
void ExpectAccepted(const SchemaPtr& s, const StringColumn<O>& column) {
  for (const Mode& m : kModes) {
    SCOPED_TRACE(ModeName(m));
    auto read = ReadColumn(s, column, m);
    EXPECT_TRUE(read.ok()) << read.status();
  }
}

TEST(ReaderScan, CompressedStringsReadBackEqual) {
  // ASCII, and text of 2- and 3-byte characters with an ASCII separator.
  for (const std::string value : {"ab", "\xC3\xA9-\xE4\xB8\xAD"}) {
    StringColumn<int32_t> column(value);
    column.SetNull(7);
    for (const Mode& m : kModes) {
      SCOPED_TRACE(ModeName(m));
      auto read = ReadColumn(schema({field("s", utf8())}), column, m);
      ASSERT_TRUE(read.ok()) << read.status();
      ASSERT_EQ(read->size(), 1u);
      const auto& got = *(*read)[0]->column_data(0);
      EXPECT_EQ(got.length, kSlots);
      EXPECT_EQ(got.null_count, 1);
      const auto* offsets = got.buffers[1]->data_as<int32_t>();
      EXPECT_EQ(offsets[kSlots], static_cast<int32_t>(column.data.size()));
      EXPECT_EQ(std::memcmp(got.buffers[2]->data(), column.data.data(), column.data.size()), 0);
    }
  }
}

TEST(ReaderScan, MalformedUtf8InACompressedBufferIsRefused) {
  StringColumn<int32_t> ascii("ab");
  ascii.data[ascii.At(150'000) + 1] = '\xFF';
  ExpectRefused(schema({field("s", utf8())}), ascii, "slot 150000 is not valid UTF-8");

  // Not ASCII: the buffer as a whole is not UTF-8 either.
  StringColumn<int32_t> text("\xC3\xA9");
  text.data[text.At(1232)] = '\x80';
  ExpectRefused(schema({field("s", utf8())}), text, "slot 1232 is not valid UTF-8");

  StringColumn<int64_t> large("ab");
  large.data[large.At(16) + 1] = '\xC0';
  ExpectRefused(schema({field("s", large_utf8())}), large, "slot 16 is not valid UTF-8");
}

TEST(ReaderScan, OffsetInsideACharacterOfValidTextIsRefused) {
  // Every byte taken together is valid UTF-8; one offset lands in the middle
  // of a two-byte character, so the slots on both sides of it are not.
  StringColumn<int32_t> column("\xC3\xA9");
  column.offsets[9008] += 1;  // slot 9007 (empty) takes the first byte of 9008's value
  ExpectRefused(schema({field("s", utf8())}), column, "slot 9007 is not valid UTF-8");
  // With the first of them null, the second still starts inside a character.
  column.SetNull(9007);
  ExpectRefused(schema({field("s", utf8())}), column, "slot 9008 is not valid UTF-8");
  // With both slots null the array is valid: null slots may hold any bytes.
  column.SetNull(9008);
  ExpectAccepted(schema({field("s", utf8())}), column);
}

TEST(ReaderScan, ValuesThatAreNotUtf8ButOnlyInNullSlotsAreAccepted) {
  StringColumn<int32_t> column("ab");
  column.data[column.At(4320)] = '\xFF';
  column.SetNull(4320);
  ExpectAccepted(schema({field("s", utf8())}), column);
}

TEST(ReaderScan, DecreasingCompressedOffsetsAreRefused) {
  StringColumn<int32_t> column("ab");
  column.offsets[100'000] = column.offsets[99'999] - 1;
  ExpectRefused(schema({field("s", utf8())}), column,
                "offset[100000] = 12499 is less than offset[99999] = 12500");

  StringColumn<int64_t> large("ab");
  large.offsets[3] = 1;
  ExpectRefused(schema({field("s", large_utf8())}), large, "offset[3] = 1 is less than");

  // Binary offsets have the same rule (no UTF-8 check).
  StringColumn<int32_t> binary("ab");
  binary.offsets[kSlots - 1] = 0;
  ExpectRefused(schema({field("b", ::alkaid::binary())}), binary, "is less than offset");
}

TEST(ReaderScan, LastOffsetPastTheDataIsRefusedEvenWhenOrdered) {
  StringColumn<int32_t> column("ab");
  column.offsets[kSlots] += 2;  // still ordered, but beyond the data buffer
  for (const Mode& m : kModes) {
    SCOPED_TRACE(ModeName(m));
    auto read = ReadColumn(schema({field("s", utf8())}), column, m);
    EXPECT_FALSE(read.ok());
  }
}

TEST(ReaderScan, DecreasingCompressedListOffsetsAreRefused) {
  for (const Mode& m : kModes) {
    SCOPED_TRACE(ModeName(m));
    std::vector<int32_t> offsets(kSlots + 1);
    for (int64_t i = 0; i <= kSlots; ++i) {
      offsets[static_cast<size_t>(i)] = static_cast<int32_t>(i / kEvery);
    }
    std::vector<int8_t> values(kSlots / kEvery, 1);
    auto s = schema({field("l", list(int8()))});
    auto read = [&](bool full) {
      BodyBuilder body;
      RecordBatchMeta meta;
      meta.length = kSlots;
      meta.nodes = {{kSlots, 0}, {kSlots / kEvery, 0}};
      meta.buffers = {body.Absent(), body.Add(Compressed(m.codec, offsets)), body.Absent(),
                      body.Add(Compressed(m.codec, values))};
      meta.compression = m.codec;
      IpcBuilder b(s);
      b.AddSchema();
      b.AddRecordBatch(meta, body.bytes());
      b.AddEndOfStream();
      return ReadStream(b.FinishStream(), Options(m, full));
    };
    EXPECT_TRUE(read(true).ok());
    offsets[777] = offsets[776] - 1;
    EXPECT_ERROR_CONTAINS(read(true).status(),
                          "offset[777] = " + std::to_string(offsets[777]) + " is less than");
    EXPECT_TRUE(read(false).ok());
  }
}

TEST(ReaderScan, CompressedDictionaryValuesAreChecked) {
  for (const Mode& m : kModes) {
    SCOPED_TRACE(ModeName(m));
    auto s = schema({field("d", dictionary(int8(), utf8()))});
    auto read = [&](const StringColumn<int32_t>& values) {
      DictionaryBatchMeta dict;
      dict.id = 0;
      std::string dict_body = values.Body(m.codec, &dict.data);
      BodyBuilder body;
      RecordBatchMeta meta;
      meta.length = 1;
      meta.nodes = {{1, 0}};
      meta.buffers = {body.Absent(), body.AddValues(std::vector<int8_t>{3})};
      IpcBuilder b(s);
      b.AddSchema();
      b.AddDictionaryBatch(dict, dict_body);
      b.AddRecordBatch(meta, body.bytes());
      b.AddEndOfStream();
      return ReadStream(b.FinishStream(), Options(m));
    };
    StringColumn<int32_t> values("xyz");
    EXPECT_TRUE(read(values).ok());
    values.data[values.At(60'000)] = '\xFE';
    EXPECT_ERROR_CONTAINS(read(values).status(), "dictionary id 0 failed validation");
  }
}

}  // namespace
}  // namespace alkaid::ipc
