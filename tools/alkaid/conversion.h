// Writing output (Arrow IPC or Parquet): the writer the write options ask for, batches
// written through a temporary file (output_file.h), and the whole
// read-then-write loop of the converting commands.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "alkaid/dictionary_ids.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/writer.h"
#include "sources/source.h"
#include "options.h"

namespace alkaid::cli {

Result<std::unique_ptr<ipc::RecordBatchWriter>> MakeIpcWriter(io::OutputStream* sink,
                                                              const SchemaPtr& schema,
                                                              const DictionaryIds& ids,
                                                              const WriteSettings& settings);

// Writes what `next` yields (until it returns nullptr) to `out` through a
// temporary file; on any failure the target is left as it was. `input`
// (may be null) feeds the progress line.
Status WriteBatches(const std::string& out, const SchemaPtr& schema, const DictionaryIds& ids,
                    const WriteSettings& settings,
                    const std::function<Result<RecordBatchPtr>()>& next, const Input* input);

// Reads options.input (any source) and writes it to options.output as the
// write settings say, batch by batch; returns the exit code.
int ConvertInput(const Options& options);

}  // namespace alkaid::cli
