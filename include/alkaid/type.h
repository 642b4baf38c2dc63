/// @file
/// The Arrow type system: data types with their parameters, fields, schemas
/// and ordered key-value metadata.
///
/// Types are immutable and shared (std::shared_ptr<DataType>). Concrete type
/// classes carry parameters only; anything that dispatches on the type goes
/// through VisitTypeInline in alkaid/visit_type.h.
///
/// The type system by concern, one header each (this header includes them all):
///
/// - alkaid/type/type_id.h: TypeId, TimeUnit, UnionMode, Endianness; the handles
///   DataTypePtr, FieldPtr, FieldVector, SchemaPtr
/// - alkaid/type/data_type.h: DataType, the base class; checked_cast
/// - alkaid/type/layout.h: BufferSpec and DataTypeLayout, the layout table
/// - alkaid/type/metadata.h: KeyValueMetadata
/// - alkaid/type/schema.h: Field, Schema
/// - alkaid/type/primitive.h: null, boolean, numbers, temporal and interval types,
///   fixed_size_binary, decimals
/// - alkaid/type/binary.h: binary, utf8, their large forms, binary_view, utf8_view
/// - alkaid/type/nested.h: lists, list views, fixed_size_list, map, struct, unions
/// - alkaid/type/encoded.h: dictionary, run_end_encoded
/// - alkaid/type/extension.h: ExtensionType
/// - alkaid/type/factory.h: int32(), utf8(), list(), field(), schema(), ...
///
/// Thread safety: DataType, Field and Schema objects never change after
/// construction (the only internal mutation, the cached layout, is published
/// atomically), so every const member function may be called from any number
/// of threads at once. KeyValueMetadata is shared as `const`; its mutators
/// (Append, Set) are for building a new instance owned by one thread.
#pragma once

#include "alkaid/type/binary.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/encoded.h"
#include "alkaid/type/extension.h"
#include "alkaid/type/factory.h"
#include "alkaid/type/layout.h"
#include "alkaid/type/metadata.h"
#include "alkaid/type/nested.h"
#include "alkaid/type/primitive.h"
#include "alkaid/type/schema.h"
#include "alkaid/type/type_id.h"
