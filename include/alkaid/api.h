/// @file
/// Everything public in alkaid, for programs that would rather include one
/// header than pick the ones they use:
///
///     #include <alkaid/api.h>
///
/// Modules: core (memory, types, arrays, builders, tables, validation,
/// comparison, printing), io, ipc (stream and file formats), extension
/// (canonical extension types) and json (integration format and JSON
/// literals). Link alkaid::alkaid, which brings all of them.
#pragma once

#include "alkaid/array.h"
#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/builder.h"
#include "alkaid/c_data/abi.h"
#include "alkaid/c_data/bridge.h"
#include "alkaid/compare.h"
#include "alkaid/concatenate.h"
#include "alkaid/csv/api.h"
#include "alkaid/decimal.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/encode.h"
#include "alkaid/visibility.h"
#include "alkaid/extension.h"
#include "alkaid/extension/bool8.h"
#include "alkaid/extension/fixed_shape_tensor.h"
#include "alkaid/extension/json.h"
#include "alkaid/extension/opaque.h"
#include "alkaid/extension/timestamp_with_offset.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/extension/variable_shape_tensor.h"
#include "alkaid/extension/variant.h"
#include "alkaid/extension_registry.h"
#include "alkaid/float16.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/integration_json/integration.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/metadata.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/schema.h"
#include "alkaid/parquet/types.h"
#include "alkaid/parquet/writer.h"
#include "alkaid/parquet/writer_properties.h"
#include "alkaid/pretty_print.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/small_vector.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/thread_pool.h"
#include "alkaid/type.h"
#include "alkaid/utf8.h"
#include "alkaid/validate.h"
#include "alkaid/version.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
