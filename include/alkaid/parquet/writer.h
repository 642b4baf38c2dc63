/// @file
/// Writing Arrow data as Parquet files.
///
/// @code
///   // One call: a temporary file beside the target, renamed over it on success.
///   ALKAID_RETURN_NOT_OK(parquet::WriteTable(*table, "out.parquet"));
///
///   // Streaming: batches in, row groups out.
///   ALKAID_ASSIGN_OR_RAISE(auto sink, io::FileOutputStream::Open("out.parquet"));
///   ALKAID_ASSIGN_OR_RAISE(auto writer, parquet::FileWriter::Open(sink.get(), schema, props));
///   for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
///   ALKAID_RETURN_NOT_OK(writer->Close());
/// @endcode
///
/// Every Arrow type but unions can be written (see WriterProperties for the encodings,
/// codecs and sizes). The footer carries the Arrow schema in its ARROW:schema key, as Arrow
/// C++ writes it, so that Arrow readers get back dictionaries, large and view layouts,
/// durations, time zones, extension types and field metadata; other readers see the Parquet
/// logical types.
///
/// Memory: the writer holds the encoded pages of the row group being written (plus each
/// column's dictionary) until the row group is closed, then writes them to the sink.
///
/// Threads: the calls on one FileWriter must not overlap; separate writers are independent.
/// With WriterProperties::use_threads a row group's columns are encoded on the thread pool.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alkaid/io/output.h"
#include "alkaid/parquet/writer_properties.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet {

/// Writes one Parquet file to an io::OutputStream.
class ALKAID_EXPORT FileWriter {
 public:
  /// Checks the properties, maps the schema to Parquet (NotImplemented for unions and
  /// structs without fields, naming the field) and writes the leading magic. The sink must
  /// outlive the writer and is not closed by it.
  static Result<std::unique_ptr<FileWriter>> Open(io::OutputStream* sink, SchemaPtr schema,
                                                  WriterProperties properties = {});
  /// Without Close() the sink holds an incomplete file (no footer), which readers refuse.
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  /// Appends the batch's rows to the current row group, closing row groups as they reach
  /// max_row_group_rows (or max_row_group_bytes). The batch's schema must have the
  /// writer's field types (names and metadata are not compared). A non-nullable field
  /// holding a null that would be written is an error.
  Status WriteRecordBatch(const RecordBatch& batch);
  /// Appends the table's rows, as WriteRecordBatch does for each of its chunks.
  Status WriteTable(const Table& table);
  /// Closes the current row group (if it has rows): the next rows start a new one.
  Status NewRowGroup();
  /// Closes the last row group, writes the page index and the footer. The sink stays open.
  /// A second call does nothing; any other call afterwards fails.
  Status Close();

  /// The Arrow schema the writer was opened with.
  const SchemaPtr& schema() const;
  /// Rows written so far (those of the open row group included).
  int64_t num_rows() const;
  /// Row groups closed so far.
  int num_row_groups() const;

 private:
  class Impl;
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Writes `table` to the file at `path`: to a temporary file in the same directory first,
/// renamed over `path` once complete, so that a failure leaves `path` as it was and no
/// partial file behind.
ALKAID_EXPORT Status WriteTable(const Table& table, const std::string& path,
                                const WriterProperties& properties = {});

/// Writes `table` as a Parquet file in memory (handy for tests and for sending files).
ALKAID_EXPORT Result<BufferPtr> WriteTableToBuffer(const Table& table,
                                                   const WriterProperties& properties = {});

}  // namespace alkaid::parquet
