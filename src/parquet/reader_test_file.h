// Test-only: Parquet files built by hand, page by page, from explicit levels and PLAIN
// values, so reader tests can state exactly what a file holds, and hostile tests can damage
// one field of a footer or a page header at a time (the edit hooks).
#pragma once

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/builder.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/encoding/rle.h"
#include "src/parquet/schema/schema_tree.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet::testing {

/// One data page (or, as TestChunk::dictionary, a dictionary page of `num_values` values).
struct TestPage {
  int32_t num_values = 0;  ///< level entries (data pages) or dictionary entries
  std::vector<int16_t> rep;
  std::vector<int16_t> def;
  std::string values;  ///< encoded values (PLAIN unless `encoding` says otherwise)
  Encoding encoding = Encoding::kPlain;
  bool v2 = false;
};

struct TestChunk {
  std::optional<TestPage> dictionary;
  std::vector<TestPage> pages;
  Compression codec = Compression::kUncompressed;
  bool write_crc = false;
};

inline std::string PlainBytes(const void* data, size_t n) {
  return std::string(static_cast<const char*>(data), n);
}
template <typename T>
std::string Plain(const std::vector<T>& values) {
  return PlainBytes(values.data(), values.size() * sizeof(T));
}
inline std::string PlainStrings(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    uint32_t n = static_cast<uint32_t>(v.size());
    out += PlainBytes(&n, 4) + v;
  }
  return out;
}

inline format::SchemaElement Root(int children) {
  format::SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}
inline format::SchemaElement Leaf(const std::string& name, PhysicalType type, Repetition rep,
                                  LogicalType logical = {}, int32_t type_length = 0) {
  format::SchemaElement e;
  e.name = name;
  e.type = static_cast<int32_t>(type);
  e.repetition_type = static_cast<format::FieldRepetitionType>(rep);
  if (type_length > 0) e.type_length = type_length;
  internal::SetAnnotation(logical, &e);
  return e;
}
inline format::SchemaElement Group(const std::string& name, int children, Repetition rep,
                                   LogicalType::Kind kind = LogicalType::Kind::kNone) {
  format::SchemaElement e;
  e.name = name;
  e.num_children = children;
  e.repetition_type = static_cast<format::FieldRepetitionType>(rep);
  LogicalType logical;
  logical.kind = kind;
  internal::SetAnnotation(logical, &e);
  return e;
}

/// Builds the bytes of a file. Leaves get their paths and levels from `schema`.
struct TestFileBuilder {
  std::vector<format::SchemaElement> schema;
  std::vector<std::vector<TestChunk>> row_groups;  ///< [row group][leaf column]
  std::vector<int64_t> rows;                        ///< per row group
  std::vector<format::KeyValue> key_value_metadata;
  std::function<void(format::FileMetaData*)> edit_footer;
  std::function<void(int row_group, int column, int page, format::PageHeader*)> edit_page;

