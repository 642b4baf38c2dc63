/// @file
/// Everything public in alkaid, for programs that would rather include one
/// header than pick the ones they use:
///
///     #include <alkaid/api.h>
///
/// Link alkaid::alkaid, which brings every module, or the target of one module
/// (alkaid::ipc, alkaid::csv, ...), which brings the modules it needs. The
/// modules, each with its own `api.h`:
///
/// - core (alkaid::core): status, memory, types (alkaid/type.h), arrays,
///   builders (alkaid/builder.h), tables, validation, comparison, encoding,
///   printing: the headers directly under alkaid/, listed below.
/// - io (in alkaid::core): byte sources and sinks: files, memory maps, buffers
///   (alkaid/io/api.h).
/// - ipc (alkaid::ipc): the Arrow IPC stream and file formats, with LZ4 and
///   ZSTD compression (alkaid/ipc/api.h).
/// - extension (alkaid::extension): the canonical extension types, arrow.uuid,
///   arrow.json, tensors, ... (alkaid/extension/api.h).
/// - integration_json (alkaid::integration_json): Arrow's integration JSON
///   format and JSON literals of arrays; not JSON Lines
///   (alkaid/integration_json/api.h).
/// - c_data (alkaid::c_data): the C Data, C Stream and C Device Data
///   Interfaces, to exchange arrays with other libraries (alkaid/c_data/api.h).
/// - text (alkaid::text): values parsed from and formatted as text, shared by
///   csv and jsonl (no public headers yet: csv/api.h and jsonl/api.h are its
///   front doors).
/// - csv (alkaid::csv): CSV reading and writing (alkaid/csv/api.h).
/// - jsonl (alkaid::jsonl): JSON Lines, one JSON object per line, reading and
///   writing (alkaid/jsonl/api.h).
/// - parquet (alkaid::parquet): Apache Parquet files read as Arrow data and
///   Arrow data written as Parquet (alkaid/parquet/api.h).
/// - flight (coming): Arrow Flight, record batches over gRPC.
#pragma once

// core
#include "alkaid/array.h"
#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/builder.h"
#include "alkaid/compare.h"
#include "alkaid/concatenate.h"
#include "alkaid/decimal.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/encode.h"
#include "alkaid/extension_registry.h"
#include "alkaid/flight/api.h"
#include "alkaid/flight/client.h"
#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"
#include "alkaid/flight/server.h"
#include "alkaid/flight/types.h"
#include "alkaid/float16.h"
#include "alkaid/memory.h"
#include "alkaid/pretty_print.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/small_vector.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/thread_pool.h"
#include "alkaid/type.h"
#include "alkaid/type_name.h"
#include "alkaid/utf8.h"
#include "alkaid/validate.h"
#include "alkaid/version.h"
#include "alkaid/visibility.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

// the other modules
#include "alkaid/c_data/api.h"
#include "alkaid/csv/api.h"
#include "alkaid/extension.h"  // the same as alkaid/extension/api.h, for older code
#include "alkaid/extension/api.h"
#include "alkaid/integration_json/api.h"
#include "alkaid/io/api.h"
#include "alkaid/ipc/api.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/parquet/api.h"
