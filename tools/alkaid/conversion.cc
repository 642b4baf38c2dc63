#include "conversion.h"

#include "alkaid/parquet/writer.h"
#include "open_input.h"
#include "output_file.h"
#include "progress.h"
#include "report.h"

namespace alkaid::cli {

namespace {

Result<ipc::CompressionType> ParseIpcCompression(const std::string& name) {
  if (name == "none" || name.empty()) return ipc::CompressionType::kNone;
  if (name == "lz4") return ipc::CompressionType::kLz4Frame;
  if (name == "zstd") return ipc::CompressionType::kZstd;
  return Status::KeyError("--compression ", name,
                          " is for Parquet output; IPC compresses with none, lz4 or zstd");
}

Result<parquet::Compression> ParseParquetCompression(const std::string& name) {
  if (name.empty() || name == "snappy") return parquet::Compression::kSnappy;
  if (name == "none") return parquet::Compression::kUncompressed;
  if (name == "zstd") return parquet::Compression::kZstd;
  if (name == "gzip") return parquet::Compression::kGzip;
  if (name == "lz4") return parquet::Compression::kLz4Raw;
  if (name == "brotli") return parquet::Compression::kBrotli;
  return Status::KeyError("unknown compression '", name,
                          "' (expected none, snappy, zstd, gzip, lz4 or brotli)");
}

// The one call the write loop makes, over either writer.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  virtual Status Write(const RecordBatch& batch) = 0;
  virtual Status Close() = 0;
};

class IpcSink final : public BatchSink {
 public:
  explicit IpcSink(std::unique_ptr<ipc::RecordBatchWriter> writer) : writer_(std::move(writer)) {}
  Status Write(const RecordBatch& batch) override { return writer_->WriteRecordBatch(batch); }
  Status Close() override { return writer_->Close(); }

 private:
  std::unique_ptr<ipc::RecordBatchWriter> writer_;
};

class ParquetSink final : public BatchSink {
 public:
  explicit ParquetSink(std::unique_ptr<parquet::FileWriter> writer) : writer_(std::move(writer)) {}
  Status Write(const RecordBatch& batch) override { return writer_->WriteRecordBatch(batch); }
  Status Close() override { return writer_->Close(); }

 private:
  std::unique_ptr<parquet::FileWriter> writer_;
};

Result<std::unique_ptr<BatchSink>> MakeSink(io::OutputStream* sink, const SchemaPtr& schema,
                                            const DictionaryIds& ids,
                                            const WriteSettings& settings) {
  if (settings.format == "parquet") {
    parquet::WriterProperties props;
    ALKAID_ASSIGN_OR_RAISE(props.compression, ParseParquetCompression(settings.compression));
    if (settings.row_group_size > 0) props.max_row_group_rows = settings.row_group_size;
    ALKAID_ASSIGN_OR_RAISE(auto writer, parquet::FileWriter::Open(sink, schema, props));
    return std::unique_ptr<BatchSink>(std::make_unique<ParquetSink>(std::move(writer)));
  }
  if (settings.row_group_size > 0)
    return Status::KeyError("--row-group-size is for Parquet output (--format parquet)");
  ALKAID_ASSIGN_OR_RAISE(auto writer, MakeIpcWriter(sink, schema, ids, settings));
  return std::unique_ptr<BatchSink>(std::make_unique<IpcSink>(std::move(writer)));
}

}  // namespace

Result<std::unique_ptr<ipc::RecordBatchWriter>> MakeIpcWriter(io::OutputStream* sink,
                                                              const SchemaPtr& schema,
                                                              const DictionaryIds& ids,
                                                              const WriteSettings& settings) {
  ipc::IpcWriteOptions options;
  ALKAID_ASSIGN_OR_RAISE(options.compression, ParseIpcCompression(settings.compression));
  // Compressed output: batches are compressed on every core, each while the
  // one before it is written.
  options.use_threads = options.compression != ipc::CompressionType::kNone;
  options.write_behind = options.use_threads;
  if (settings.dialect == "alkaid") {
    options.dialect = ipc::IpcDialect::kAlkaid;
  } else if (settings.dialect != "arrow") {
    return Status::KeyError("unknown dialect '", settings.dialect, "' (expected arrow or alkaid)");
  }
  if (!ids.empty()) options.dictionary_ids = ids;
  if (settings.format == "file") return ipc::MakeFileWriter(sink, schema, options);
  if (settings.format == "stream") return ipc::MakeStreamWriter(sink, schema, options);
  return Status::KeyError("unknown format '", settings.format,
                          "' (expected file, stream or parquet)");
}

Status WriteBatches(const std::string& out, const SchemaPtr& schema, const DictionaryIds& ids,
                    const WriteSettings& settings,
                    const std::function<Result<RecordBatchPtr>()>& next, const Input* input) {
  ALKAID_ASSIGN_OR_RAISE(auto file, OutputFile::Create(out));
  ALKAID_ASSIGN_OR_RAISE(auto writer, MakeSink(file->stream(), schema, ids, settings));
  Progress progress("alkaid: writing " + out);
  int64_t batches = 0, rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, next());
    if (batch == nullptr) break;
    ALKAID_RETURN_NOT_OK(writer->Write(*batch));
    ++batches;
    rows += batch->num_rows();
    progress.Update(batches, rows, input);
  }
  ALKAID_RETURN_NOT_OK(writer->Close());
  progress.Finish();
  return file->Commit();
}

int ConvertInput(const Options& options) {
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  const std::string& in = options.input;
  const std::string& out = options.output;
  if (in != "-") {
    if (Status st = CheckDistinctFiles(in, out); !st.ok()) return Report(out, st, kExitUsage);
  }
  auto [input, code] = OpenOrReport(options, *names);
  if (!input) return code;
  // After a projection the original ids' paths no longer apply; renumber.
  DictionaryIds ids = names->empty() ? input->dictionary_ids() : DictionaryIds();
  Input* reader = input.get();
  Status st = WriteBatches(
      out, input->schema(), ids, options.write, [reader] { return reader->Next(); }, reader);
  if (!st.ok()) {
    // A limit of a text reader: say how to change it with this tool.
    st = WithHint(st, options);
    if (st.IsKeyError()) return Report(options.command, st, kExitUsage);
    return Report(st.IsIOError() ? out : InputName(in), st);
  }
  return kExitOk;
}

}  // namespace alkaid::cli
