// Reader and writer of the Arrow integration-test JSON format (the
// X.json / X.json.gz files the Arrow projects exchange in cross-language
// tests): a schema, optional dictionaries and record batches whose buffers
// are spelled out value by value.
//
// Reading builds every ArrayData directly from the JSON arrays, checking
// counts, value ranges and encodings; errors carry a JSON path such as
// "batches[2].columns[1](name).children[0].DATA[5]". Writing produces the
// same layout and value encodings as the reference generator (two-space
// indentation, 64-bit integers as strings, upper-case hex, ASCII escapes).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/export.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::json {

struct ALKAID_EXPORT IntegrationFile {
  SchemaPtr schema;
  // Field path -> dictionary id, as the JSON declares them.
  DictionaryIds dictionary_ids;
  // Dictionary id -> values (typed as the dictionary's value type).
  std::map<int64_t, ArrayDataPtr> dictionaries;
  // Dictionary-encoded columns (at any depth, and inside dictionaries) have
  // ArrayData::dictionary set from `dictionaries`.
  std::vector<RecordBatchPtr> batches;
};

// Reads a file holding integration JSON, gzip-compressed or not (decided by
// the 1f 8b magic bytes, not by the file name).
ALKAID_EXPORT Result<IntegrationFile> ReadIntegrationFile(const std::string& path);
ALKAID_EXPORT Result<IntegrationFile> ParseIntegrationJson(std::string_view text);

// Serializes `file`; the dictionaries written are `file.dictionaries` and the
// ids those of `file.dictionary_ids` (sequential ids when it is empty).
// Output is deterministic.
ALKAID_EXPORT Result<std::string> WriteIntegrationJson(const IntegrationFile& file);
// Serializes batches under `schema`, collecting dictionaries from the
// dictionary-encoded columns. Ids come from `ids`, or are assigned in
// depth-first order when null. Every batch must carry the same dictionary per
// id (the format has one dictionary per id).
ALKAID_EXPORT Result<std::string> WriteIntegrationJson(const Schema& schema,
                                         const std::vector<RecordBatchPtr>& batches,
                                         const DictionaryIds* ids = nullptr);

// The schema part alone, e.g. for tools that print a schema.
ALKAID_EXPORT Result<std::string> WriteIntegrationSchemaJson(const Schema& schema,
                                               const DictionaryIds* ids = nullptr);

// Whole-file helpers used by the reader (and handy in tools and tests).
ALKAID_EXPORT Result<std::string> ReadMaybeGzip(const std::string& path);
ALKAID_EXPORT Result<std::string> GzipDecompress(std::string_view compressed);
ALKAID_EXPORT Result<std::string> GzipCompress(std::string_view bytes, int level = 6);
ALKAID_EXPORT bool LooksGzipped(std::string_view bytes);

}  // namespace alkaid::json
