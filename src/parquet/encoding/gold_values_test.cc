// The decoders against the Parquet project's gold files: every data page of
// every column of every unencrypted file decodes (levels and values) without
// error, values match the *_expect.csv files where they exist, and the
// BYTE_STREAM_SPLIT columns equal their PLAIN twins. The footer and page
// headers are read by a small test-only Thrift walker, not the reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "bit_packing.h"
#include "decoder.h"
#include "rle.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/compression/gold_pages_test_util.h"
#include "src/parquet/parquet_test_util.h"
#include "test_util/test_data.h"

namespace alkaid::parquet::internal {
namespace {

using testing::GoldFile;
using testing::ThriftValue;

struct Leaf {
  std::string path;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  int32_t type_length = 0;
};

// The leaves of the schema (FileMetaData field 2, a depth-first list with
// num_children), with their maximum levels.
bool Leaves(const ThriftValue& metadata, std::vector<Leaf>* out) {
  const ThriftValue* schema = metadata.Field(2);
  if (schema == nullptr || schema->list.empty()) return false;
  size_t pos = 1;
  std::function<bool(int64_t, int16_t, int16_t, const std::string&)> walk =
      [&](int64_t children, int16_t def, int16_t rep, const std::string& prefix) {
        for (int64_t c = 0; c < children; ++c) {
          if (pos >= schema->list.size()) return false;
          const ThriftValue& e = schema->list[pos++];
          const int64_t repetition = e.Int(3, 0);  // 0 required, 1 optional, 2 repeated
          const int16_t d = static_cast<int16_t>(def + (repetition != 0));
          const int16_t r = static_cast<int16_t>(rep + (repetition == 2));
          const std::string name = prefix + (prefix.empty() ? "" : ".") + e.Field(4)->bin;
          const int64_t kids = e.Int(5, 0);
          if (kids > 0) {
            if (!walk(kids, d, r, name)) return false;
          } else {
            out->push_back(Leaf{name, d, r, static_cast<int32_t>(e.Int(2, 0))});
          }
        }
        return true;
      };
  return walk(schema->list[0].Int(5, 0), 0, 0, "");
}

// One column chunk decoded to text: one entry per value slot ("" for null
// when the CSV has nulls as empty), in the forms the *_expect.csv files use.
struct Decoded {
  std::vector<std::string> values;
  std::vector<bool> present;
};

std::string Text(PhysicalType type, const uint8_t* p, int width) {
  switch (type) {
    case PhysicalType::kInt32: return std::to_string(LoadLE<int32_t>(p));
    case PhysicalType::kInt64: return std::to_string(LoadLE<int64_t>(p));
    default: return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(width));
  }
}

Status DecodeChunk(const testing::GoldColumnChunk& chunk, const Leaf& leaf, Decoded* out) {
  const auto type = static_cast<PhysicalType>(chunk.physical_type);
  const int width = FixedValueWidth(type, leaf.type_length);
  std::unique_ptr<Codec> codec;
  if (chunk.codec != 0) {
    ALKAID_ASSIGN_OR_RAISE(codec, MakeCodec(static_cast<Compression>(chunk.codec)));
  }
  std::unique_ptr<DictionaryDecoder> dict;
  std::map<int, std::unique_ptr<ValueDecoder>> decoders;
  for (const auto& page : chunk.pages) {
    const auto body = Buffer::FromString(page.body);
    if (page.type == 2) {
      ALKAID_ASSIGN_OR_RAISE(auto data, DecompressPage(codec.get(), body, page.uncompressed_size));
      ALKAID_ASSIGN_OR_RAISE(dict, MakeDictionaryDecoder(type, leaf.type_length));
      ALKAID_RETURN_NOT_OK(
          dict->SetDictionary(page.header.Field(7)->Int(1), data->data(), data->size()));
      continue;
    }
    if (page.type != 0 && page.type != 3) continue;
    const bool v2 = page.type == 3;
    const ThriftValue& h = *page.header.Field(v2 ? 8 : 5);
    const int64_t num_values = h.Int(1);
    const int encoding = static_cast<int>(h.Int(v2 ? 4 : 2));
    // Levels, then the values.
    BufferPtr data;
    const uint8_t* values;
    int64_t values_size;
    std::vector<int16_t> def(static_cast<size_t>(num_values), leaf.max_def);
    std::vector<int16_t> rep(static_cast<size_t>(num_values), 0);
    LevelDecoder levels;
    if (v2) {
      const int64_t rep_len = h.Int(6, 0), def_len = h.Int(5, 0);
      if (rep_len + def_len > static_cast<int64_t>(page.body.size())) return Status::Invalid("levels");
      const auto* raw = reinterpret_cast<const uint8_t*>(page.body.data());
      if (leaf.max_rep > 0) {
        ALKAID_RETURN_NOT_OK(levels.Reset(Encoding::kRle, leaf.max_rep, num_values, raw, rep_len,
                                          false, "repetition levels").status());
        ALKAID_RETURN_NOT_OK(levels.Decode(num_values, rep.data()));
      }
      if (leaf.max_def > 0) {
        ALKAID_RETURN_NOT_OK(levels.Reset(Encoding::kRle, leaf.max_def, num_values, raw + rep_len,
                                          def_len, false, "definition levels").status());
        ALKAID_RETURN_NOT_OK(levels.Decode(num_values, def.data()));
      }
      const bool compressed = codec && h.Int(7, 1) != 0;
      auto rest = SliceBuffer(body, rep_len + def_len, body->size() - rep_len - def_len);
      ALKAID_ASSIGN_OR_RAISE(data, DecompressPage(compressed ? codec.get() : nullptr, rest,
                                                  page.uncompressed_size - rep_len - def_len));
      values = data->data();
      values_size = data->size();
    } else {
      ALKAID_ASSIGN_OR_RAISE(data, DecompressPage(codec.get(), body, page.uncompressed_size));
      values = data->data();
      values_size = data->size();
      for (int pass = 0; pass < 2; ++pass) {
        const int16_t max = pass == 0 ? leaf.max_rep : leaf.max_def;
        if (max == 0) continue;
        const auto level_encoding = static_cast<Encoding>(h.Int(pass == 0 ? 4 : 3));
        ALKAID_ASSIGN_OR_RAISE(int64_t used,
                               levels.Reset(level_encoding, max, num_values, values, values_size,
                                            true, pass == 0 ? "repetition levels" : "definition levels"));
        ALKAID_RETURN_NOT_OK(levels.Decode(num_values, pass == 0 ? rep.data() : def.data()));
        values += used;
        values_size -= used;
      }
    }
    int64_t non_null = 0;
    for (int16_t d : def) non_null += d == leaf.max_def;
    ValueDecoder* dec;
    if (encoding == 2 || encoding == 8) {
      if (!dict) return Status::Invalid("dictionary-encoded page without a dictionary");
      dec = dict.get();
    } else {
      auto& slot = decoders[encoding];
      if (!slot) {
        ALKAID_ASSIGN_OR_RAISE(slot, MakeDecoder(type, static_cast<Encoding>(encoding),
                                                 leaf.type_length));
      }
      dec = slot.get();
    }
    ALKAID_RETURN_NOT_OK(dec->SetData(num_values, values, values_size));
    std::vector<std::string> texts;
    if (type == PhysicalType::kBoolean) {
      std::vector<uint8_t> bits(static_cast<size_t>(non_null / 8 + 1));
      ALKAID_RETURN_NOT_OK(dec->DecodeBits(non_null, bits.data(), 0));
      for (int64_t i = 0; i < non_null; ++i) {
        texts.push_back(bit_util::GetBit(bits.data(), i) ? "true" : "false");
      }
    } else if (type == PhysicalType::kByteArray) {
      alkaid::BufferBuilder offsets(default_memory_pool()), bytes(default_memory_pool());
      ALKAID_RETURN_NOT_OK(offsets.Append("\0\0\0\0", 4));
      BinaryOutput bin{&offsets, &bytes, false};
      ALKAID_ASSIGN_OR_RAISE(int64_t got, dec->DecodeBinary(non_null, &bin));
      if (got != non_null) return Status::Invalid("short binary decode");
      const auto* o = reinterpret_cast<const int32_t*>(offsets.data());
      for (int64_t i = 0; i < non_null; ++i) {
        texts.emplace_back(reinterpret_cast<const char*>(bytes.data()) + o[i],
                           static_cast<size_t>(o[i + 1] - o[i]));
      }
    } else {
      std::vector<uint8_t> fixed(static_cast<size_t>(non_null * width) + 1);
      ALKAID_RETURN_NOT_OK(dec->Decode(non_null, fixed.data()));
      for (int64_t i = 0; i < non_null; ++i) texts.push_back(Text(type, &fixed[i * width], width));
    }
    size_t next = 0;
    for (int64_t i = 0; i < num_values; ++i) {
      const bool present = def[static_cast<size_t>(i)] == leaf.max_def;
      out->present.push_back(present);
      out->values.push_back(present ? texts[next++] : "");
    }
  }
  return Status::OK();
}

// Reads a CSV with quoted fields into rows of fields; an unquoted empty field is null ("").
std::vector<std::vector<std::string>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char ch = line[i];
      if (quoted) {
        if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') field += '"', ++i;
        else if (ch == '"') quoted = false;
        else field += ch;
      } else if (ch == '"') {
        quoted = true;
      } else if (ch == ',') {
        row.push_back(field);
        field.clear();
      } else {
        field += ch;
      }
    }
    row.push_back(field);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::map<std::string, Decoded> DecodeFile(const std::string& path, int* columns) {
  std::map<std::string, Decoded> out;
  auto file = testing::ReadGoldFile(path);
  if (!file) return out;
  std::vector<Leaf> leaves;
  if (!Leaves(file->metadata, &leaves)) return out;
  for (size_t i = 0; i < file->chunks.size(); ++i) {
    const auto& chunk = file->chunks[i];
    const Leaf& leaf = leaves[i % leaves.size()];
    if (chunk.pages.empty()) continue;
    // The 1 GiB pages of large_string_map are the reader's test, not this one's.
    bool huge = false;
    for (const auto& p : chunk.pages) huge = huge || p.uncompressed_size > (int64_t{64} << 20);
    if (huge) continue;
    Status st = DecodeChunk(chunk, leaf, &out[leaf.path]);
    EXPECT_TRUE(st.ok()) << path << " column " << leaf.path << ": " << st.ToString();
    ++*columns;
  }
  return out;
}

