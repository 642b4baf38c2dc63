/// @file
/// RecordBatchReader: the one interface for "a schema, then record batches one
/// at a time". IPC stream and file readers implement it, a vector of batches
/// can be wrapped into one, and the C Stream Interface exports and imports it.
///
/// Threads: a RecordBatchReader is a cursor; calls on one reader must not
/// overlap. Different readers are independent.
#pragma once

#include <memory>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid {

/// A source of record batches that all share one schema, read one at a time.
/// Implementations may read lazily from a file, a socket or another library;
/// every error comes back from Next() as a Status.
class ALKAID_EXPORT RecordBatchReader {
 public:
  virtual ~RecordBatchReader() = default;

  /// The schema every batch has.
  virtual const SchemaPtr& schema() const = 0;

  /// The next batch, or nullptr once the batches are exhausted.
  virtual Result<RecordBatchPtr> Next() = 0;

  /// Every batch that Next() has not returned yet.
  Result<std::vector<RecordBatchPtr>> ReadRemaining();

  /// Every remaining batch as a table with this reader's schema.
  Result<TablePtr> ToTable();

  /// A reader over batches already in memory. `schema` may be null when
  /// `batches` is not empty: the first batch's schema is used. Every batch
  /// must have that schema.
  static Result<std::unique_ptr<RecordBatchReader>> Make(std::vector<RecordBatchPtr> batches,
                                                         SchemaPtr schema = nullptr);
};

/// Shared ownership of a reader, as ExportRecordBatchReader takes it.
using RecordBatchReaderPtr = std::shared_ptr<RecordBatchReader>;

}  // namespace alkaid
