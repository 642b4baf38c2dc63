/// @file
/// Handing alkaid data to other Arrow libraries in-process, and taking theirs,
/// through the Arrow C Data Interface, C Stream Interface and C Device Data
/// Interface (structs in alkaid/c_data/abi.h).
///
/// Export fills a caller-provided struct. Nothing is copied: the struct points
/// at alkaid's own buffers and its private data holds references that keep
/// them alive until the consumer calls release (children and dictionaries are
/// released by their parent's release, as the specification asks).
///
/// Import takes ownership of the producer's struct: on return, success or not,
/// the caller's struct is marked released (release == NULL) and must not be
/// released again. Imported schemas are copied into alkaid types and released
/// at once. Imported arrays are zero-copy: every alkaid Buffer made from the
/// struct shares one holder, and the producer's release runs exactly once, when
/// the last of those buffers goes away. A buffer whose address does not suit
/// its element type's alignment is copied (only that buffer).
///
/// Imported structs are untrusted: counts of buffers and children against the
/// format string, null pointers where bytes must exist, negative lengths and
/// offsets, unknown format strings and bad metadata each give an Invalid status
/// naming the field path ("<root>.a.item"); then alkaid's validation runs
/// (ValidateArrayFull unless ImportOptions::validate_full is false, in which
/// case the O(buffers) structural checks still run).
///
/// Threads: export and import functions may be called from several threads on
/// different structs. An exported ArrowArrayStream is a cursor: its callbacks
/// must not be called concurrently (as the specification says), and the same
/// holds for a RecordBatchReader made by ImportRecordBatchReader. Releasing an
/// exported struct may happen on any thread.
#pragma once

#include <memory>

#include "alkaid/array_data.h"
#include "alkaid/c_data/abi.h"
#include "alkaid/visibility.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::c_data {

/// Settings of the Import functions. A plain value.
struct ImportOptions {
  /// Run ValidateArrayFull (O(length): offsets, UTF-8, indices, ...) on what
  /// is imported; false keeps only the O(buffers) structural validation, for
  /// producers that are trusted.
  bool validate_full = true;
};

// --- Schemas ---------------------------------------------------------------

/// A type as a nameless, nullable field. Extension types export their storage
/// with ARROW:extension:name / ARROW:extension:metadata in the metadata.
/// On success `out` is a new struct the caller owns and must release (as for
/// every Export function); on failure there is nothing to release.
ALKAID_EXPORT Status ExportType(const DataType& type, ArrowSchema* out);
/// The field (name, nullability, metadata, type) as an ArrowSchema.
ALKAID_EXPORT Status ExportField(const Field& field, ArrowSchema* out);
/// A schema is a "+s" struct whose children are the fields.
ALKAID_EXPORT Status ExportSchema(const Schema& schema, ArrowSchema* out);

/// Each consumes (releases) `schema`.
/// A type from its ArrowSchema (the name and flags are ignored).
ALKAID_EXPORT Result<DataTypePtr> ImportType(ArrowSchema* schema);
/// A field: name, nullability, metadata and type.
ALKAID_EXPORT Result<FieldPtr> ImportField(ArrowSchema* schema);
/// A schema from a "+s" struct schema whose children are the fields.
ALKAID_EXPORT Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

// --- Arrays ----------------------------------------------------------------

/// `data` must be valid for its type. If `out_schema` is given, the type is
/// exported there too.
ALKAID_EXPORT Status ExportArray(const ArrayData& data, ArrowArray* out,
                                 ArrowSchema* out_schema = nullptr);
/// A record batch is exported as a struct array of its columns.
ALKAID_EXPORT Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out,
                                       ArrowSchema* out_schema = nullptr);

/// Consume `array` (and `schema` where given).
/// The type is given by the caller.
ALKAID_EXPORT Result<ArrayDataPtr> ImportArray(ArrowArray* array, const DataTypePtr& type,
                                               const ImportOptions& options = {});
/// The type is imported from `schema`, which is consumed too.
ALKAID_EXPORT Result<ArrayDataPtr> ImportArray(ArrowArray* array, ArrowSchema* schema,
                                               const ImportOptions& options = {});
/// A record batch from a struct array whose children are the columns of
/// `schema`; the struct's own validity must have no nulls.
ALKAID_EXPORT Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema,
                                                       const ImportOptions& options = {});
/// The same with the schema imported from `schema` (consumed).
ALKAID_EXPORT Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema,
                                                       const ImportOptions& options = {});

// --- Streams ---------------------------------------------------------------

/// Exports any reader (IPC stream or file reader, in-memory batches, an
/// imported stream). Errors of the reader come back from get_next as EINVAL
/// (EIO for I/O errors, ENOMEM for allocation failures) with the message
/// available from get_last_error.
ALKAID_EXPORT Status ExportRecordBatchReader(std::shared_ptr<RecordBatchReader> reader,
                                             ArrowArrayStream* out);
/// Consumes `stream`: the returned reader owns it and releases it when
/// destroyed. Fails if get_schema fails or the schema does not import.
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> ImportRecordBatchReader(
    ArrowArrayStream* stream, const ImportOptions& options = {});

// --- Device interface (CPU device only) ------------------------------------

/// device_type ARROW_DEVICE_CPU, device_id -1, no sync event.
ALKAID_EXPORT Status ExportDeviceArray(const ArrayData& data, ArrowDeviceArray* out,
                                       ArrowSchema* out_schema = nullptr);
/// A record batch as a CPU device struct array (see ExportRecordBatch).
ALKAID_EXPORT Status ExportDeviceRecordBatch(const RecordBatch& batch, ArrowDeviceArray* out,
                                             ArrowSchema* out_schema = nullptr);
/// Fail with NotImplemented for any device other than the CPU (the struct is
/// still released).
ALKAID_EXPORT Result<ArrayDataPtr> ImportDeviceArray(ArrowDeviceArray* array,
                                                     const DataTypePtr& type,
                                                     const ImportOptions& options = {});
/// A record batch from a CPU device struct array (see ImportRecordBatch).
ALKAID_EXPORT Result<RecordBatchPtr> ImportDeviceRecordBatch(ArrowDeviceArray* array,
                                                             const SchemaPtr& schema,
                                                             const ImportOptions& options = {});
/// Exports `reader` as a C Device Stream of CPU arrays (see
/// ExportRecordBatchReader for errors and threads).
ALKAID_EXPORT Status ExportDeviceRecordBatchReader(std::shared_ptr<RecordBatchReader> reader,
                                                   ArrowDeviceArrayStream* out);
/// Consumes `stream`, as ImportRecordBatchReader does; NotImplemented when
/// its device type is not the CPU.
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> ImportDeviceRecordBatchReader(
    ArrowDeviceArrayStream* stream, const ImportOptions& options = {});

}  // namespace alkaid::c_data