  std::string Build() const {
    auto tree = internal::BuildSchema(schema);
    std::string out = "PAR1";
    format::FileMetaData md;
    md.version = 1;
    md.schema = schema;
    md.created_by = "alkaid test builder";
    // A schema the reader must refuse still gets a file: the footer alone.
    for (size_t g = 0; g < row_groups.size() && tree.ok(); ++g) {
      format::RowGroup rg;
      rg.num_rows = rows[g];
      md.num_rows += rows[g];
      for (size_t c = 0; c < row_groups[g].size(); ++c) {
        const ColumnDescriptor& col = tree->column(static_cast<int>(c));
        const TestChunk& chunk = row_groups[g][c];
        std::unique_ptr<internal::Codec> codec;
        if (chunk.codec != Compression::kUncompressed) {
          codec = *internal::MakeCodec(chunk.codec);
        }
        format::ColumnMetaData meta;
        meta.type = static_cast<int32_t>(col.physical_type);
        meta.path_in_schema = col.path;
        meta.codec = static_cast<int32_t>(chunk.codec);
        const int64_t start = static_cast<int64_t>(out.size());
        int page_index = 0;
        auto write_page = [&](const TestPage& page, bool dictionary) {
          std::string levels, body;
          if (!dictionary) {
            if (col.max_repetition_level > 0) levels += Levels(page.rep, col.max_repetition_level, !page.v2);
            if (col.max_definition_level > 0) levels += Levels(page.def, col.max_definition_level, !page.v2);
          }
          std::string stored_values = Compress(codec.get(), page.values);
          format::PageHeader h;
          if (dictionary) {
            h.type = format::PageType::kDictionaryPage;
            h.dictionary_page_header.emplace();
            h.dictionary_page_header->num_values = page.num_values;
            h.dictionary_page_header->encoding = static_cast<int32_t>(Encoding::kPlain);
            body = stored_values;
            h.uncompressed_page_size = static_cast<int32_t>(page.values.size());
          } else if (page.v2) {
            h.type = format::PageType::kDataPageV2;
            h.data_page_header_v2.emplace();
            auto& v2 = *h.data_page_header_v2;
            v2.num_values = page.num_values;
            int nulls = 0;
            for (int16_t d : page.def) nulls += d < col.max_definition_level;
            v2.num_nulls = nulls;
            int rows_in_page = 0;
            for (int16_t r : page.rep) rows_in_page += r == 0;
            v2.num_rows = col.max_repetition_level > 0 ? rows_in_page : page.num_values;
            v2.encoding = static_cast<int32_t>(page.encoding);
            v2.repetition_levels_byte_length = static_cast<int32_t>(
                col.max_repetition_level > 0 ? Levels(page.rep, col.max_repetition_level, false).size() : 0);
            v2.definition_levels_byte_length =
                static_cast<int32_t>(levels.size()) - v2.repetition_levels_byte_length;
            body = levels + stored_values;
            h.uncompressed_page_size = static_cast<int32_t>(levels.size() + page.values.size());
          } else {
            h.type = format::PageType::kDataPage;
            h.data_page_header.emplace();
            h.data_page_header->num_values = page.num_values;
            h.data_page_header->encoding = static_cast<int32_t>(page.encoding);
            h.data_page_header->definition_level_encoding = static_cast<int32_t>(Encoding::kRle);
            h.data_page_header->repetition_level_encoding = static_cast<int32_t>(Encoding::kRle);
            std::string raw = levels + page.values;
            body = Compress(codec.get(), raw);
            h.uncompressed_page_size = static_cast<int32_t>(raw.size());
          }
          h.compressed_page_size = static_cast<int32_t>(body.size());
          if (chunk.write_crc) h.crc = static_cast<int32_t>(Crc32(body));
          if (edit_page) edit_page(static_cast<int>(g), static_cast<int>(c), page_index, &h);
          ++page_index;
          thrift::SerializeThrift(h, &out);
          out += body;
        };
        if (chunk.dictionary) {
          meta.dictionary_page_offset = static_cast<int64_t>(out.size());
          write_page(*chunk.dictionary, true);
        }
        meta.data_page_offset = static_cast<int64_t>(out.size());
        for (const auto& page : chunk.pages) {
          write_page(page, false);
          meta.num_values += page.num_values;
          meta.encodings.push_back(static_cast<int32_t>(page.encoding));
        }
        meta.total_compressed_size = static_cast<int64_t>(out.size()) - start;
        meta.total_uncompressed_size = meta.total_compressed_size;
        format::ColumnChunk cc;
        cc.file_offset = start;
        cc.meta_data = std::move(meta);
        rg.columns.push_back(std::move(cc));
      }
      md.row_groups.push_back(std::move(rg));
    }
    if (!key_value_metadata.empty()) md.key_value_metadata = key_value_metadata;
    if (edit_footer) edit_footer(&md);
    std::string footer;
    thrift::SerializeThrift(md, &footer);
    out += footer;
    uint32_t n = static_cast<uint32_t>(footer.size());
    out += PlainBytes(&n, 4) + "PAR1";
    return out;
  }

  // CRC-32 (the polynomial of zlib and gzip), bit by bit: test data is small.
  static uint32_t Crc32(const std::string& bytes) {
    uint32_t crc = 0xffffffffu;
    for (unsigned char b : bytes) {
      crc ^= b;
      for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
  }

 private:
  static std::string Levels(const std::vector<int16_t>& levels, int16_t max, bool prefixed) {
    internal::RleBitPackedEncoder enc(internal::DictionaryIndexBitWidth(max + 1), default_memory_pool());
    (void)enc.Put(levels.data(), static_cast<int64_t>(levels.size()));
    alkaid::BufferBuilder buf(default_memory_pool());
    (void)enc.FinishInto(&buf, prefixed);
    return std::string(reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(buf.size()));
  }
  static std::string Compress(const internal::Codec* codec, const std::string& raw) {
    if (codec == nullptr) return raw;
    alkaid::BufferBuilder buf(default_memory_pool());
    (void)codec->Compress(reinterpret_cast<const uint8_t*>(raw.data()),
                          static_cast<int64_t>(raw.size()), &buf);
    return std::string(reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(buf.size()));
  }
};

}  // namespace alkaid::parquet::testing
