// Internal: the schema codec, i.e. conversion between alkaid schemas (fields,
// types, key-value metadata, dictionary ids) and the IPC Flatbuffers Schema
// table, both ways. Shared by the IPC writers and readers; not installed.
#pragma once

#include <string_view>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/fbs/Message_generated.h"
#include "alkaid/fbs/Schema_generated.h"
#include "alkaid/ipc/options.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid::ipc::internal {

// Not installed. What the tests call through a shared library (BUILD_SHARED_LIBS=ON) is
// marked ALKAID_EXPORT; the rest stays hidden.

namespace fb = org::apache::arrow::flatbuf;

// "0.2.1": a field path as error messages show it.
std::string FieldPathToString(const FieldPath& path);

// The extension metadata keys of a dialect.
ALKAID_EXPORT const char* ExtensionNameKey(IpcDialect dialect);
ALKAID_EXPORT const char* ExtensionMetadataKey(IpcDialect dialect);

// ---------------------------------------------------------------------------
// Key-value metadata

// Null or empty metadata gives a null offset (field omitted).
flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>> WriteKeyValueMetadata(
    flatbuffers::FlatBufferBuilder* fbb, const KeyValueMetadata* metadata);

// A null vector gives nullptr. Entries without key or value are rejected;
// `where` names the owner in error messages (e.g. "field 'a.b'").
ALKAID_EXPORT Result<MetadataPtr> ReadKeyValueMetadata(
    const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* kv, std::string_view where);

// ---------------------------------------------------------------------------
// Schema

// Appends a Schema table describing `schema` to `fbb`. Dictionary-encoded
// fields get their ids from `ids` (missing id: Invalid); extension types are
// written as their storage type plus the dialect's extension metadata keys.
// `max_depth` bounds type nesting.
ALKAID_EXPORT Result<flatbuffers::Offset<fb::Schema>> WriteSchema(
    flatbuffers::FlatBufferBuilder* fbb, const Schema& schema, const DictionaryIds& ids,
    IpcDialect dialect, int max_depth = kDefaultMaxRecursionDepth);

// Clears `fbb` and builds a finished Message (version V5, header Schema,
// bodyLength 0) into it.
Status BuildSchemaMessage(flatbuffers::FlatBufferBuilder* fbb, const Schema& schema,
                          const DictionaryIds& ids, IpcDialect dialect,
                          int max_depth = kDefaultMaxRecursionDepth);

// The same message as a standalone buffer (unframed).
ALKAID_EXPORT Result<BufferPtr> SerializeSchemaMessage(const Schema& schema,
                                                       const DictionaryIds& ids,
                                                       IpcDialect dialect,
                                                       int max_depth = kDefaultMaxRecursionDepth);

struct SchemaReadResult {
  SchemaPtr schema;
  // Path -> id of every dictionary-encoded field.
  DictionaryIds dictionary_ids;
};

// Rebuilds a Schema from an already-verified Flatbuffers table. Checks every
// value (required tables present, enums known, child counts, widths, union
// codes, nesting depth <= max_depth) and reports errors with the field path.
// Extension metadata (either dialect's keys) is turned into the registered
// extension type, whose two keys are then dropped from the field metadata;
// unknown extension names keep the storage type and the keys. Fields sharing
// a dictionary id must have equal value types.
ALKAID_EXPORT Result<SchemaReadResult> ReadSchema(const fb::Schema* schema,
                                                  int max_depth = kDefaultMaxRecursionDepth);

// ---------------------------------------------------------------------------
// Dictionary-encoded fields

struct DictionaryField {
  FieldPath path;
  int64_t id = 0;
  // The field's dictionary type (extension wrappers removed).
  const DictionaryType* type = nullptr;
};

// Every dictionary-encoded field of `schema` in pre-order (a dictionary's
// value type is walked after the field itself), with its id from `ids`.
// Fails when a field has no id, or when fields sharing an id have different
// value types.
ALKAID_EXPORT Result<std::vector<DictionaryField>> CollectDictionaryFields(
    const Schema& schema, const DictionaryIds& ids);

}  // namespace alkaid::ipc::internal
