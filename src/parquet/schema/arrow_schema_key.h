// The footer's ARROW:schema key: the Arrow schema a writer started from, as the base64 of
// an IPC schema message (what Arrow C++ writes), and the restoration of the types Parquet
// cannot state by itself (time zones, large and view layouts, durations, dictionaries,
// extension types, second-unit times, date64, narrow decimals, field metadata).
#pragma once

#include <string>
#include <string_view>

#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// The value of an ARROW:schema key for `schema` (the writer's side).
ALKAID_EXPORT Result<std::string> EncodeArrowSchemaKey(const Schema& schema);
/// The schema an ARROW:schema value holds.
Result<SchemaPtr> DecodeArrowSchemaKey(std::string_view value);

/// The type to hand out for a column decoded as `decoded` whose writer's type was `origin`:
/// `origin` where the decoded data can be turned into it (RestoreArray does that), parts of
/// it where only parts can, `decoded` where they do not correspond.
DataTypePtr RestoredType(const DataTypePtr& decoded, const DataTypePtr& origin);
/// The field: RestoredType, the origin's field metadata (with the decoded PARQUET:field_id).
FieldPtr RestoredField(const FieldPtr& decoded, const FieldPtr& origin);
/// The schema: fields restored position by position when the origin has the same field
/// names; otherwise `decoded` itself.
SchemaPtr RestoreSchema(const SchemaPtr& decoded, const Schema& origin);

}  // namespace alkaid::parquet::internal
