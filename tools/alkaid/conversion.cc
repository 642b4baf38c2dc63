#include "conversion.h"

#include "open_input.h"
#include "output_file.h"
#include "progress.h"
#include "report.h"

namespace alkaid::cli {

namespace {

Result<ipc::CompressionType> ParseCompression(const std::string& name) {
  if (name == "none" || name.empty()) return ipc::CompressionType::kNone;
  if (name == "lz4") return ipc::CompressionType::kLz4Frame;
  if (name == "zstd") return ipc::CompressionType::kZstd;
  return Status::KeyError("unknown compression '", name, "' (expected none, lz4 or zstd)");
}

}  // namespace

Result<std::unique_ptr<ipc::RecordBatchWriter>> MakeIpcWriter(io::OutputStream* sink,
                                                              const SchemaPtr& schema,
                                                              const DictionaryIds& ids,
                                                              const WriteSettings& settings) {
  ipc::IpcWriteOptions options;
  ALKAID_ASSIGN_OR_RAISE(options.compression, ParseCompression(settings.compression));
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
  return Status::KeyError("unknown format '", settings.format, "' (expected file or stream)");
}

Status WriteBatches(const std::string& out, const SchemaPtr& schema, const DictionaryIds& ids,
                    const WriteSettings& settings,
                    const std::function<Result<RecordBatchPtr>()>& next, const Input* input) {
  ALKAID_ASSIGN_OR_RAISE(auto file, OutputFile::Create(out));
  ALKAID_ASSIGN_OR_RAISE(auto writer, MakeIpcWriter(file->stream(), schema, ids, settings));
  Progress progress("alkaid: writing " + out);
  int64_t batches = 0, rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, next());
    if (batch == nullptr) break;
    ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
    ++batches;
    rows += batch->num_rows();
    progress.Update(batches, rows, input);
  }
  ALKAID_RETURN_NOT_OK(writer->Close());
  progress.Finish();
  return file->Commit();
}

int ConvertInput(const Options& options, const TextReadOptions& text) {
  if (!text.error.ok()) return Report(options.command, text.error, kExitUsage);
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  const std::string& in = options.input;
  const std::string& out = options.output;
  if (in != "-") {
    if (Status st = CheckDistinctFiles(in, out); !st.ok()) return Report(out, st, kExitUsage);
  }
  auto [input, code] = OpenOrReport(options, *names, ipc::IpcReadOptions(), &text);
  if (!input) return code;
  // After a projection the original ids' paths no longer apply; renumber.
  DictionaryIds ids = names->empty() ? input->dictionary_ids() : DictionaryIds();
  Input* reader = input.get();
  Status st = WriteBatches(
      out, input->schema(), ids, options.write, [reader] { return reader->Next(); }, reader);
  if (!st.ok()) {
    // A limit of the text reader: say how to change it with this tool.
    if (input->is_text()) st = WithHint(st, options);
    return Report(st.IsIOError() ? out : InputName(in), st);
  }
  return kExitOk;
}

}  // namespace alkaid::cli
