// Big-endian round trip of the integration gold files: every batch is
// re-encoded in big-endian byte order (each buffer swapped by an
// implementation local to this test, following the swap kind its type's
// layout states) into a stream whose schema says big-endian, dictionaries
// (nested ones included) as big-endian dictionary batches; reading that
// stream back must give the gold batches again.
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/reader.h"
#include "src/ipc/reader_test_util.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

using testing::BodyBuilder;
using testing::IpcBuilder;

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Little-endian bytes -> big-endian bytes, element by element.
std::string ToBigEndian(std::string bytes, const BufferSpec& spec) {
  const size_t size = bytes.size();
  auto reverse = [&bytes](size_t pos, size_t n) {
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(pos),
                 bytes.begin() + static_cast<std::ptrdiff_t>(pos + n));
  };
  const auto width = static_cast<size_t>(spec.byte_width);
  switch (spec.swap) {
    case BufferSpec::kSwapNone:
      break;
    case BufferSpec::kSwapElement:
      for (size_t pos = 0; width > 1 && pos + width <= size; pos += width) reverse(pos, width);
      break;
    case BufferSpec::kSwapInt32Pairs:
      for (size_t pos = 0; pos + 8 <= size; pos += 8) {
        reverse(pos, 4);
        reverse(pos + 4, 4);
      }
      break;
    case BufferSpec::kSwapMonthDayNano:
      for (size_t pos = 0; pos + 16 <= size; pos += 16) {
        reverse(pos, 4);
        reverse(pos + 4, 4);
        reverse(pos + 8, 8);
      }
      break;
    case BufferSpec::kSwapViews:
      for (size_t pos = 0; pos + 16 <= size; pos += 16) {
        int32_t length;
        std::memcpy(&length, bytes.data() + pos, 4);  // host (little-endian) order
        reverse(pos, 4);
        if (length > BinaryViewValue::kInlineSize) {
          reverse(pos + 8, 4);
          reverse(pos + 12, 4);
        }
      }
      break;
  }
  return bytes;
}

// Appends `data` (offset 0, as read) and its subtree in big-endian order.
void Encode(const ArrayData& data, testing::RecordBatchMeta* meta, BodyBuilder* body) {
  ASSERT_EQ(data.offset, 0);
  const DataType& storage = data.storage_type();
  const DataTypeLayout& layout = storage.layout();
  meta->nodes.push_back({data.length, data.null_count});
  ASSERT_GE(data.buffers.size(), layout.buffers.size()) << storage.ToString();
  for (size_t i = 0; i < data.buffers.size(); ++i) {
    const BufferPtr& buffer = data.buffers[i];
    if (buffer == nullptr || buffer->size() == 0) {
      meta->buffers.push_back(body->Absent());
      continue;
    }
    std::string bytes(reinterpret_cast<const char*>(buffer->data()),
                      static_cast<size_t>(buffer->size()));
    // Variadic data buffers are bytes.
    if (i < layout.buffers.size()) bytes = ToBigEndian(std::move(bytes), layout.buffers[i]);
    meta->buffers.push_back(body->Add(bytes));
  }
  if (layout.variadic_data) {
    meta->variadic_buffer_counts.push_back(
        static_cast<int64_t>(data.buffers.size() - layout.buffers.size()));
  }
  for (const ArrayDataPtr& child : data.child_data) Encode(*child, meta, body);
}