TEST(ParquetGoldValues, EveryColumnOfEveryFileDecodes) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  int files = 0, columns = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/parquet-testing/data")) {
    if (entry.path().extension() != ".parquet") continue;
    if (entry.path().filename() == "nation.dict-malformed.parquet") continue;  // bad on purpose
    DecodeFile(entry.path().string(), &columns);
    ++files;
  }
  EXPECT_GT(columns, 200);
  std::cout << files << " files, " << columns << " column chunks decoded\n";
}

TEST(ParquetGoldValues, MatchTheExpectedCsv) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  for (const char* name : {"delta_binary_packed", "delta_byte_array",
                           "delta_encoding_optional_column"}) {
    SCOPED_TRACE(name);
    const std::string base = dir + "/parquet-testing/data/" + name;
    int columns = 0;
    auto decoded = DecodeFile(base + ".parquet", &columns);
    auto csv = ReadCsv(base + "_expect.csv");
    ASSERT_GT(csv.size(), 1u);
    const auto& header = csv[0];
    int compared = 0;
    for (size_t c = 0; c < header.size(); ++c) {
      // The CSV headers of one file have a stray leading space.
      std::string column = header[c];
      column.erase(0, column.find_first_not_of(' '));
      auto it = decoded.find(column);
      ASSERT_NE(it, decoded.end()) << column;
      ASSERT_EQ(it->second.values.size(), csv.size() - 1) << column;
      for (size_t r = 1; r < csv.size(); ++r) {
        ASSERT_EQ(it->second.values[r - 1], csv[r][c]) << column << " row " << r - 1;
      }
      ++compared;
    }
    EXPECT_EQ(compared, static_cast<int>(header.size()));
  }
}

TEST(ParquetGoldValues, ByteStreamSplitEqualsPlain) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  int columns = 0;
  auto decoded =
      DecodeFile(dir + "/parquet-testing/data/byte_stream_split_extended.gzip.parquet", &columns);
  int pairs = 0;
  for (const auto& [name, values] : decoded) {
    const auto at = name.rfind("_plain");
    if (at == std::string::npos) continue;
    auto twin = decoded.find(name.substr(0, at) + "_byte_stream_split");
    ASSERT_NE(twin, decoded.end()) << name;
    EXPECT_EQ(twin->second.values, values.values) << name;
    EXPECT_EQ(twin->second.present, values.present) << name;
    ++pairs;
  }
  EXPECT_EQ(pairs, 7);
}

}  // namespace
}  // namespace alkaid::parquet::internal