// The dictionaries `data` (at `path`) and its children use, by id, each once,
// a dictionary whose values hold dictionary-encoded children after those
// children's own: the order a reader needs them in. Children of a
// dictionary's values sit below the dictionary field's path.
using IdAndValues = std::pair<int64_t, ArrayDataPtr>;
void CollectDictionaries(const ArrayData& data, const FieldPath& path, const DictionaryIds& ids,
                         std::vector<IdAndValues>* out) {
  const bool encoded = data.storage_type().id() == TypeId::kDictionary;
  if (encoded) {
    ASSERT_NE(data.dictionary, nullptr) << data.type->ToString();
  }
  const ArrayData& parent = encoded ? *data.dictionary : data;
  for (size_t i = 0; i < parent.child_data.size(); ++i) {
    FieldPath child = path;
    child.push_back(static_cast<int>(i));
    CollectDictionaries(*parent.child_data[i], child, ids, out);
  }
  if (!encoded) return;
  const std::optional<int64_t> id = ids.Get(path);
  ASSERT_TRUE(id.has_value()) << "no dictionary id at a path of depth " << path.size();
  for (const IdAndValues& seen : *out) {
    if (seen.first == *id) return;
  }
  out->emplace_back(*id, data.dictionary);
}

class BigEndianGold : public ::testing::TestWithParam<std::string> {};

TEST_P(BigEndianGold, SwappedStreamReadsBackAsTheGoldBatches) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  const std::string path = data_dir + "/arrow-testing/integration/" + GetParam() + ".stream";
  auto file = io::ReadableFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  auto reader = StreamReader::Open(std::move(*file));
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto gold = (*reader)->ReadAll();
  ASSERT_TRUE(gold.ok()) << gold.status();
  const Schema& schema = *(*reader)->schema();
  const DictionaryIds& ids = (*reader)->dictionary_ids();
  auto big = std::make_shared<Schema>(schema.fields(), schema.metadata(), Endianness::kBig);
  IpcBuilder builder(big);
  builder.set_dictionary_ids(ids);
  builder.AddSchema();
  // The values last sent for each dictionary id; a batch whose dictionary
  // differs is preceded by a replacement.
  std::map<int64_t, const ArrayData*> sent;
  for (const RecordBatchPtr& batch : *gold) {
    std::vector<IdAndValues> dictionaries;
    for (int c = 0; c < batch->num_columns(); ++c) {
      CollectDictionaries(*batch->column_data(c), FieldPath{c}, ids, &dictionaries);
      if (HasFatalFailure()) return;
    }
    for (const auto& [id, values] : dictionaries) {
      if (sent[id] == values.get()) continue;
      sent[id] = values.get();
      BodyBuilder dict_body;
      testing::DictionaryBatchMeta dm;
      dm.id = id;
      dm.data.length = values->length;
      Encode(*values, &dm.data, &dict_body);
      if (HasFatalFailure()) return;
      builder.AddDictionaryBatch(dm, dict_body.bytes());
    }
    BodyBuilder body;
    testing::RecordBatchMeta meta;
    meta.length = batch->num_rows();
    for (int c = 0; c < batch->num_columns(); ++c) {
      Encode(*batch->column_data(c), &meta, &body);
      if (HasFatalFailure()) return;
    }
    builder.AddRecordBatch(meta, body.bytes());
  }
  builder.AddEndOfStream();
  IpcReadOptions options;
  options.validate_full = true;
  auto back_reader = StreamReader::Open(builder.FinishStream(), options);
  ASSERT_TRUE(back_reader.ok()) << back_reader.status();
  EXPECT_EQ((*back_reader)->schema()->endianness(), NativeEndianness());
  auto back = (*back_reader)->ReadAll();
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), gold->size());
  for (size_t i = 0; i < gold->size(); ++i) {
    for (int c = 0; c < (*gold)[i]->num_columns(); ++c) {
      const ArrayData& want = *(*gold)[i]->column_data(c);
      const ArrayData& got = *(*back)[i]->column_data(c);
      EXPECT_TRUE(ArrayEquals(got, want, EqualOptions().with_nans_equal()))
          << "batch " << i << " column " << c << ": "
          << ArrayDiff(got, want, EqualOptions().with_nans_equal());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Integration, BigEndianGold,
                         ::testing::ValuesIn(::alkaid::testing::GoldIntegrationCases(".stream")),
                         CaseName);

}  // namespace
}  // namespace alkaid::ipc
